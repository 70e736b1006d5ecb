package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// This file is the schedule of the update loops: how one group's work is
// done and in what order, as the knobs of main.go (a shape) choose it.
//
// # A group as steps
//
// A group's work is a list of steps, each one instruction or a few that
// belong together: the products of each vector (load, byte reversal, the
// three or four products and their sums), the reduction, the fold. The
// shape chooses each step's instructions (-mul, -halves, -reduction) and
// where the reduction's steps go (-reduce-at):
//
//   - after: a group is its products, its reduction and its fold, and the
//     next group starts after them.
//   - front, spread, back: the loop is software-pipelined. Group i's sums
//     are left for the next iteration, where their reduction runs among
//     group i+1's products of the vectors that do not need y (one of its
//     steps after each of theirs from the start, spread evenly over them,
//     or after them all); group i+1's vector that y is added to comes
//     last, and its products add the other vectors' sums into the
//     registers group i's sums were in. So the loop has two sets of sums
//     (A, which the reduction reads, and B) and its own temporaries for
//     the reduction; a prologue makes the first group's products and an
//     epilogue reduces the last group's.
//
// # The lanes, folded once
//
// With -fold every, lane j of the vector of blocks b..b+lanes-1 takes
// H^(n-b-j), and each group's reduced sum is folded into one lane, the y
// of the next group. With -fold once (512 bits), every group but the last
// gives the four lanes of its vector v one power, H^(16-4v), and y stays
// in all four lanes: lane j then holds the sum of the blocks 4q+j of the
// groups so far, each times H^(16-4v) and by H^16 for each group after
// it: H^j too little for its place. The last group is an ordinary one,
// lane j of its first vector (where y is added) taking H^(16-j), which
// brings each lane's sum to its place; its reduced sum is folded, once.
// The groups before it read their powers from registers, broadcast before
// the loop (VBROADCASTI32X4, and VPBROADCASTQ for the Karatsuba sums), and
// so do without the fold on the path from one group's y to the next (a
// VEXTRACTI64X4, a VEXTRACTI128 and two additions: two shuffles on port 5
// of Intel's cores) and without a load per product.

// step emits one step of a group's work.
type step func()

// sumRegs are one set of the three sums.
type sumRegs struct{ l, h, m reg.VecPhysical }

// sched emits the groups of one loop with its shape.
type sched struct {
	*desc
	o         isa
	sh        shape
	blocks    int               // per group
	ptr, kp   reg.Register      // the group's first block; the key
	pipelined bool              // the reduction runs among the next group's products
	bswap64   Mem               // the byte reversal of each 64-bit half (-halves pair)
	loMask    Mem               // all ones in each lane's low half, for blend, if not blend64
	bk, bs    []reg.VecPhysical // -fold once: the broadcast powers and sums of each vector
}

// Broadcast key registers of -fold once (EVEX reaches Z16..Z31), and the
// mask of each lane's high half that the 512-bit blend selects with.
var (
	bcastKeys = []reg.VecPhysical{reg.Z16, reg.Z17, reg.Z18, reg.Z19}
	bcastSums = []reg.VecPhysical{reg.Z20, reg.Z21, reg.Z22, reg.Z23}
	hiMaskReg = reg.Z24
)

func (s *sched) sumsA() sumRegs { return sumRegs{s.r.l, s.r.h, s.r.m} }
func (s *sched) sumsB() sumRegs { return sumRegs{s.r.l2, s.r.h2, s.r.m2} }

// lanes is the number of 128-bit lanes of the loop's vectors.
func (s *sched) lanes() int { return s.o.width() / 128 }

// vectors is the number of vectors of a group.
func (s *sched) vectors() int { return s.blocks / s.lanes() }

// temps returns the reduction's three temporaries: its own when the
// reduction runs among products, else the products' t first (as in
// reduce).
func (s *sched) temps() (u, w, z reg.VecPhysical) {
	if s.pipelined {
		return s.r.u, s.r.w, s.r.z
	}
	return s.r.t, s.r.u, s.r.w
}

