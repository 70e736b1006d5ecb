package sha1x86

import (
	"fmt"
	"slices"

	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// bmiRounds are the pair kernel's scalar rounds in one of the forms of
// Params.Rounds. The driver calls start once a..e hold a block's starting
// values (loaded from h, or just summed into it), round for rounds 0..79
// in order, state after round 79, and loopEnd at the bottom of the loop,
// where the registers must be named as they were at its top.
type bmiRounds interface {
	start()
	round(r sha1sched.Round) []step
	state() [5]reg.GPPhysical // a..e after round 79
	loopEnd()
}

// bmiRounds returns the rounds of e's Params.Rounds, starting from a..e in
// abcde.
func (e *backend) bmiRounds(abcde [5]reg.GPPhysical) bmiRounds {
	switch e.p.Rounds {
	case RoundsCopy:
		return &copyRounds{e: e, v: vars{a: abcde[0], b: abcde[1], c: abcde[2], d: abcde[3], e: abcde[4]}}
	case RoundsAhead:
		return &aheadRounds{e: e, abcde: abcde, free: reg.R8L}
	}
	panic(fmt.Sprintf("sha1x86: no BMI rounds of form %v", e.p.Rounds))
}

// copyRounds is the form of bmiRoundSteps: five names renamed every round,
// so 160 rounds bring them back to where they started.
type copyRounds struct {
	e *backend
	v vars
}

func (x *copyRounds) start()   {}
func (x *copyRounds) loopEnd() {}

func (x *copyRounds) round(r sha1sched.Round) []step {
	s := x.e.bmiRoundSteps(r, x.v)
	x.v = x.v.next()
	return s
}

func (x *copyRounds) state() [5]reg.GPPhysical {
	return [5]reg.GPPhysical{x.v.a, x.v.b, x.v.c, x.v.d, x.v.e}
}

// aheadVars names the registers at the start of round t of the ahead form:
//
//	a   a_t
//	f   f_t(b_t, c_t, d_t), computed in round t-1
//	cn  rol30(b_t), the next round's c
//	c   c_t, d  d_t, e  e_t
//
// b_t itself is gone: its register became f.
type aheadVars struct{ a, f, cn, c, d, e reg.GPPhysical }

// aheadRounds is the form that computes f one round ahead, as Intel's AVX2
// SHA-1 code (the one crypto/sha1 runs) does: round t takes rol5(a) and
// rol30(a) out of a with RORX, which leaves a unchanged, and then
// overwrites a with f_{t+1}(a, rol30(b), c), which is all the next round
// needs of a. No round copies a register, except Maj's OR and ADD forms
// for one operand. Six names rotate among six registers, a cycle that 80
// does not divide, so the bottom of the loop moves them back.
type aheadRounds struct {
	e     *backend
	v     aheadVars
	abcde [5]reg.GPPhysical // a..e between blocks
	free  reg.GPPhysical    // the sixth register, between blocks
	head  *aheadVars        // the names at the top of the loop
}

// start computes round 0's f and rol30(b) from a..e.
func (x *aheadRounds) start() {
	a, b, c, d, e := x.abcde[0], x.abcde[1], x.abcde[2], x.abcde[3], x.abcde[4]
	x.e.ctx.Comment("Round 0's f, in b's register, and rol30(b).")
	x.e.ctx.RORXL(U8(2), b, x.free)
	r0 := sha1sched.Round{T: 0, F: sha1sched.F(0), Ch: x.e.p.Ch, Maj: x.e.p.Maj}
	for _, s := range x.e.fInto(r0, b, c, d) {
		s()
	}
	x.v = aheadVars{a: a, f: b, cn: x.free, c: c, d: d, e: e}
	if x.head == nil {
		h := x.v
		x.head = &h
	}
}

// round returns round t's steps:
//
//	e += W[t]+K;  e += f;  e += rol5(a);  f = rol30(a);  a = f_{t+1}(a, cn, c)
//
// and renames: e is the next a, a its f, f its cn, cn its c, c its d, d its
// e. Round 79 leaves a as it is: it is the b that h is summed with.
func (x *aheadRounds) round(r sha1sched.Round) []step {
	c, v, tmp := x.e.ctx, x.v, x.e.tmp
	steps := []step{
		func() { c.ADDL(x.e.mem(r.WK.Record()), v.e) },
		func() { c.ADDL(v.f, v.e) },
		func() { c.RORXL(U8(27), v.a, tmp) }, // rol5(a)
		func() { c.ADDL(tmp, v.e) },
	}
	if r.T == 79 {
		x.abcde = [5]reg.GPPhysical{v.e, v.a, v.cn, v.c, v.d}
		x.free = v.f
		return steps
	}
	steps = append(steps, func() { c.RORXL(U8(2), v.a, v.f) }) // rol30(a): the c of round t+2
	// f_{t+1}(b, c, d) with b = a, c = rol30(b) = cn, d = c.
	next := sha1sched.Round{T: r.T + 1, F: sha1sched.F(r.T + 1), Ch: r.Ch, Maj: r.Maj}
	steps = append(steps, x.e.fInto(next, v.a, v.cn, v.c)...)
	x.v = aheadVars{a: v.e, f: v.a, cn: v.f, c: v.cn, d: v.c, e: v.d}
	return steps
}

func (x *aheadRounds) state() [5]reg.GPPhysical { return x.abcde }

// loopEnd moves the registers back to the names of the loop's top.
func (x *aheadRounds) loopEnd() {
	x.e.ctx.Comment("Back to the registers of the loop's top.")
	h, v := x.head, x.v
	x.e.parallelMove(
		[]reg.GPPhysical{h.a, h.f, h.cn, h.c, h.d, h.e},
		[]reg.GPPhysical{v.a, v.f, v.cn, v.c, v.d, v.e})
	x.v = *h
}

// fInto returns the steps that overwrite b with f_t(b, c, d) of round r,
// in r's form, with tmp as the only scratch register (accumulate). The ADD
// forms add their two halves, which share no bit, into b: the e they
// would otherwise go to is already waiting on three additions.
func (e *backend) fInto(r sha1sched.Round, b, c, d reg.GPPhysical) []step {
	return e.accumulate(r.Form(), b, c, d, sha1sched.InB, nil, true)
}

// accumulate returns the steps that compute the form f in place into acc,
// which holds b (or, if pre is not InB, b ^ pre: the round before folded
// that input in), with tmp as the only scratch register, in two-operand
// instructions. Where a node reads b in one operand, that operand goes
// into acc first, and an XOR of c and d in the other is made in c and
// undone after; where it reads b in both, its X goes into tmp and its Y
// into acc. An Add form's first half, in tmp, is added into sum at once,
// or (sum nil) into acc at the end. Without bmi, X &^ Y is (Y | X) ^ Y.
func (e *backend) accumulate(f *sha1sched.Expr, acc, c, d reg.GPPhysical, pre sha1sched.ExprOp, sum reg.GPPhysical, bmi bool) []step {
	x, tmp := e.ctx, e.tmp
	leaves := [...]reg.GPPhysical{sha1sched.InB: acc, sha1sched.InC: c, sha1sched.InD: d}
	var steps []step
	emit := func(s step) { steps = append(steps, s) }
	var inTmp, inAcc func(n *sha1sched.Expr)
	leaf := func(n *sha1sched.Expr) reg.GPPhysical {
		if n.Leaf() {
			return leaves[n.Op]
		}
		return nil
	}
	inTmp = func(n *sha1sched.Expr) {
		p, q := leaf(n.X), leaf(n.Y)
		switch {
		case n.Op == sha1sched.OpAndNot && bmi:
			emit(func() { x.ANDNL(p, q, tmp) })
			return
		case n.Op == sha1sched.OpAndNot:
			emit(func() { x.MOVL(q, tmp) })
			emit(func() { x.ORL(p, tmp) })
			emit(func() { x.XORL(q, tmp) })
			return
		case n.X.Leaf():
			emit(func() { x.MOVL(p, tmp) })
		default:
			inTmp(n.X)
		}
		emit(func() { x86Ops[n.Op](x, q, tmp) })
	}
	inAcc = func(n *sha1sched.Expr) {
		add := n.Op == sha1sched.OpAdd
		switch {
		case n.Op == sha1sched.InB:
		case n.XorInputs() != nil && n.ReadsB():
			for _, l := range n.XorInputs() { // b ^ the others, but what acc holds already
				if l != sha1sched.InB && l != pre {
					emit(func() { x.XORL(leaves[l], acc) })
				}
			}
		case add || n.X.ReadsB() && n.Y.ReadsB():
			inTmp(n.X)
			if add && sum != nil {
				emit(func() { x.ADDL(tmp, sum) })
			}
			inAcc(n.Y)
			if !add || sum == nil {
				emit(func() { x86Ops[n.Op](x, tmp, acc) })
			}
		default:
			withB, other := n.X, n.Y
			if !withB.ReadsB() {
				withB, other = other, withB
			}
			inAcc(withB)
			if other.Leaf() {
				emit(func() { x86Ops[n.Op](x, leaves[other.Op], acc) })
				return
			}
			xor := func() { x.XORL(leaves[other.Y.Op], leaves[other.X.Op]) } // c ^= d, and back
			emit(xor)
			emit(func() { x86Ops[n.Op](x, leaves[other.X.Op], acc) })
			emit(xor)
		}
	}
	inAcc(f)
	return steps
}

// parallelMove emits MOVLs that set every dst[i] to the value src[i] held
// before, through tmp where the moves form a cycle.
func (e *backend) parallelMove(dst, src []reg.GPPhysical) {
	type move struct{ dst, src reg.GPPhysical }
	var pending []move
	for i := range dst {
		if dst[i] != src[i] {
			pending = append(pending, move{dst[i], src[i]})
		}
	}
	read := func(r reg.GPPhysical) bool {
		return slices.ContainsFunc(pending, func(m move) bool { return m.src == r })
	}
	for len(pending) > 0 {
		i := 0
		for i < len(pending) && read(pending[i].dst) {
			i++
		}
		if i == len(pending) { // only cycles are left: save one destination first
			d := pending[0].dst
			e.ctx.MOVL(d, e.tmp)
			for j := range pending {
				if pending[j].src == d {
					pending[j].src = e.tmp
				}
			}
			i = 0
		}
		e.ctx.MOVL(pending[i].src, pending[i].dst)
		pending = append(pending[:i], pending[i+1:]...)
	}
}
