package sha1many

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// ISA lowers the vector operations of the rounds and the schedule words to
// one instruction set. Every operation is dst = op(a, b...): dst and a
// are registers, and the last source may be a slot of the W ring (32
// bits per lane). An implementation whose encoding needs dst to be a
// source copies first.
type ISA interface {
	// Comment emits a comment line.
	Comment(text string)
	// Rotate is how the instruction set rotates 32-bit lanes: with no
	// rotate at all (sha1sched.RotateInPlace: the description uses Shl,
	// Shr and Or), by a shift into another register and an insert
	// (RotateInto: Rol's dst is not a), or with one instruction
	// (RotateInstruction).
	Rotate() sha1sched.RotateShape
	// Ternary reports whether any three-input boolean function is one
	// instruction (Logic3).
	Ternary() bool

	Move(dst vreg, src source) // a register copy or a load
	Store(s slot, src vreg)
	Add(dst, a vreg, b source)
	// AddK sets dst = a + K for rounds 20i..20i+19 (i = 0..3).
	AddK(dst, a vreg, i int)
	Xor(dst, a vreg, b source)
	And(dst, a vreg, b source)
	Or(dst, a vreg, b source)
	AndNot(dst, a vreg, b source) // ^a & b
	Shl(dst, a vreg, n int)
	Shr(dst, a vreg, n int)
	Rol(dst, a vreg, n int) // not with RotateInPlace
	// Logic3 sets dst = f(a, b, c) bit by bit, with imm the truth table
	// of f as VPTERNLOGD takes it (sha1sched.Func.Ternary). Only if Ternary.
	Logic3(dst, a, b vreg, c source, imm uint8)
}

// Backend emits the multi-lane description for one target: its ISA, the
// loads and masks of the lanes, and the scalar code around them (the
// function's frame and arguments, the lanes' block pointers and counts,
// the prefetches, the loop), which the AVX2 and AVX-512 kernels share
// (amd64).
type Backend interface {
	ISA
	// Name is the kernel's name, as sha1.ManyKernel reports it.
	Name() string
	// Lanes is the number of 32-bit lanes of a vector register: the
	// number of messages hashed at once.
	Lanes() int
	// NumVec is the number of vector registers the description may use.
	NumVec() int

	// Constants emits the read-only tables: K, the byte-swap indexes and
	// what else the backend needs.
	Constants()
	// Begin starts the function name with Go signature sig and the
	// comment lines: it loads the arguments, jumps to "done" if there is
	// no block, starts the count of blocks done, zeroes the base of the
	// gathers' addresses if gather, and sets up the W ring on the stack
	// if ring.
	Begin(name, sig string, ring, gather bool, comment ...string)
	// Setup emits, once before the first block, what the masks of the
	// live lanes need: each lane's count of blocks to absorb (the int32s
	// c[1]) into register counts, and block number 0 into blk.
	Setup(counts, blk vreg)
	// Prefetch touches the lanes' next messages, p[2] and p[3].
	Prefetch()
	// Label places a branch target; Jump jumps to one.
	Label(name string)
	Jump(label string)
	// NextBlock counts the block done and jumps to label if it was the
	// last; else it moves every lane on to its next block.
	NextBlock(label string)
	// Retire emits, at the end of each block, the mask of the lanes that
	// absorb the block (counts > blk), for UpdateH, into mask (or an
	// opmask register), and blk++.
	Retire(counts, blk, mask vreg)
	// LoadH sets dst to word row of every lane's state.
	LoadH(dst vreg, row int)
	// UpdateH sets dst = x + h, with h word row of the lanes' state, and
	// stores its lanes of the last Retire mask to h; the other lanes of h
	// stay as they were, and dst's become anything.
	UpdateH(dst, x vreg, row int)
	// ByteSwap reverses the bytes of each 32-bit lane of a.
	ByteSwap(dst, a vreg)
	// LoadPart sets 128-bit part q of dst to the 16 bytes of group g of
	// lane's block: part 0 with a plain load (the other parts become
	// anything), the others by inserting into dst.
	LoadPart(dst vreg, lane, g, q int)
	// Unpack interleaves the 32-bit (size 4) or 64-bit (size 8) elements
	// of the low (hi = false) or high halves of each 128-bit part of a
	// and b, a's first: VPUNPCK{L,H}{DQ,QDQ}.
	Unpack(dst, a, b vreg, size int, hi bool)
	// Gather returns the steps that set dst to the 32-bit words at byte
	// disp of every lane's block; tmp are free vector registers
	// (GatherTemps of them, none of them dst).
	Gather(dst vreg, disp int, tmp []vreg) []step
	GatherTemps() int
	// Finish ends the function.
	Finish()
}