// accumulate returns the steps that add the product of a and b (clmul
// with imm) to src into dst: dst = a·b if src is nil, dst = src + a·b
// through the temporary t if src is dst.
func (s *sched) accumulate(dst, src, t, a reg.VecPhysical, b Op, imm uint8) []step {
	o := s.o
	switch {
	case src == nil:
		return []step{func() { o.clmul(dst, a, b, imm) }}
	case src != dst:
		return []step{
			func() { o.clmul(dst, a, b, imm) },
			func() { o.xor(dst, dst, src) },
		}
	}
	return []step{
		func() { o.clmul(t, a, b, imm) },
		func() { o.xor(dst, dst, t) },
	}
}

// key is the key operands of one vector: its powers, and for Karatsuba
// their sums in half sHalf of each lane of s; load holds the steps that
// put them in registers first, if any.
type key struct {
	k, s  Op
	sHalf uint8
	load  []step
}

// keyFor returns the key operands of vector v, whose lane 0 takes H^pow:
// the registers -fold once broadcast them to (bcast), else the key's
// powers lane by lane, from memory where the isa takes them so.
func (s *sched) keyFor(v, pow int, bcast bool) key {
	o, r := s.o, s.r
	karatsuba := s.sh.mul == MulKaratsuba
	if bcast {
		k := key{k: s.bk[v]}
		if karatsuba {
			k.s = s.bs[v]
		}
		return k
	}
	km := Mem{Base: s.kp, Disp: powerAddr(pow)}
	if o.memKey() {
		k := key{k: km}
		if karatsuba {
			k.s, k.sHalf = sums(s.kp, pow, s.lanes())
		}
		return k
	}
	k := key{k: r.k, load: []step{func() { o.load(r.k, km) }}}
	if karatsuba {
		k.s = r.s
		k.load = append(k.load, func() { o.load64(r.s, Mem{Base: s.kp, Disp: sumAddr(pow)}) })
	}
	return k
}

// products returns the steps that add x·k to src into dst (src nil: set
// dst to it) with -mul's products: for Karatsuba, the sum of x's halves is
// made in t. x and t are overwritten.
func (s *sched) products(x reg.VecPhysical, k key, dst sumRegs, src *sumRegs) []step {
	o, t := s.o, s.r.t
	srcL, srcH, srcM := src.regs()
	steps := append([]step{}, k.load...)
	if s.sh.mul == MulSchoolbook {
		steps = append(steps, s.accumulate(dst.l, srcL, t, x, k.k, 0x00)...)
		steps = append(steps, s.accumulate(dst.m, srcM, t, x, k.k, 0x01)...)
		steps = append(steps, s.accumulate(dst.m, dst.m, t, x, k.k, 0x10)...)
		return append(steps, s.accumulate(dst.h, srcH, x, x, k.k, 0x11)...)
	}
	if s.sh.halves == HalvesUnpack {
		steps = append(steps, func() { o.unpackHi(t, x, x) })
	} else {
		steps = append(steps, func() { o.swap(t, x) })
	}
	steps = append(steps, func() { o.xor(t, t, x) })
	steps = append(steps, s.accumulate(dst.m, srcM, t, t, k.s, k.sHalf<<4)...)
	steps = append(steps, s.accumulate(dst.l, srcL, t, x, k.k, 0x00)...)
	return append(steps, s.accumulate(dst.h, srcH, x, x, k.k, 0x11)...)
}

// regs returns the three sums of v, or nils for a nil v.
func (v *sumRegs) regs() (l, h, m reg.VecPhysical) {
	if v == nil {
		return nil, nil, nil
	}
	return v.l, v.h, v.m
}

// vector returns the steps of vector v of a group: its blocks loaded and
// byte-reversed into x, y added if v is 0, and their products added to
// src into dst (src nil: set).
func (s *sched) vector(v int, bcast bool, dst sumRegs, src *sumRegs) []step {
	o, r := s.o, s.r
	lanes := s.lanes()
	b := v * lanes
	pow := s.blocks - b
	steps := []step{
		func() {
			switch {
			case lanes == 1:
				s.ctx.Commentf("Block %d times H^%d.", b, pow)
			case bcast:
				s.ctx.Commentf("Blocks %d..%d times H^%d in every lane.", b, b+lanes-1, pow)
			default:
				s.ctx.Commentf("Blocks %d..%d times H^%d..H^%d.", b, b+lanes-1, pow, pow-lanes+1)
			}
			o.load(r.x, Mem{Base: s.ptr, Disp: blockBytes * b})
		},
		func() { o.shuffle(r.x, r.x, r.bswap) },
	}
	if v == 0 {
		steps = append(steps, func() { o.xor(r.x, r.x, r.y) })
	}
	return append(steps, s.products(r.x, s.keyFor(v, pow, bcast), dst, src)...)
}

