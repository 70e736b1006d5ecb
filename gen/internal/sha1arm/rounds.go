package sha1arm

import (
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
			if loads == LoadsFmov {
				b.vectorRing().moveRing(b.regs.wkv[off/16], off%16/8, regs[0])
			} else {
				m.loadRing(loads, off, regs)
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

// fSteps returns the steps that add f_t(b, c, d) into e, lowered from
// r's form (sha1sched.Round.Form), with the temporaries tmp: each node
// into the temporary of its place (its X into its own, its Y into the
// other), an Add's halves into e one by one. The oldest inputs go first (c
// and d, then b, the newest but one): of two operations, one that does
// not read b is computed before one that does, and b is the first operand
// of an operation on b and another input.
func (b *backend) fSteps(r sha1sched.Round, bb, c, d val, e greg, tmp [2]greg) []step {
	var steps []step
	leaves := [...]val{sha1sched.InB: bb, sha1sched.InC: c, sha1sched.InD: d}
	var eval func(x *sha1sched.Expr, t int) val
	eval = func(x *sha1sched.Expr, t int) val {
		if x.Leaf() {
			return leaves[x.Op]
		}
		p, q := x.X, x.Y
		if p.Leaf() && q.Op == sha1sched.InB && x.Op != sha1sched.OpAndNot {
			p, q = q, p
		}
		var pv, qv val
		if p.ReadsB() && !q.ReadsB() {
			qv = eval(q, 1-t)
			pv = eval(p, t)
		} else {
			pv, qv = eval(p, t), eval(q, 1-t)
		}
		s, v := b.logic(aluOps[x.Op], pv, qv, tmp[t])
		steps = append(steps, s)
		return v
	}
	add := func(x val) { steps = append(steps, b.addSteps(x, e, e)...) }
	if f := r.Form(); f.Op == sha1sched.OpAdd {
		add(eval(f.X, 0))
		add(eval(f.Y, 1))
	} else {
		add(eval(f, 0))
	}
	return steps
}

// aluOps is the instruction of each operation of the forms.
var aluOps = map[sha1sched.ExprOp]aluOp{sha1sched.OpAnd: opAnd, sha1sched.OpOr: opOrr, sha1sched.OpXor: opEor, sha1sched.OpAndNot: opBic}

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