// A step emits one operation (an instruction, or the few of one lowered
// operation), so that the description can interleave independent work;
// the one-stream description's steps, so that its placement deals them.
type step = sha1sched.Step

var (
	ymm = []reg.VecPhysical{reg.Y0, reg.Y1, reg.Y2, reg.Y3, reg.Y4, reg.Y5, reg.Y6, reg.Y7,
		reg.Y8, reg.Y9, reg.Y10, reg.Y11, reg.Y12, reg.Y13, reg.Y14, reg.Y15}
	zmm = []reg.VecPhysical{reg.Z0, reg.Z1, reg.Z2, reg.Z3, reg.Z4, reg.Z5, reg.Z6, reg.Z7,
		reg.Z8, reg.Z9, reg.Z10, reg.Z11, reg.Z12, reg.Z13, reg.Z14, reg.Z15,
		reg.Z16, reg.Z17, reg.Z18, reg.Z19, reg.Z20, reg.Z21, reg.Z22, reg.Z23,
		reg.Z24, reg.Z25, reg.Z26, reg.Z27, reg.Z28, reg.Z29, reg.Z30, reg.Z31}
)

func xmm(r reg.VecPhysical) reg.VecPhysical   { return r.AsX().(reg.VecPhysical) }
func ymmOf(r reg.VecPhysical) reg.VecPhysical { return r.AsY().(reg.VecPhysical) }

// amd64 is what the AVX2 and AVX-512 backends share: the scalar code, the
// registers it keeps, the operations whose mnemonic is the same in the VEX
// and EVEX encodings, where avo picks the encoding from the registers, and
// the moves and loads, through each encoding's mov and insert.
type amd64 struct {
	ctx      *build.Context
	vecs     []reg.VecPhysical // vreg i is vecs[i]
	lanes    int
	k, bswap Mem // K; the byte-swap indexes
	// early, if set, emits what must come before Begin's exit without a
	// block: a checking kernel's zero result (check_amd64.go).
	early func()
	// mov and insert are the encoding's unaligned move and insert of 128
	// bits (VMOVDQU, VINSERTI128 or VMOVDQU32, VINSERTI32X4).
	mov, insert func(ops ...Op)
}

// The general registers of the kernels.
var (
	hp, pp  = reg.R8, reg.R9 // h, and the lanes' block pointers
	rp      = reg.RSI        // c: the lanes' counts
	off     = reg.R10        // the blocks done
	end     = reg.R11        // n
	lanePtr = reg.R12        // a lane's block pointer, for its loads
	rbase   = reg.R13        // the W ring's 32-byte-aligned base
	adv     = reg.RAX        // a lane's block pointer, as it advances
	zero    = reg.RDX        // zero: the base of the gathers' addresses
)

func (b *amd64) v(r vreg) reg.VecPhysical { return b.vecs[r] }

// op is the avo source of o: its register, or its ring slot.
func (b *amd64) op(o source) Op {
	if s, ok := o.(slot); ok {
		return Mem{Base: rbase, Disp: 4 * b.lanes * int(s)}
	}
	return b.vecs[o.(vreg)]
}