// pair returns the steps of blocks b and b+1 (128 bits; neither is the
// block y is added to) with -halves pair. The sums of both blocks' halves
// come from the bytes as loaded: with A and B the two blocks' 64-bit
// halves as in memory, [A_lo, B_hi] (a blend of the two blocks) plus the
// 16 bytes from A_hi to B_lo is [A_lo+A_hi, B_lo+B_hi], and reversing
// the bytes of each half gives the sum of A's halves in the low half and
// B's in the high one (the halves of a byte-reversed block are its
// halves byte-reversed and exchanged). One byte reversal for two blocks'
// sums, where -halves pshufd takes a shuffle for each.
func (s *sched) pair(b int, dst sumRegs, src *sumRegs) []step {
	o, r := s.o, s.r
	// B's block goes to k, and the offset bytes and the mask through s,
	// when the key operands come from memory; with SSE, whose key operands
	// are loaded into k and s after, B goes to z and those through k.
	xb, spare := r.k, r.s
	if !o.memKey() {
		xb, spare = r.z, r.k
	}
	powA := s.blocks - b
	at := func(off int) Mem { return Mem{Base: s.ptr, Disp: blockBytes*b + off} }
	steps := []step{
		func() {
			s.ctx.Commentf("Blocks %d and %d times H^%d and H^%d, the sums of their halves made together.", b, b+1, powA, powA-1)
			o.load(r.x, at(0))
		},
		func() { o.load(xb, at(blockBytes)) },
	}
	steps = append(steps, s.blend(r.t, r.x, xb)...)
	if o.memKey() {
		steps = append(steps,
			func() { o.xorMem(r.t, r.t, at(8)) },
			func() { o.shuffleMem(r.t, r.t, s.bswap64) })
	} else {
		steps = append(steps,
			func() { o.load(spare, at(8)) },
			func() { o.xor(r.t, r.t, spare) },
			func() { o.load(spare, s.bswap64) },
			func() { o.shuffle(r.t, r.t, spare) })
	}
	steps = append(steps,
		func() { o.shuffle(r.x, r.x, r.bswap) },
		func() { o.shuffle(xb, xb, r.bswap) })
	// A's products keep t, which holds B's middle operand too: they go
	// through s (the key's sum register, which A's middle product is the
	// last to read, or free when the key comes from memory).
	ka, kb := s.keyFor(0, powA, false), s.keyFor(0, powA-1, false)
	srcL, srcH, srcM := src.regs()
	steps = append(steps, ka.load...)
	steps = append(steps, s.accumulate(dst.m, srcM, r.s, r.t, ka.s, ka.sHalf<<4)...)
	steps = append(steps, s.accumulate(dst.l, srcL, r.s, r.x, ka.k, 0x00)...)
	steps = append(steps, s.accumulate(dst.h, srcH, r.x, r.x, ka.k, 0x11)...)
	steps = append(steps, kb.load...)
	steps = append(steps, s.accumulate(dst.m, dst.m, r.t, r.t, kb.s, 0x01|kb.sHalf<<4)...)
	steps = append(steps, s.accumulate(dst.l, dst.l, r.x, xb, kb.k, 0x00)...)
	return append(steps, s.accumulate(dst.h, dst.h, xb, xb, kb.k, 0x11)...)
}

// groupProducts returns the steps of a group's products: others, those of
// the vectors y is not added to, into pre (the first of them sets it),
// and last, those of vector 0, with y, adding pre into dst (pre may be
// dst).
func (s *sched) groupProducts(bcast bool, pre, dst sumRegs) (others, last []step) {
	vecs := s.vectors()
	var src *sumRegs // nil until the first vector has set pre
	for v := 1; v < vecs; v++ {
		if s.sh.halves == HalvesPair && s.sh.mul == MulKaratsuba && v+1 < vecs {
			others = append(others, s.pair(v, pre, src)...)
			v++
		} else {
			others = append(others, s.vector(v, bcast, pre, src)...)
		}
		src = &pre
	}
	return others, s.vector(0, bcast, dst, src)
}

