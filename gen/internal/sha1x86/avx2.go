package sha1x86

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// The pair kernel ("avx2") runs the same schedule groups as the others on
// YMM registers: block N in the low 128-bit lane, block N+1 in the high
// one, so one pass of the vector steps computes W+K for two blocks. The
// result for a whole pair (2 x 80 words) goes to one of two stack buffers
// while the scalar rounds of the previous pair read the other: the
// precalculation runs a whole pair ahead, its 20 groups spread over the 160
// rounds of the pair being hashed (groups 0..9 during block N, 10..19 during
// block N+1, each group's steps placed over eight rounds as Placement
// says), and the buffers swap roles after each pair. The rounds use BMI1
// and BMI2: RORX rotates without a copy, ANDN gives ^b & d in one step.
// Its look-ahead is the whole pair and its rotates are RORX, so of the
// knobs it honours the placement, the forms of Ch and Maj, and the align;
// the form of its rounds (bmi.go) is a knob of its own.
//
// An odd last block is hashed alone: its high lane is loaded from the low
// block again and never read. Loads for the pair after the last one are
// pointed at the last pair, so nothing outside the input is read.

func newAVX2(ctx *build.Context) ISA { return avx2{avx{ctx}} }

// avx2 is the ISA of the pair kernel: VEX encodings on YMM registers (every
// schedule step acts lane by lane).
type avx2 struct{ avx }

func (avx2) Name() string { return "avx2" }

// pairPlan holds the registers and buffers of the pair kernel.
type pairPlan struct {
	bufs      [2]Mem         // two W+K buffers of 640 bytes: group g at 32g, block N then N+1
	cur, next reg.GPPhysical // the buffer the rounds read, and the one the schedule writes
	lo, hi    reg.GPPhysical // the next pair's first and second block
	end       Mem            // one past the last whole block (a stack slot)
	model     sha1sched.Model
}

// The two buffer roles, as Slot.Buf: the buffer the rounds read (cur) and
// the one the precalculation writes (next). The ring model swaps them
// where the code exchanges the registers.
const (
	bufCur  = 0
	bufNext = 1
)

func (pp *pairPlan) bufReg(b int) reg.GPPhysical {
	if b == bufCur {
		return pp.cur
	}
	return pp.next
}

// pairBufBytes is the size of one buffer: two blocks' 80 words.
const pairBufBytes = 2 * 4 * 80

// slot is buffer b's place for W[t]+K of block half of a pair (words 4g..4g+3
// of both blocks are the 32 bytes at 32g, block N's first).
func pairSlot(b, half, t int) sha1sched.Slot {
	return sha1sched.Slot{Buf: b, Off: 32*(t/4) + 16*half + 4*(t%4)}
}

// generatePair emits the pair kernel name(h *[5]uint32, p []byte).
func generatePair(ctx *build.Context, k Kernel, p Params, name string) error {
	e := &backend{
		ctx: ctx, isa: k.isa(ctx), k: k, p: p,
		w:     [8]reg.VecPhysical{reg.Y0, reg.Y1, reg.Y2, reg.Y3, reg.Y4, reg.Y5, reg.Y6, reg.Y7},
		t0:    reg.Y8,
		t1:    reg.Y9,
		bswap: reg.Y10,
		tmp:   reg.EDI, scratch: reg.RDI,
		hp: reg.R9, ptr: reg.R10,
		lanes: 2,
		pair:  &pairPlan{cur: reg.R12, next: reg.R13, lo: reg.R14, hi: reg.R11},
	}
	e.constants()
	return e.pairFunction(name)
}

// pairGroupSteps lowers group g of the pair being loaded (from lo and hi)
// into the next buffer; its words are those of the pass at base.
func (e *backend) pairGroupSteps(g, base int) []step {
	var steps []step
	for _, op := range sha1sched.Group(g, e.Rotate(), false) {
		if op.Kind == sha1sched.Store {
			op.WK = e.pair.model.Write(base+op.Word, pairSlot(bufNext, 0, op.Word), pairSlot(bufNext, 1, op.Word))
		}
		steps = append(steps, sha1sched.Commented(e, op.Comment, e.Vector(op))...)
	}
	return steps
}