func (b *amd64) Lanes() int          { return b.lanes }
func (b *amd64) NumVec() int         { return len(b.vecs) }
func (b *amd64) Comment(text string) { b.ctx.Comment(text) }
func (b *amd64) Label(name string)   { b.ctx.Label(name) }
func (b *amd64) Jump(label string)   { b.ctx.JMP(LabelRef(label)) }

func (b *amd64) Begin(name, sig string, ring, gather bool, comment ...string) {
	c := b.ctx
	c.Function(name)
	var attrs attr.Attribute
	if !ring {
		attrs = attr.NOSPLIT // no stack frame
	}
	c.Attributes(attrs)
	c.SignatureExpr(sig)
	c.Comment(comment...)
	c.Load(c.Param("h"), hp)
	c.Load(c.Param("p"), pp)
	c.Load(c.Param("c"), rp)
	c.Load(c.Param("n"), end)
	if b.early != nil {
		b.early()
	}
	c.Comment("Nothing to do without a block.")
	c.TESTQ(end, end)
	c.JZ(LabelRef("done"))
	c.XORL(off.As32(), off.As32())
	if gather {
		c.XORL(zero.As32(), zero.As32())
	}
	if ring {
		m := c.AllocLocal(4*b.lanes*ringWords + 32)
		c.Comment("The W ring, aligned to 32 bytes.")
		c.LEAQ(m, rbase)
		c.ADDQ(U8(31), rbase)
		c.ANDQ(I8(-32), rbase)
	}
}

func (b *amd64) Prefetch() {
	c := b.ctx
	c.Comment("Prefetch the lanes' next messages (p[2], p[3]).")
	for i := 0; i < 2*b.lanes; i++ {
		c.MOVQ(Mem{Base: pp, Disp: 8 * (2*maxLanes + i%b.lanes + maxLanes*(i/b.lanes))}, adv)
		c.PREFETCHT0(Mem{Base: adv})
	}
}

// NextBlock moves every lane on to its next block, block off: p[0][l] +=
// 64, or p[0][l] = p[1][l] at block c[0][l] (a lane moves from its
// message's whole blocks to its padded last ones without a return to Go);
// but a lane whose count c[1][l] is not above off stays where it is, on a
// block it may read. Scalar work, which runs beside the vector rounds.
func (b *amd64) NextBlock(label string) {
	c := b.ctx
	c.INCQ(off)
	c.CMPQ(off, end)
	c.JAE(LabelRef(label))
	c.Comment("Each lane's next block: the one after, or p[1] at block c[0]; none from block c[1] on.")
	for l := 0; l < b.lanes; l++ {
		cur := Mem{Base: pp, Disp: 8 * l}
		c.MOVQ(cur, adv)
		c.ADDQ(U8(blockBytes), adv)
		c.CMPL(Mem{Base: rp, Disp: 4 * l}, off.As32())
		c.CMOVQEQ(Mem{Base: pp, Disp: 8 * (maxLanes + l)}, adv)
		c.CMPL(Mem{Base: rp, Disp: 4 * (maxLanes + l)}, off.As32())
		c.CMOVQLE(cur, adv)
		c.MOVQ(adv, cur)
	}
}

// counts is the lanes' counts of blocks to absorb, c[1].
func (b *amd64) counts() Mem { return Mem{Base: rp, Disp: 4 * maxLanes} }

// hRow is word i of every lane's state.
func (b *amd64) hRow(i int) Mem { return Mem{Base: hp, Disp: hRowBytes * i} }

// lane is the 16 bytes of group g of lane l's block, after loading its
// pointer.
func (b *amd64) lane(l, g int) Mem {
	b.ctx.MOVQ(Mem{Base: pp, Disp: 8 * l}, lanePtr)
	return Mem{Base: lanePtr, Disp: 16 * g}
}