// lowTimesC returns the steps that set the first temporary (p, of
// temps) to the product of the low 64 bits of each lane of v and
// polyConst, and exchange v's halves, for the reduction's first step or
// its second: with a carry-less multiply, or (-reduction shift, and the
// first step of mixed) with the product's shifts, [A, B] with A = v0<<57 +
// v0<<62 + v0<<63 (64 bits) and B = v0>>7 + v0>>2 + v0>>1: A from v, B
// from v with its halves exchanged (which the reduction needs anyway),
// and a blend of the two, A's low half and B's high one.
func (s *sched) lowTimesC(v reg.VecPhysical, first bool) []step {
	o, r := s.o, s.r
	p, q, x := s.temps()
	if s.sh.reduction == ReductionCLMUL || s.sh.reduction == ReductionMixed && !first {
		return []step{func() { o.clmul(p, v, r.poly, 0x00) }, func() { o.swap(v, v) }}
	}
	var steps []step
	if _, sse := o.(sse); sse {
		// Two-operand shifts: each sum of three shifts as a chain in one
		// register, copied once, rather than three copies; x is not used.
		steps = []step{
			func() { o.copy(q, v) },
			func() { o.shl64(q, q, 1) },
			func() { o.xor(q, q, v) },
			func() { o.shl64(q, q, 5) },
			func() { o.xor(q, q, v) },
			func() { o.shl64(q, q, 57) }, // v<<63 + v<<62 + v<<57
			func() { o.swap(v, v) },
			func() { o.copy(p, v) },
			func() { o.shr64(p, p, 5) },
			func() { o.xor(p, p, v) },
			func() { o.shr64(p, p, 1) },
			func() { o.xor(p, p, v) },
			func() { o.shr64(p, p, 1) }, // v>>7 + v>>2 + v>>1
		}
	} else {
		steps = []step{
			func() { o.shl64(q, v, 57) },
			func() { o.shl64(p, v, 62) },
			func() { o.shl64(x, v, 63) },
			func() { o.xor3(q, q, p, x) },
			func() { o.swap(v, v) },
			func() { o.shr64(p, v, 7) },
			func() { o.shr64(x, v, 2) },
			func() { o.xor(p, p, x) },
			func() { o.shr64(x, v, 1) },
			func() { o.xor(p, p, x) },
		}
	}
	return append(steps, s.blend(p, q, p)...)
}

// blend returns the steps that set dst to [lo's low half, hi's high half]
// in each lane: one blend64, or where the loop has the mask of the low
// halves (loMask), hi + ((lo + hi) & loMask), three operations that run
// on any of Zen's four vector pipes (VBLENDPD takes the two that the
// multiplier takes). lo is overwritten when dst is hi.
func (s *sched) blend(dst, lo, hi reg.VecPhysical) []step {
	o := s.o
	if s.loMask.Symbol.Name == "" {
		return []step{func() { o.blend64(dst, lo, hi) }}
	}
	t := dst
	if dst == hi {
		t = lo
	}
	return []step{
		func() { o.xor(t, lo, hi) },
		func() { o.andMem(t, t, s.loMask) },
		func() { o.xor(dst, hi, t) },
	}
}

// reduceSteps returns the steps that reduce the sums in into y (see
// Karatsuba and reduction in ghash.go), lane by lane; in's l and m are
// overwritten. With -mul schoolbook, m is the middle term already.
func (s *sched) reduceSteps(in sumRegs) []step {
	o, r := s.o, s.r
	p, _, _ := s.temps()
	steps := []step{func() { s.ctx.Comment("Reduce: m' = mid + l·y^-64, then h + m'·y^-64.") }}
	step1 := s.lowTimesC(in.l, true)
	if s.sh.mul == MulKaratsuba {
		// mid = m + l + h, with l as it is: before its halves are
		// exchanged, which no form does in its first step.
		steps = append(steps, step1[0], func() { o.xor3(in.m, in.m, in.l, in.h) })
		step1 = step1[1:]
	}
	steps = append(steps, step1...)
	steps = append(steps, func() { o.xor3(in.m, in.m, in.l, p) }) // m'
	steps = append(steps, s.lowTimesC(in.m, false)...)
	return append(steps, func() { o.xor3(r.y, in.h, in.m, p) })
}

