package sha1x86

import (
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// vars names the registers of the scalar rounds. The working variables
// a..e are renamed rather than moved: the register that receives the new
// value (e) is a in the next round.
//
// Two more registers pass values from one round to the next. Each round
// rotates a in place (a = rol5(a), added into e) after copying it into
// spare, so the next round finds its b both as rol5(b), in register b, and
// as the plain b, in carry (spare and carry swap every round). The plain
// copy is what f needs; the rotated one becomes rol30(b), the next round's
// c, with a single rotate by 25 (rol5 then ror7 of the same value is rol30).
// The copy is the round's only MOV, and while a round has it at hand it
// also folds in the next round's d or c, so that the next f starts half
// done (see carryFor).
type vars struct {
	a, b, c, d, e reg.GPPhysical
	carry, spare  reg.GPPhysical
	bRotated      bool // b holds rol5(b), not b; false only in round 0
}

func (v vars) next() vars {
	return vars{a: v.e, b: v.a, c: v.b, d: v.c, e: v.d, carry: v.spare, spare: v.carry, bRotated: true}
}

// vars returns the registers of round t of the one-block kernels (t = 80:
// after the last round). Every block starts from the same names, as 80 is
// a multiple of both the five names and the carry/spare pair.
func (e *backend) vars(t int) vars {
	v := e.regs
	for ; t > 0; t-- {
		v = v.next()
	}
	return v
}

// A carried value: what round t finds in carry, given f_t and the Maj form.
type carried int

const (
	carryB   carried = iota // b
	carryBxD                // b ^ d: Parity is then one XOR with c
	carryBxC                // b ^ c: Maj = ((b^c) & (c^d)) ^ c
)

// carryFor returns what round t needs in carry, with Maj in form maj.
func carryFor(t int, maj sha1sched.Maj) carried {
	switch {
	case t >= 80:
		return carryB // h += b at the end of the block needs the plain b
	case sha1sched.F(t) == sha1sched.FParity:
		return carryBxD
	case sha1sched.F(t) == sha1sched.FMaj && maj == sha1sched.MajXor:
		return carryBxC
	}
	return carryB
}

// Round returns the scalar steps of round r (sha1sched.Backend).
func (e *backend) Round(r sha1sched.Round) []step { return e.roundSteps(r, e.vars(r.T)) }

// roundSteps returns the scalar instructions of round t:
//
//	e += W[t]+K;  e += f_t(b, c, d);  e += rol5(a);  b = rol30(b)
//
// The first step reads the ring, so a vector step placed after it in the
// same round may overwrite that slot. f never reads register b (it reads
// the plain copy in carry), so b's rotate could go anywhere before the
// fold; it follows f because on llvm-mca's Sandy Bridge model that spreads
// the rotates, which only two ports take, better than ending the round
// with both.
func (e *backend) roundSteps(r sha1sched.Round, v vars) []step {
	c, t := e.ctx, r.T
	steps := []step{func() { c.ADDL(e.mem(r.WK.Record()), v.e); e.freed(v.spare) }}
	e.borrow(v.spare) // spare receives a's copy only after f and rol30(b)
	steps = append(steps, e.fSteps(r, v)...)
	// rol30(b): from b itself in round 0, else from rol5(b).
	if v.bRotated {
		steps = append(steps, e.rotl(v.b, 25)...)
	} else {
		steps = append(steps, e.rotl(v.b, 30)...)
	}
	steps = append(steps,
		// f first: its inputs are older than a, so e += rol5(a) ends the round.
		func() { c.ADDL(v.carry, v.e); e.freed(v.carry) },
		func() { c.MOVL(v.a, v.spare) }, // the next round's plain b
	)
	e.borrow(v.carry) // its f is in e now
	steps = append(steps, e.rotl(v.a, 5)...)
	steps = append(steps, func() { c.ADDL(v.a, v.e) })
	// Fold the next round's d (our c) or c (our rotated b) into its b.
	switch carryFor(t+1, r.Maj) {
	case carryBxD:
		steps = append(steps, func() { c.XORL(v.c, v.spare) })
	case carryBxC:
		steps = append(steps, func() { c.XORL(v.b, v.spare) })
	}
	return steps
}

// fSteps computes f_t(b, c, d) of round r into carry, which holds
// carryFor(t): its form accumulated into the plain b, or into the b ^ d or
// b ^ c that the round before left there (accumulate). c is XORed with d
// in place and restored, rather than copied.
func (e *backend) fSteps(r sha1sched.Round, v vars) []step {
	pre := [...]sha1sched.ExprOp{carryB: sha1sched.InB, carryBxD: sha1sched.InD, carryBxC: sha1sched.InC}[carryFor(r.T, r.Maj)]
	return e.accumulate(r.Form(), v.carry, v.c, v.d, pre, v.e, false)
}

// freed notes that r holds nothing that a round needs from this point of
// the emission on: spare from the start of a round to the copy of a into
// it, carry from the addition of its f into e to the end of the round
// (where it becomes the next round's spare).
func (e *backend) freed(r reg.GPPhysical) { e.free = r }

// borrow makes r, which holds nothing at the steps made next, the rounds'
// temporary on 386, whose kernels have no register to spare for one; on
// amd64 the temporary is a register of its own.
func (e *backend) borrow(r reg.GPPhysical) {
	if e.frame != nil {
		e.tmp = r
	}
}

// rotl rotates r left by n bits in place, as Params.Rotate says.
func (e *backend) rotl(r reg.GPPhysical, n int) []step {
	c, tmp := e.ctx, e.tmp
	switch e.p.Rotate {
	case RotateShld:
		return []step{func() { c.SHLL(U8(n), r, r) }} // SHLD of r with itself
	case RotateShift:
		return []step{
			func() { c.MOVL(r, tmp) },
			func() { c.SHLL(U8(n), r) },
			func() { c.SHRL(U8(32-n), tmp) },
			func() { c.ORL(tmp, r) },
		}
	}
	if n > 16 {
		return []step{func() { c.RORL(U8(32-n), r) }}
	}
	return []step{func() { c.ROLL(U8(n), r) }}
}