func (b *amd64) Move(dst vreg, src source) {
	if src != dst {
		b.mov(b.op(src), b.v(dst))
	}
}
func (b *amd64) LoadH(dst vreg, row int) { b.mov(b.hRow(row), b.v(dst)) }
func (b *amd64) Store(s slot, src vreg)  { b.mov(b.v(src), b.op(s)) }

func (b *amd64) LoadPart(dst vreg, lane, g, q int) {
	m := b.lane(lane, g)
	if q == 0 {
		b.mov(m, xmm(b.v(dst)))
		return
	}
	b.insert(U8(q), m, b.v(dst), b.v(dst))
}

func (b *amd64) Finish() {
	b.ctx.VZEROUPPER()
	b.ctx.RET()
}
func (b *amd64) Add(dst, a vreg, x source) { b.ctx.VPADDD(b.op(x), b.v(a), b.v(dst)) }
func (b *amd64) Shl(dst, a vreg, n int)    { b.ctx.VPSLLD(U8(n), b.v(a), b.v(dst)) }
func (b *amd64) Shr(dst, a vreg, n int)    { b.ctx.VPSRLD(U8(n), b.v(a), b.v(dst)) }
func (b *amd64) ByteSwap(dst, a vreg)      { b.ctx.VPSHUFB(b.bswap, b.v(a), b.v(dst)) }

// Unpack emits VPUNPCK{L,H}{DQ,QDQ} x, a, dst.
func (b *amd64) Unpack(dst, a, x vreg, size int, hi bool) {
	c, d, s, t := b.ctx, b.v(dst), b.v(a), b.v(x)
	switch {
	case size == 4 && !hi:
		c.VPUNPCKLDQ(t, s, d)
	case size == 4 && hi:
		c.VPUNPCKHDQ(t, s, d)
	case size == 8 && !hi:
		c.VPUNPCKLQDQ(t, s, d)
	case size == 8 && hi:
		c.VPUNPCKHQDQ(t, s, d)
	default:
		panic(fmt.Sprintf("sha1many: no unpack of %d-byte elements", size))
	}
}

// avx2 is the 8-lane kernel: AVX2 on the 16 YMM registers, VEX encodings.
type avx2 struct {
	amd64                 // K is repeated over the 8 lanes
	ones  Mem             // 1 in every lane
	mask  reg.VecPhysical // the last Retire mask: all ones in the lanes that absorb the block
}

// AVX2 returns the backend of the 8-lane "avx2x8" kernel.
func AVX2(ctx *build.Context) Backend {
	return &avx2{amd64: amd64{ctx: ctx, vecs: ymm, lanes: 8,
		mov:    func(ops ...Op) { ctx.VMOVDQU(ops[0], ops[1]) },
		insert: func(ops ...Op) { ctx.VINSERTI128(ops[0], ops[1], ops[2], ops[3]) }}}
}

func (*avx2) Name() string                  { return "avx2x8" }
func (*avx2) Ternary() bool                 { return false }
func (*avx2) Rotate() sha1sched.RotateShape { return sha1sched.RotateInPlace }

func (b *avx2) Constants() {
	c := b.ctx
	b.k = avogen.Table(c, "sha1ManyK", sha1sched.KTable(8))
	b.bswap = avogen.Table(c, "sha1ManyBswap", sha1sched.ByteSwapTable(8))
	b.ones = avogen.Table(c, "sha1ManyOnes", []uint32{1, 1, 1, 1, 1, 1, 1, 1})
}

func (b *avx2) Setup(counts, blk vreg) {
	b.ctx.Comment("The lanes' block counts, and block 0, for the masks of the lanes that absorb each block.")
	b.ctx.VMOVDQU(b.counts(), b.v(counts))
	b.ctx.VPXOR(b.v(blk), b.v(blk), b.v(blk))
}

func (b *avx2) Retire(counts, blk, mask vreg) {
	b.ctx.VPCMPGTD(b.v(blk), b.v(counts), b.v(mask)) // counts > blk
	b.ctx.VPADDD(b.ones, b.v(blk), b.v(blk))
	b.mask = b.v(mask)
}