// foldSteps returns the steps of the fold of y's lanes into its lowest,
// through t (the reduction's first temporary when pipelined: the
// products use t).
func (s *sched) foldSteps() []step {
	t, _, _ := s.temps()
	var steps []step
	for o, n := s.o, s.o.narrower(); n != nil; o, n = n, n.narrower() {
		o, n := o, n
		steps = append(steps,
			func() {
				s.ctx.Commentf("Fold %d bits into %d.", o.width(), n.width())
				o.upper(t, s.r.y)
			},
			func() { n.xor(s.r.y, s.r.y, t) })
	}
	return steps
}

// merge places the reduction's steps red among the products' steps prod
// as -reduce-at says.
func (s *sched) merge(prod, red []step) []step {
	var out []step
	switch s.sh.reduceAt {
	case ReduceAtFront:
		for i, p := range prod {
			out = append(out, p)
			if i < len(red) {
				out = append(out, red[i])
			}
		}
		if len(red) > len(prod) {
			out = append(out, red[len(prod):]...)
		}
	case ReduceAtSpread:
		// Reduction step i follows product step (i+1)·len(prod)/(len(red)+1).
		next := 0
		for i, p := range prod {
			out = append(out, p)
			for next < len(red) && (next+1)*len(prod)/(len(red)+1) <= i+1 {
				out = append(out, red[next])
				next++
			}
		}
		out = append(out, red[next:]...)
	case ReduceAtBack:
		out = append(append(out, prod...), red...)
	default:
		panic(fmt.Sprintf("merge: -reduce-at %s is not pipelined", s.sh.reduceAt))
	}
	return out
}

// emit emits the steps of each list, in order.
func emit(lists ...[]step) {
	for _, l := range lists {
		for _, st := range l {
			st()
		}
	}
}

// loopMems are the constants a loop may read.
type loopMems struct{ bswap, poly, bswap64, hiMask, loMask Mem }

