package sha1arm

import (
	"fmt"

	"github.com/simdhash/simdhash/gen/internal/armemit"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// Round returns the scalar steps of round r (sha1sched.Backend):
//
//	e += W[t]+K;  e += f_t(b, c, d);  e += rol5(a);  b = rol30(b)
//
// in three-operand instructions with a shifted second operand. The
// first step loads W[t]+K from the ring (with -wk, also the next rounds'
// words, which those rounds then add from their registers). f is
// computed from its oldest inputs first (c and d, then b, the newest
// but one), and rol5(a), from the newest, is added last.
//
// With -rol30 fold, b is never rotated: the registers of c, d and e hold
// their values rotated left by 2, and each instruction that reads one
// rotates it back in its operand (val, logic). A logical operation on
// two such registers needs no rotation at all: its result is rotated
// likewise. e is rotated back as its round adds W+K into it (32-bit ARM:
// ADD Re@>2, Rwk, Re).
func (b *backend) Round(r sha1sched.Round) []step {
	t := r.T
	bb, c, d, e := b.variable(1, t), b.variable(2, t), b.variable(3, t), b.variable(4, t)
	a := b.variable(0, t).r
	tmp := b.regs.temps[t%len(b.regs.temps)]
	eDst := b.dst(4, t)

	steps := b.wkSteps(r, e, eDst, tmp[1])
	steps = append(steps, b.fSteps(r, bb, c, d, eDst, tmp)...)
	steps = append(steps, b.rol5Steps(t, a, eDst)...)
	if b.p.Rol30 != Rol30Fold {
		how, bDst := b.rotateHow(), b.dst(1, t)
		steps = append(steps, func() { b.m.rotate(how, 2, bb.r, bDst) })
	}
	return steps
}

// wkSteps returns the steps that set dst = e + W[t]+K (dst unrotated):
// the load, in the first round of each -wk load, and the add. free is a
// register the add may use as a temporary.
func (b *backend) wkSteps(r sha1sched.Round, e val, dst, free greg) []step {
	m, t := b.m, r.T
	loads := b.p.Loads
	if b.arch == ARM {
		loads = LoadsW
	}
	words := loads.words()
	k := t % words
	regs := b.regs.wk[(t/words)%len(b.regs.wk)]

	var steps []step
	if k == 0 {
		reads := append([]sha1sched.RingAccess{r.WK}, r.Ahead[:words-1]...)
		steps = append(steps, func() {
			off := reads[0].Record().Off
			for _, a := range reads[1:] {
				a.Record()
			}
			switch loads {
			case LoadsW:
				m.loadRing(off, regs[0])
			case LoadsPair:
				m.loadPairRing(off, regs[0], regs[1])
			case LoadsX:
				m.load64Ring(off, regs[0])
			case LoadsPairX:
				m.loadPair64Ring(off, regs[0], regs[1])
			case LoadsFmov:
				b.vectorRing().moveRing(b.regs.wkv[off/16], off%16/8, regs[0])
			}
		})
	}
	// The word: in its own register, or the low or high word of a 64-bit one.
	src, high := regs[0], false
	switch loads {
	case LoadsPair:
		src = regs[k]
	case LoadsX, LoadsFmov:
		high = k == 1
	case LoadsPairX:
		src, high = regs[k/2], k%2 == 1
	}

	switch {
	case e.rot != 0 && m.addRotates(): // e = W+K + (e rotated back)
		return append(steps, func() { m.alu(opAdd, e.r, ror(e.rot), src, dst) })
	case e.rot != 0 && b.p.Rol5 == Rol5Shifts && !high:
		// e = W+K + e>>2 + e<<30: rotated back by the halves of the rotation.
		return append(steps,
			func() { m.alu(opAdd, e.r, shift{armemit.LSR, e.rot}, src, free) },
			func() { m.alu(opAdd, e.r, shift{armemit.LSL, 32 - e.rot}, free, dst) })
	case e.rot != 0:
		how, x := b.rotateHow(), e
		steps = append(steps, func() { m.rotate(how, x.rot, x.r, dst) })
		e = val{r: dst}
	}
	if high {
		return append(steps, func() { m.addHigh(src, e.r, dst) })
	}
	return append(steps, func() { m.alu(opAdd, src, shift{}, e.r, dst) })
}

// logic returns the step that sets dst = x op y, in one instruction
// whatever the rotations of x and y, and the value dst then holds: with
// equal rotations, the operation on the registers, rotated likewise;
// else the second operand is rotated to match the first, which for an
// operation that commutes is the unrotated one if there is one.
func (b *backend) logic(op aluOp, x, y val, dst greg) (step, val) {
	if op.commutes() && x.rot != 0 && y.rot == 0 {
		x, y = y, x
	}
	m := b.m
	sh := ror(y.rot - x.rot + 32)
	return func() { m.alu(op, y.r, sh, x.r, dst) }, val{dst, x.rot}
}

// fSteps returns the steps that add f_t(b, c, d) into e, in the form of
// Ch and Maj that r asks for, with the temporaries tmp.
func (b *backend) fSteps(r sha1sched.Round, bb, c, d val, e greg, tmp [2]greg) []step {
	t, u := tmp[0], tmp[1]
	var steps []step
	logic := func(op aluOp, x, y val, dst greg) val {
		s, v := b.logic(op, x, y, dst)
		steps = append(steps, s)
		return v
	}
	add := func(x val) { steps = append(steps, b.addSteps(x, e, e)...) }
	switch {
	case r.F == sha1sched.FCh && r.Ch == sha1sched.ChXor: // ((c ^ d) & b) ^ d
		x := logic(opEor, c, d, t)
		x = logic(opAnd, x, bb, t)
		add(logic(opEor, x, d, t))
	case r.F == sha1sched.FCh && r.Ch == sha1sched.ChAdd: // (d &^ b) + (b & c): the halves share no bit
		add(logic(opBic, d, bb, t))
		add(logic(opAnd, bb, c, u))
	case r.F == sha1sched.FParity: // (c ^ d) ^ b
		x := logic(opEor, c, d, t)
		add(logic(opEor, x, bb, t))
	case r.Maj == sha1sched.MajXor: // ((b ^ c) & (c ^ d)) ^ c
		y := logic(opEor, c, d, u)
		x := logic(opEor, bb, c, t)
		x = logic(opAnd, x, y, t)
		add(logic(opEor, x, c, t))
	case r.Maj == sha1sched.MajOr: // (b & c) | (d & (b | c))
		x := logic(opOrr, bb, c, t)
		x = logic(opAnd, x, d, t)
		y := logic(opAnd, bb, c, u)
		add(logic(opOrr, x, y, t))
	case r.Maj == sha1sched.MajAdd: // (c & d) + (b & (c ^ d)): the halves share no bit
		add(logic(opAnd, c, d, t))
		y := logic(opEor, c, d, u)
		add(logic(opAnd, y, bb, u))
	default:
		panic(fmt.Sprintf("sha1arm: no form of f for round %d with ch=%v maj=%v", r.T, r.Ch, r.Maj))
	}
	return steps
}

// rol5Steps returns the steps of e += rol5(a): 32-bit ARM adds a rotated
// operand; arm64 rotates into a temporary first, or adds the rotation's
// two halves, as -rol5 says.
func (b *backend) rol5Steps(t int, a, e greg) []step {
	m := b.m
	switch {
	case b.arch == ARM:
		return []step{func() { m.alu(opAdd, a, ror(27), e, e) }}
	case b.p.Rol5 == Rol5Shifts:
		return []step{
			func() { m.alu(opAdd, a, shift{armemit.LSR, 27}, e, e) },
			func() { m.alu(opAdd, a, shift{armemit.LSL, 5}, e, e) },
		}
	}
	how := rotateORR
	if b.p.Rol5 == Rol5Ror {
		how = rotateROR
	}
	r5 := b.regs.temps[t%len(b.regs.temps)][1] // f is added by then
	return []step{
		func() { m.rotate(how, 27, a, r5) },
		func() { m.alu(opAdd, r5, shift{}, e, e) },
	}
}