func (b *avx2) AddK(dst, a vreg, i int)      { b.ctx.VPADDD(b.k.Offset(32*i), b.v(a), b.v(dst)) }
func (b *avx2) Xor(dst, a vreg, x source)    { b.ctx.VPXOR(b.op(x), b.v(a), b.v(dst)) }
func (b *avx2) And(dst, a vreg, x source)    { b.ctx.VPAND(b.op(x), b.v(a), b.v(dst)) }
func (b *avx2) Or(dst, a vreg, x source)     { b.ctx.VPOR(b.op(x), b.v(a), b.v(dst)) }
func (b *avx2) AndNot(dst, a vreg, x source) { b.ctx.VPANDN(b.op(x), b.v(a), b.v(dst)) }
func (b *avx2) Rol(dst, a vreg, n int)       { panic("sha1many: AVX2 has no vector rotate") }
func (b *avx2) Logic3(_, _, _ vreg, _ source, _ uint8) {
	panic("sha1many: AVX2 has no three-input logic instruction")
}

func (b *avx2) GatherTemps() int { return 4 }

// Gather fetches the four low lanes' words with one VPGATHERQD (its 64-bit
// indexes are the block pointers) and the four high lanes' with another,
// and joins the halves.
func (b *avx2) Gather(dst vreg, disp int, tmp []vreg) []step {
	c, d := b.ctx, b.v(dst)
	lo, hi, mask, half := b.v(tmp[0]), b.v(tmp[1]), xmm(b.v(tmp[2])), xmm(b.v(tmp[3]))
	return []step{
		func() { c.VMOVDQU(Mem{Base: pp}, lo) },
		func() { c.VMOVDQU(Mem{Base: pp, Disp: 32}, hi) },
		func() { c.VPCMPEQD(mask, mask, mask) }, // VPGATHERQD clears its mask
		func() { c.VPGATHERQD(mask, Mem{Base: zero, Index: lo, Scale: 1, Disp: disp}, xmm(d)) },
		func() { c.VPCMPEQD(mask, mask, mask) },
		func() { c.VPGATHERQD(mask, Mem{Base: zero, Index: hi, Scale: 1, Disp: disp}, half) },
		func() { c.VINSERTI128(U8(1), half, d, d) },
	}
}

// UpdateH adds x in the masked lanes only, so that the other lanes of h
// are stored back unchanged.
func (b *avx2) UpdateH(dst, x vreg, row int) {
	c, m := b.ctx, b.hRow(row)
	c.VPAND(b.mask, b.v(x), b.v(dst))
	c.VPADDD(m, b.v(dst), b.v(dst))
	c.VMOVDQU(b.v(dst), m)
}

// avx512 is the 16-lane kernel: AVX-512 on the 32 ZMM registers, EVEX
// encodings, with VPTERNLOGD for every three-input function, VPROLD for
// the rotates, and an opmask register for the lanes that absorb a block.
type avx512 struct {
	amd64     // K is one word each, added with a broadcast
	one   Mem // the int32 1, for a broadcast
}

// liveMask is the opmask register of the lanes that absorb a block, and
// gatherMask the one the gathers consume.
var liveMask, gatherMask = reg.K1, reg.K2

// AVX512 returns the backend of the 16-lane "avx512x16" kernel.
func AVX512(ctx *build.Context) Backend {
	return &avx512{amd64: amd64{ctx: ctx, vecs: zmm, lanes: 16, mov: ctx.VMOVDQU32, insert: ctx.VINSERTI32X4}}
}

func (*avx512) Name() string                  { return "avx512x16" }
func (*avx512) Ternary() bool                 { return true }
func (*avx512) Rotate() sha1sched.RotateShape { return sha1sched.RotateInstruction }