// emitLoop emits the loop of lp, from `from` blocks up (n the blocks left,
// ptr the next one), as lp's shape says; it leaves n below lp.blocks.
func (d *desc) emitLoop(lp loop, from int, ptr, kp, n reg.Register, c loopMems) {
	ctx, r := d.ctx, d.r
	w := lp.o.width()
	s := &sched{desc: d, o: lp.o, sh: lp.shape, blocks: lp.blocks, ptr: ptr, kp: kp,
		pipelined: lp.shape.reduceAt.pipelined(), bswap64: c.bswap64}
	if v, ok := lp.o.(vex); ok && v.bits == 128 && lp.shape.blend == BlendMask {
		s.loMask = c.loMask
	}
	g := lp.blocks
	label := func(what string) string { return fmt.Sprintf("%s%d", what, w) }
	advance := func() {
		ctx.ADDQ(U32(blockBytes*g), ptr)
		ctx.SUBQ(U32(g), n)
	}
	once := lp.shape.fold == FoldOnce
	ctx.Commentf("Groups of %d blocks at %d bits, with one reduction each; the key's powers are set.", g, w)
	ctx.CMPQ(n, U32(from))
	ctx.JB(LabelRef(label("after")))
	if w > 128 {
		lp.o.broadcast(r.bswap, c.bswap)
		lp.o.broadcast(r.poly, c.poly)
	}
	if lp.shape.reduction != ReductionCLMUL && w == 512 {
		lp.o.broadcast(hiMaskReg, c.hiMask)
	}
	// broadcastKeys loads -fold once's broadcast powers, for the groups
	// before the last.
	broadcastKeys := func() {
		ctx.Commentf("The powers H^%d, H^%d, ... of each vector, and their sums, in every lane.", g, g-s.lanes())
		for v := 0; v < s.vectors(); v++ {
			pow := g - v*s.lanes()
			s.bk = append(s.bk, bcastKeys[v])
			lp.o.broadcast(bcastKeys[v], Mem{Base: kp, Disp: powerAddr(pow)})
			if lp.shape.mul == MulKaratsuba {
				s.bs = append(s.bs, bcastSums[v])
				lp.o.broadcast64(bcastSums[v], Mem{Base: kp, Disp: sumAddr(pow)})
			}
		}
	}
	a, b := s.sumsA(), s.sumsB()
	red := func() []step { return s.reduceSteps(a) }
	fold := s.foldSteps
	whole := func(bcast, folds bool) { // one group, not pipelined
		others, last := s.groupProducts(bcast, a, a)
		emit(others, last, red())
		if folds {
			emit(fold())
		}
	}
	// body emits a pipelined iteration: the reduction of the sums in A
	// (and the fold, if folds) among the next group's products.
	body := func(bcast, folds bool) {
		others, last := s.groupProducts(bcast, b, a)
		rs := red()
		if folds {
			rs = append(rs, fold()...)
		}
		ctx.Comment("The reduction of the group before, among this group's products.")
		emit(s.merge(others, rs), last)
	}
	// repeat emits `for n >= least { f(); advance }`, tested at the
	// bottom, and before the first iteration too unless n >= least there
	// already, then before (if not nil); its top is the loop's label.
	loops := 0
	repeat := func(least int, tested bool, before, f func()) {
		top, exit := label("loop"), label(fmt.Sprintf("exit%d_", loops))
		if loops++; loops > 1 {
			panic("emitLoop: one loop per width")
		}
		if tested {
			ctx.CMPQ(n, U32(least))
			ctx.JB(LabelRef(exit))
		}
		if before != nil {
			before()
		}
		ctx.Label(top)
		f()
		advance()
		ctx.CMPQ(n, U32(least))
		ctx.JAE(LabelRef(top))
		if tested {
			ctx.Label(exit)
		}
	}
	// drain reduces the sums of the last group in A into y, and folds.
	drain := func() {
		ctx.Comment("The last group's reduction.")
		emit(red(), fold())
	}
	const lastGroup = "The last group: each lane's powers, which bring the lanes' sums to their places."
	single := false // a single group's code, which jumps to "end"
	if !once && (lp.shape.halves == HalvesPair || lp.shape.reduction != ReductionCLMUL) {
		// One group alone takes its latency, which the plain forms keep
		// shortest (the multiply reduction, one shuffle for each block's
		// halves): it runs in them, as the loops without these forms do.
		plain := *s
		plain.sh = defaultShape[targetTail]
		plain.sh.reduceAt = ReduceAtAfter
		plain.pipelined = false
		ctx.CMPQ(n, U32(2*g))
		ctx.JAE(LabelRef(label("groups")))
		ctx.Comment("A single group, in the plain forms.")
		others, last := plain.groupProducts(false, a, a)
		emit(others, last, plain.reduceSteps(a), plain.foldSteps())
		advance()
		ctx.JMP(LabelRef(label("end")))
		ctx.Label(label("groups"))
		single = true
	}
	switch {
	case !s.pipelined && !once:
		repeat(g, false, nil, func() { whole(false, true) })
	case !s.pipelined && once:
		ctx.Comment("All groups but the last: the same power in every lane, y in all four.")
		repeat(2*g, true, broadcastKeys, func() { whole(true, false) })
		ctx.Comment(lastGroup)
		whole(false, true)
		advance()
	case s.pipelined && !once:
		ctx.Comment("The first group's products; each iteration then reduces the group before.")
		emit(s.groupProducts(false, a, a))
		advance()
		repeat(g, true, nil, func() { body(false, true) })
		drain()
	default:
		ctx.CMPQ(n, U32(2*g))
		ctx.JB(LabelRef(label("single")))
		broadcastKeys()
		ctx.Comment("The first group's products, the same power in every lane; each iteration then reduces the group before.")
		emit(s.groupProducts(true, a, a))
		advance()
		repeat(2*g, true, nil, func() { body(true, false) })
		ctx.Comment(lastGroup)
		body(false, false)
		advance()
		drain()
		ctx.JMP(LabelRef(label("done")))
		ctx.Label(label("single"))
		ctx.Comment("A single group.")
		whole(false, true)
		advance()
		ctx.Label(label("done"))
	}
	if single {
		ctx.Label(label("end"))
	}
	if w > 128 {
		// Clear the upper halves the loop dirtied, so that neither the
		// narrower code nor the caller's SSE code pays for a state
		// transition; the low lanes, y's and the constants', stay.
		ctx.VZEROUPPER()
	}
	ctx.Label(label("after"))
}
