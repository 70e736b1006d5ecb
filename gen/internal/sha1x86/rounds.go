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
	case 2:
		steps = append(steps, e.majSteps(v)...)
	}
	steps = append(steps, e.rol5Steps(v)...)
	steps = append(steps, e.rol30Steps(v.b)...)
	return steps
}

// majSteps adds Maj(b, c, d) into e, in the form Params.Maj names.
func (e *emitter) majSteps(v vars) []step {
	c, tmp, tmp2 := e.ctx, e.tmp, e.tmp2
	if e.p.Maj == "add" {
		// The halves c&d and b&(c^d) have no bit in common, so their OR
		// is their sum, and each can be added into e on its own.
		return []step{
			func() { c.MOVL(v.c, tmp) },
			func() { c.ANDL(v.d, tmp) },
			func() { c.ADDL(tmp, v.e) },
			func() { c.MOVL(v.c, tmp2) },
			func() { c.XORL(v.d, tmp2) },
			func() { c.ANDL(v.b, tmp2) },
			func() { c.ADDL(tmp2, v.e) },
		}
	}
	// Maj(b, c, d) = (b & c) | (d & (b | c))
	return []step{
		func() { c.MOVL(v.b, tmp) },
		func() { c.ORL(v.c, tmp) },
		func() { c.ANDL(v.d, tmp) },
		func() { c.MOVL(v.b, tmp2) },
		func() { c.ANDL(v.c, tmp2) },
		func() { c.ORL(tmp2, tmp) },
		func() { c.ADDL(tmp, v.e) },
	}
}

// rol5Steps adds rol5(a) into e, as Params.Rotate says.
func (e *emitter) rol5Steps(v vars) []step {
	c, tmp, tmp2 := e.ctx, e.tmp, e.tmp2
	switch e.p.Rotate {
	case "shld":
		return []step{
			func() { c.MOVL(v.a, tmp) },
			func() { c.SHLL(U8(5), tmp, tmp) }, // SHLD: tmp<<5 | tmp>>27
			func() { c.ADDL(tmp, v.e) },
		}
	case "shift":
		// a<<5 and a>>27 have no bit in common: adding both is adding rol5(a).
		return []step{
			func() { c.MOVL(v.a, tmp) },
			func() { c.SHLL(U8(5), tmp) },
			func() { c.ADDL(tmp, v.e) },
			func() { c.MOVL(v.a, tmp2) },
			func() { c.SHRL(U8(27), tmp2) },
			func() { c.ADDL(tmp2, v.e) },
		}
	}
	return []step{
		func() { c.MOVL(v.a, tmp) },
		func() { c.ROLL(U8(5), tmp) },
		func() { c.ADDL(tmp, v.e) },
	}
}

// rol30Steps rotates b left by 30 in place, as Params.Rotate says.
func (e *emitter) rol30Steps(b reg.GPPhysical) []step {
	c, tmp := e.ctx, e.tmp
	switch e.p.Rotate {
	case "shld":
		return []step{func() { c.SHLL(U8(30), b, b) }}
	case "shift":
		return []step{
			func() { c.MOVL(b, tmp) },
			func() { c.SHLL(U8(30), tmp) },
			func() { c.SHRL(U8(2), b) },
			func() { c.ORL(tmp, b) },
		}
	}
	return []step{func() { c.RORL(U8(2), b) }}
}