func (e *backend) pairFunction(name string) error {
	c, pp := e.ctx, e.pair
	// Not NOSPLIT: 1.3 KB of buffers is over the nosplit limit.
	e.begin(name, 0, "two blocks per vector pass, with AVX2, BMI1 and BMI2", sha1sched.Contract{})
	pp.bufs = [2]Mem{c.AllocLocal(pairBufBytes), c.AllocLocal(pairBufBytes)}
	pp.end = c.AllocLocal(8)
	abcde := [5]reg.GPPhysical{reg.EAX, reg.EBX, reg.ECX, reg.EDX, reg.ESI}
	e.loadArgs(e.scratch, pp.end, vars{a: abcde[0], b: abcde[1], c: abcde[2], d: abcde[3], e: abcde[4]})
	rounds := e.bmiRounds(abcde)
	rounds.start()
	e.isa.Load(e.bswap, e.bswapMem)
	c.LEAQ(pp.bufs[0], pp.cur)
	c.LEAQ(pp.bufs[1], pp.next)

	c.Comment("Prologue: W+K of the first pair, into the buffer the first rounds read.")
	c.XCHGQ(pp.cur, pp.next)
	pp.model.Swap()
	c.MOVQ(e.ptr, pp.lo)
	e.pairPointers(pp.lo)
	for g := 0; g < 20; g++ {
		for _, s := range e.pairGroupSteps(g, 0) {
			s()
		}
	}
	c.XCHGQ(pp.cur, pp.next)
	pp.model.Swap()
	prologue := pp.model.Cut()

	c.Label("loop")
	c.Comment("The next pair: p+128 and p+192, each pointed back at the last block it would pass.")
	c.LEAQ(Mem{Base: e.ptr, Disp: 128}, pp.lo)
	e.pairPointers(pp.lo)
	var halves [2]sha1sched.Trace
	for half := 0; half < 2; half++ {
		if half == 1 {
			c.Comment("An odd last block has no partner: stop after it.")
			c.LEAQ(Mem{Base: e.ptr, Disp: 64}, e.scratch)
			c.CMPQ(e.scratch, pp.end)
			c.JAE(LabelRef("done"))
		}
		for t := 0; t < 80; t++ {
			// Groups 10*half .. 10*half+9 of the next pair, one per 8 rounds.
			g := 10*half + t/8
			steps := e.p.Placement.Deal(e.pairGroupSteps(g, 160), t%8, 8)
			r := sha1sched.Round{T: t, F: sha1sched.F(t), Ch: e.p.Ch, Maj: e.p.Maj,
				WK: pp.model.Read(80*half+t, pairSlot(bufCur, half, t))}
			round := sha1sched.Commented(e, fmt.Sprintf("Round %d of block %d", t, half), rounds.round(r))
			e.p.Placement.Merge(round, steps)
		}
		c.Commentf("h += a..e after block %d of the pair.", half)
		for i, r := range rounds.state() {
			m := Mem{Base: e.hp, Disp: 4 * i}
			c.ADDL(m, r)
			c.MOVL(r, m)
		}
		rounds.start()
		if half == 1 {
			rounds.loopEnd()
			c.ADDQ(U8(128), e.ptr)
			c.XCHGQ(pp.cur, pp.next)
			pp.model.Swap()
		}
		halves[half] = pp.model.Cut()
	}
	c.CMPQ(e.ptr, pp.end)
	c.JB(LabelRef("loop"))

	// Whole inputs of one to five blocks: the prologue's pair, then the
	// loop's, with and without an odd last block.
	for blocks := 1; blocks <= 5; blocks++ {
		runs := []sha1sched.Run{{Trace: prologue}}
		for b := 0; b < blocks; b++ {
			runs = append(runs, sha1sched.Run{Trace: halves[b%2], Base: 160 * (b / 2)})
		}
		if err := sha1sched.Check(runs); err != nil {
			return fmt.Errorf("%s with %s: %w", name, e.k.Schedule(e.p), err)
		}
	}

	c.Label("done")
	c.VZEROUPPER()
	c.RET()
	return nil
}