func (b *avx512) Constants() {
	c := b.ctx
	b.k = avogen.Table(c, "sha1ManyK", sha1sched.KTable(1))
	b.bswap = avogen.Table(c, "sha1ManyBswap", sha1sched.ByteSwapTable(16))
	b.one = avogen.Table(c, "sha1ManyOne", []uint32{1})
}

func (b *avx512) Setup(counts, blk vreg) {
	b.ctx.Comment("The lanes' block counts, and block 0, for the opmasks of the lanes that absorb each block.")
	b.ctx.VMOVDQU32(b.counts(), b.v(counts))
	b.ctx.VPXORD(b.v(blk), b.v(blk), b.v(blk))
}

// Retire sets the opmask liveMask: the lanes retire from the masked stores
// of h as their counts run out.
func (b *avx512) Retire(counts, blk, _ vreg) {
	b.ctx.VPCMPGTD(b.v(blk), b.v(counts), liveMask) // counts > blk
	b.ctx.VPADDD_BCST(b.one, b.v(blk), b.v(blk))
}

func (b *avx512) AddK(dst, a vreg, i int)      { b.ctx.VPADDD_BCST(b.k.Offset(4*i), b.v(a), b.v(dst)) }
func (b *avx512) Xor(dst, a vreg, x source)    { b.ctx.VPXORD(b.op(x), b.v(a), b.v(dst)) }
func (b *avx512) And(dst, a vreg, x source)    { b.ctx.VPANDD(b.op(x), b.v(a), b.v(dst)) }
func (b *avx512) Or(dst, a vreg, x source)     { b.ctx.VPORD(b.op(x), b.v(a), b.v(dst)) }
func (b *avx512) AndNot(dst, a vreg, x source) { b.ctx.VPANDND(b.op(x), b.v(a), b.v(dst)) }
func (b *avx512) Rol(dst, a vreg, n int)       { b.ctx.VPROLD(U8(n), b.v(a), b.v(dst)) }

// Logic3 is VPTERNLOGD, which overwrites its first source.
func (b *avx512) Logic3(dst, a, x vreg, y source, imm uint8) {
	if dst != a {
		if dst == x || dst == y {
			panic("sha1many: Logic3 would overwrite a source") // a description bug
		}
		b.ctx.VMOVDQA32(b.v(a), b.v(dst))
	}
	b.ctx.VPTERNLOGD(U8(imm), b.op(y), b.v(x), b.v(dst))
}

func (b *avx512) GatherTemps() int { return 3 }

// Gather fetches the eight low lanes' words with one VPGATHERQD and the
// eight high lanes' with another, and joins the halves.
func (b *avx512) Gather(dst vreg, disp int, tmp []vreg) []step {
	c, d := b.ctx, b.v(dst)
	lo, hi, half := b.v(tmp[0]), b.v(tmp[1]), ymmOf(b.v(tmp[2]))
	return []step{
		func() { c.VMOVDQU64(Mem{Base: pp}, lo) },
		func() { c.VMOVDQU64(Mem{Base: pp, Disp: 64}, hi) },
		func() { c.KXNORW(gatherMask, gatherMask, gatherMask) }, // the gather clears its mask
		func() { c.VPGATHERQD(Mem{Base: zero, Index: lo, Scale: 1, Disp: disp}, gatherMask, ymmOf(d)) },
		func() { c.KXNORW(gatherMask, gatherMask, gatherMask) },
		func() { c.VPGATHERQD(Mem{Base: zero, Index: hi, Scale: 1, Disp: disp}, gatherMask, half) },
		func() { c.VINSERTI64X4(U8(1), half, d, d) },
	}
}

// UpdateH stores the sum to the lanes of the opmask only.
func (b *avx512) UpdateH(dst, x vreg, row int) {
	m := b.hRow(row)
	b.ctx.VPADDD(m, b.v(x), b.v(dst))
	b.ctx.VMOVDQU32(b.v(dst), liveMask, m)
}
