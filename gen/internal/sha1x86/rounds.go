package sha1x86

import (
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// vars names the registers holding the working variables a..e. A round
// does not move values: it renames, so the register holding e (which
// receives the new value) is a in the next round.
type vars struct{ a, b, c, d, e reg.GPPhysical }

func (v vars) next() vars { return vars{a: v.e, b: v.a, c: v.b, d: v.c, e: v.d} }

// roundK returns SHA-1's constant for round t (FIPS 180-4, 4.2.1).
func roundK(t int) uint32 {
	return [4]uint32{0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6}[t/20]
}

// roundSteps returns the scalar instructions of round t:
//
//	e += W[t]+K;  e += f_t(b, c, d);  e += rol5(a);  b = rol30(b)
//
// The first step reads the ring, so a vector step placed after it in the
// same round may overwrite that slot.
func (e *emitter) roundSteps(t int, v vars) []step {
	c := e.ctx
	tmp := e.tmp
	steps := []step{func() {
		e.comment("Round %d", t)
		c.ADDL(e.readWK(t), v.e)
	}}
	switch t / 20 {
	case 0: // Ch(b, c, d) = (b & c) | (^b & d) = d ^ (b & (c ^ d))
		steps = append(steps,
			func() { c.MOVL(v.c, tmp) },
			func() { c.XORL(v.d, tmp) },
			func() { c.ANDL(v.b, tmp) },
			func() { c.XORL(v.d, tmp) },
			func() { c.ADDL(tmp, v.e) },
		)
	case 1, 3: // Parity(b, c, d) = b ^ c ^ d
		steps = append(steps,
			func() { c.MOVL(v.c, tmp) },
			func() { c.XORL(v.d, tmp) },
			func() { c.XORL(v.b, tmp) },
			func() { c.ADDL(tmp, v.e) },
		)
	case 2: // Maj(b, c, d) = (b & c) | (d & (b | c))
		tmp2 := e.tmp2
		steps = append(steps,
			func() { c.MOVL(v.b, tmp) },
			func() { c.ORL(v.c, tmp) },
			func() { c.ANDL(v.d, tmp) },
			func() { c.MOVL(v.b, tmp2) },
			func() { c.ANDL(v.c, tmp2) },
			func() { c.ORL(tmp2, tmp) },
			func() { c.ADDL(tmp, v.e) },
		)
	}
	steps = append(steps,
		func() { c.MOVL(v.a, tmp) },
		func() { c.ROLL(U8(5), tmp) },
		func() { c.ADDL(tmp, v.e) },
		func() { c.RORL(U8(2), v.b) }, // rol 30
	)
	return steps
}