// pairPointers sets the pair's load pointers from lo, which holds the
// first block's address or one past the end: lo = lo < end ? lo : p,
// hi = lo+64 < end ? lo+64 : lo. Branch-free (SBB), so no CMOV is needed.
func (e *backend) pairPointers(lo reg.GPPhysical) {
	c, pp, s := e.ctx, e.pair, e.scratch
	c.CMPQ(lo, pp.end)
	c.SBBQ(s, s) // all ones if lo < end
	c.SUBQ(e.ptr, lo)
	c.ANDQ(s, lo)
	c.ADDQ(e.ptr, lo) // lo, or p
	c.LEAQ(Mem{Base: lo, Disp: 64}, pp.hi)
	c.CMPQ(pp.hi, pp.end)
	c.SBBQ(s, s)
	c.ANDQ(U8(64), s)
	c.LEAQ(Mem{Base: lo, Index: s, Scale: 1}, pp.hi)
}

// bmiRoundSteps returns the scalar instructions of round r with BMI1/BMI2:
//
//	e += W[t]+K;  e += f_t(b, c, d);  e += rorx(a, 27);  b = rorx(b, 2)
//
// f in the round's form, computed in temporaries; the ADD forms add their
// two halves, which have no bit in common, into e one by one.
func (e *backend) bmiRoundSteps(r sha1sched.Round, v vars) []step {
	c := e.ctx
	t1, t2 := reg.EDI, reg.R8L
	steps := []step{func() { c.ADDL(e.mem(r.WK.Record()), v.e) }}
	// f from its form: each node into the temporary of its place (its X
	// into its own, its Y into the other), an Add's halves into e.
	leaves := [...]reg.GPPhysical{sha1sched.InB: v.b, sha1sched.InC: v.c, sha1sched.InD: v.d}
	var eval func(x *sha1sched.Expr, t, u reg.GPPhysical) reg.GPPhysical
	eval = func(x *sha1sched.Expr, t, u reg.GPPhysical) reg.GPPhysical {
		switch {
		case x.Leaf():
			return leaves[x.Op]
		case x.Op == sha1sched.OpAndNot: // ANDN: ^b & d
			steps = append(steps, func() { c.ANDNL(leaves[x.X.Op], leaves[x.Y.Op], t) })
			return t
		case x.X.Leaf():
			steps = append(steps, func() { c.MOVL(leaves[x.X.Op], t) })
		default:
			eval(x.X, t, u)
		}
		q := eval(x.Y, u, t)
		steps = append(steps, func() { x86Ops[x.Op](c, q, t) })
		return t
	}
	add := func(t reg.GPPhysical) { steps = append(steps, func() { c.ADDL(t, v.e) }) }
	if f := r.Form(); f.Op == sha1sched.OpAdd {
		add(eval(f.X, t1, t2))
		add(eval(f.Y, t2, t1))
	} else {
		add(eval(f, t1, t2))
	}
	steps = append(steps,
		func() { c.RORXL(U8(27), v.a, t1) }, // rol5(a)
		func() { c.ADDL(t1, v.e) },
		func() { c.RORXL(U8(2), v.b, v.b) }, // rol30(b)
	)
	return steps
}

// x86Ops emits each operation of the forms, dst op= src (two operands).
var x86Ops = map[sha1sched.ExprOp]func(c *build.Context, src, dst reg.GPPhysical){
	sha1sched.OpAnd: func(c *build.Context, s, d reg.GPPhysical) { c.ANDL(s, d) },
	sha1sched.OpOr:  func(c *build.Context, s, d reg.GPPhysical) { c.ORL(s, d) },
	sha1sched.OpXor: func(c *build.Context, s, d reg.GPPhysical) { c.XORL(s, d) },
	sha1sched.OpAdd: func(c *build.Context, s, d reg.GPPhysical) { c.ADDL(s, d) },
}
