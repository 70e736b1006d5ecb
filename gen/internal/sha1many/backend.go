package sha1many

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// Backend lowers the description's vector operations to one instruction
// set. Every operation is dst = op(a, b...): dst and a are registers, and
// the last source may be a memory operand (32 bits per lane). An
// implementation whose encoding needs dst to be a source copies first.
type Backend interface {
	// Name is the kernel's name, as sha1.ManyKernel reports it.
	Name() string
	// Lanes is the number of 32-bit lanes of a vector register: the
	// number of messages hashed at once.
	Lanes() int
	// Vec is the i-th of the NumVec vector registers.
	Vec(i int) reg.VecPhysical
	NumVec() int
	// Ternary reports whether any three-input boolean function is one
	// instruction (Logic3); Rotate whether a rotate is (Rol).
	Ternary() bool
	Rotate() bool

	// Constants emits the read-only tables: K, the byte-swap indexes and
	// what else the backend needs.
	Constants()
	// Setup emits, once before the first block, what the masks of the
	// live lanes need: each lane's count of blocks to absorb (an int32 per
	// lane, at cnt) into register counts, and block number 0 into blk.
	Setup(cnt Mem, counts, blk reg.VecPhysical)
	// Retire emits, at the end of each block, the mask of the lanes that
	// absorb the block (counts > blk), for UpdateH, into mask (or an
	// opmask register), and blk++.
	Retire(counts, blk, mask reg.VecPhysical)
	// Finish emits what ends the function before RET.
	Finish()

	Move(dst reg.VecPhysical, src Op) // a register copy or a load
	Store(m Mem, src reg.VecPhysical)
	Add(dst, a reg.VecPhysical, b Op)
	// AddK sets dst = a + K for rounds 20i..20i+19 (i = 0..3).
	AddK(dst, a reg.VecPhysical, i int)
	Xor(dst, a reg.VecPhysical, b Op)
	And(dst, a reg.VecPhysical, b Op)
	Or(dst, a reg.VecPhysical, b Op)
	AndNot(dst, a reg.VecPhysical, b Op) // ^a & b
	Shl(dst, a reg.VecPhysical, n int)
	Shr(dst, a reg.VecPhysical, n int)
	Rol(dst, a reg.VecPhysical, n int) // only if Rotate
	// Logic3 sets dst = f(a, b, c) bit by bit, with imm the truth table
	// of f as VPTERNLOGD takes it (see ternary). Only if Ternary.
	Logic3(dst, a, b reg.VecPhysical, c Op, imm uint8)

	// ByteSwap reverses the bytes of each 32-bit lane of a.
	ByteSwap(dst, a reg.VecPhysical)
	// LoadPart sets 128-bit part q of dst to the 16 bytes at m: part 0
	// with a plain load (the other parts become anything), the others
	// by inserting into dst.
	LoadPart(dst reg.VecPhysical, m Mem, q int)
	// Unpack interleaves the 32-bit (size 4) or 64-bit (size 8) elements
	// of the low (hi = false) or high halves of each 128-bit part of a
	// and b, a's first: VPUNPCK{L,H}{DQ,QDQ}.
	Unpack(dst, a, b reg.VecPhysical, size int, hi bool)
	// Gather returns the steps that set dst to the 32-bit words at byte
	// disp of every lane's block, whose pointers are the quadwords at ptrs
	// (lane l at ptrs+8l); zero holds 0. tmp are free vector registers
	// (GatherTemps of them, none of them dst).
	Gather(dst reg.VecPhysical, ptrs, zero reg.GPPhysical, disp int, tmp []reg.VecPhysical) []step
	GatherTemps() int

	// UpdateH sets dst = x + h, with h the words at m, and stores its
	// lanes of the last Retire mask to m; m's other lanes stay as they
	// were, and dst's become anything.
	UpdateH(dst, x reg.VecPhysical, m Mem)
}

// A step emits one operation (an instruction, or the few of one lowered
// operation), so that the description can interleave independent work;
// the one-stream description's steps, so that its placement deals them.
type step = sha1sched.Step

// kTable emits SHA-1's four constants (FIPS 180-4, 4.2.1), each repeated
// copies times, as a read-only table named name.
func kTable(ctx *build.Context, name string, copies int) Mem {
	m := ctx.StaticGlobal(name)
	ctx.DataAttributes(attr.RODATA | attr.NOPTR)
	for i := 0; i < 4*copies; i++ {
		ctx.AddDatum(4*i, U32(sha1sched.K(20*(i/copies))))
	}
	return m
}

// bswapTable emits the PSHUFB indexes that reverse the bytes of each
// 32-bit word, for a register of the given number of 32-bit lanes.
func bswapTable(ctx *build.Context, name string, lanes int) Mem {
	m := ctx.StaticGlobal(name)
	ctx.DataAttributes(attr.RODATA | attr.NOPTR)
	for i := 0; i < lanes; i++ {
		// Little-endian word i holds the byte indexes 4i+3, 4i+2, 4i+1, 4i
		// (PSHUFB indexes count within each 128-bit part).
		b := uint32(4 * (i % 4))
		ctx.AddDatum(4*i, U32(b+3|(b+2)<<8|(b+1)<<16|b<<24))
	}
	return m
}

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

// shared are the operations whose mnemonic is the same in the VEX and
// EVEX encodings, where avo picks the encoding from the registers.
type shared struct {
	ctx      *build.Context
	k, bswap Mem // K; the byte-swap indexes
}

func (b *shared) Finish()                           { b.ctx.VZEROUPPER() }
func (b *shared) Add(dst, a reg.VecPhysical, x Op)  { b.ctx.VPADDD(x, a, dst) }
func (b *shared) Shl(dst, a reg.VecPhysical, n int) { b.ctx.VPSLLD(U8(n), a, dst) }
func (b *shared) Shr(dst, a reg.VecPhysical, n int) { b.ctx.VPSRLD(U8(n), a, dst) }
func (b *shared) ByteSwap(dst, a reg.VecPhysical)   { b.ctx.VPSHUFB(b.bswap, a, dst) }

// Unpack emits VPUNPCK{L,H}{DQ,QDQ} x, a, dst.
func (b *shared) Unpack(dst, a, x reg.VecPhysical, size int, hi bool) {
	c := b.ctx
	switch {
	case size == 4 && !hi:
		c.VPUNPCKLDQ(x, a, dst)
	case size == 4 && hi:
		c.VPUNPCKHDQ(x, a, dst)
	case size == 8 && !hi:
		c.VPUNPCKLQDQ(x, a, dst)
	case size == 8 && hi:
		c.VPUNPCKHQDQ(x, a, dst)
	default:
		panic(fmt.Sprintf("sha1many: no unpack of %d-byte elements", size))
	}
}

// avx2 is the 8-lane kernel: AVX2 on the 16 YMM registers, VEX encodings.
type avx2 struct {
	shared                 // K is repeated over the 8 lanes
	ones   Mem             // 1 in every lane
	mask   reg.VecPhysical // the last Retire mask: all ones in the lanes that absorb the block
}

// AVX2 returns the backend of the 8-lane "avx2x8" kernel.
func AVX2(ctx *build.Context) Backend { return &avx2{shared: shared{ctx: ctx}} }

func (*avx2) Name() string              { return "avx2x8" }
func (*avx2) Lanes() int                { return 8 }
func (*avx2) NumVec() int               { return len(ymm) }
func (*avx2) Vec(i int) reg.VecPhysical { return ymm[i] }
func (*avx2) Ternary() bool             { return false }
func (*avx2) Rotate() bool              { return false }

func (b *avx2) Constants() {
	c := b.ctx
	b.k = kTable(c, "sha1ManyK", 8)
	b.bswap = bswapTable(c, "sha1ManyBswap", 8)
	b.ones = c.StaticGlobal("sha1ManyOnes")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for l := 0; l < 8; l++ {
		c.AddDatum(4*l, U32(1))
	}
}

func (b *avx2) Setup(cnt Mem, counts, blk reg.VecPhysical) {
	b.ctx.Comment("The lanes' block counts, and block 0, for the masks of the lanes that absorb each block.")
	b.ctx.VMOVDQU(cnt, counts)
	b.ctx.VPXOR(blk, blk, blk)
}

func (b *avx2) Retire(counts, blk, mask reg.VecPhysical) {
	b.ctx.VPCMPGTD(blk, counts, mask) // counts > blk
	b.ctx.VPADDD(b.ones, blk, blk)
	b.mask = mask
}

func (b *avx2) Move(dst reg.VecPhysical, src Op) {
	if src != dst {
		b.ctx.VMOVDQU(src, dst)
	}
}
func (b *avx2) Store(m Mem, src reg.VecPhysical)    { b.ctx.VMOVDQU(src, m) }
func (b *avx2) AddK(dst, a reg.VecPhysical, i int)  { b.ctx.VPADDD(b.k.Offset(32*i), a, dst) }
func (b *avx2) Xor(dst, a reg.VecPhysical, x Op)    { b.ctx.VPXOR(x, a, dst) }
func (b *avx2) And(dst, a reg.VecPhysical, x Op)    { b.ctx.VPAND(x, a, dst) }
func (b *avx2) Or(dst, a reg.VecPhysical, x Op)     { b.ctx.VPOR(x, a, dst) }
func (b *avx2) AndNot(dst, a reg.VecPhysical, x Op) { b.ctx.VPANDN(x, a, dst) }
func (b *avx2) Rol(dst, a reg.VecPhysical, n int)   { panic("sha1many: AVX2 has no vector rotate") }
func (b *avx2) Logic3(_, _, _ reg.VecPhysical, _ Op, _ uint8) {
	panic("sha1many: AVX2 has no three-input logic instruction")
}

func (b *avx2) LoadPart(dst reg.VecPhysical, m Mem, q int) {
	if q == 0 {
		b.ctx.VMOVDQU(m, xmm(dst))
		return
	}
	b.ctx.VINSERTI128(U8(q), m, dst, dst)
}

func (b *avx2) GatherTemps() int { return 4 }

// Gather fetches the four low lanes' words with one VPGATHERQD (its 64-bit
// indexes are the block pointers) and the four high lanes' with another,
// and joins the halves.
func (b *avx2) Gather(dst reg.VecPhysical, ptrs, zero reg.GPPhysical, disp int, tmp []reg.VecPhysical) []step {
	c := b.ctx
	lo, hi, mask, half := tmp[0], tmp[1], xmm(tmp[2]), xmm(tmp[3])
	return []step{
		func() { c.VMOVDQU(Mem{Base: ptrs}, lo) },
		func() { c.VMOVDQU(Mem{Base: ptrs, Disp: 32}, hi) },
		func() { c.VPCMPEQD(mask, mask, mask) }, // VPGATHERQD clears its mask
		func() { c.VPGATHERQD(mask, Mem{Base: zero, Index: lo, Scale: 1, Disp: disp}, xmm(dst)) },
		func() { c.VPCMPEQD(mask, mask, mask) },
		func() { c.VPGATHERQD(mask, Mem{Base: zero, Index: hi, Scale: 1, Disp: disp}, half) },
		func() { c.VINSERTI128(U8(1), half, dst, dst) },
	}
}

// UpdateH adds x in the masked lanes only, so that the other lanes of h
// are stored back unchanged.
func (b *avx2) UpdateH(dst, x reg.VecPhysical, m Mem) {
	c := b.ctx
	c.VPAND(b.mask, x, dst)
	c.VPADDD(m, dst, dst)
	c.VMOVDQU(dst, m)
}

// avx512 is the 16-lane kernel: AVX-512 on the 32 ZMM registers, EVEX
// encodings, with VPTERNLOGD for every three-input function, VPROLD for
// the rotates, and an opmask register for the lanes that absorb a block.
type avx512 struct {
	shared     // K is one word each, added with a broadcast
	one    Mem // the int32 1, for a broadcast
}

// liveMask is the opmask register of the lanes that absorb a block, and
// gatherMask the one the gathers consume.
var liveMask, gatherMask = reg.K1, reg.K2

// AVX512 returns the backend of the 16-lane "avx512x16" kernel.
func AVX512(ctx *build.Context) Backend { return &avx512{shared: shared{ctx: ctx}} }

func (*avx512) Name() string              { return "avx512x16" }
func (*avx512) Lanes() int                { return 16 }
func (*avx512) NumVec() int               { return len(zmm) }
func (*avx512) Vec(i int) reg.VecPhysical { return zmm[i] }
func (*avx512) Ternary() bool             { return true }
func (*avx512) Rotate() bool              { return true }

func (b *avx512) Constants() {
	c := b.ctx
	b.k = kTable(c, "sha1ManyK", 1)
	b.bswap = bswapTable(c, "sha1ManyBswap", 16)
	b.one = c.StaticGlobal("sha1ManyOne")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	c.AddDatum(0, U32(1))
}

func (b *avx512) Setup(cnt Mem, counts, blk reg.VecPhysical) {
	b.ctx.Comment("The lanes' block counts, and block 0, for the opmasks of the lanes that absorb each block.")
	b.ctx.VMOVDQU32(cnt, counts)
	b.ctx.VPXORD(blk, blk, blk)
}

// Retire sets the opmask liveMask: the lanes retire from the masked stores
// of h as their counts run out.
func (b *avx512) Retire(counts, blk, _ reg.VecPhysical) {
	b.ctx.VPCMPGTD(blk, counts, liveMask) // counts > blk
	b.ctx.VPADDD_BCST(b.one, blk, blk)
}

func (b *avx512) Move(dst reg.VecPhysical, src Op) {
	if src != dst {
		b.ctx.VMOVDQU32(src, dst)
	}
}
func (b *avx512) Store(m Mem, src reg.VecPhysical)    { b.ctx.VMOVDQU32(src, m) }
func (b *avx512) AddK(dst, a reg.VecPhysical, i int)  { b.ctx.VPADDD_BCST(b.k.Offset(4*i), a, dst) }
func (b *avx512) Xor(dst, a reg.VecPhysical, x Op)    { b.ctx.VPXORD(x, a, dst) }
func (b *avx512) And(dst, a reg.VecPhysical, x Op)    { b.ctx.VPANDD(x, a, dst) }
func (b *avx512) Or(dst, a reg.VecPhysical, x Op)     { b.ctx.VPORD(x, a, dst) }
func (b *avx512) AndNot(dst, a reg.VecPhysical, x Op) { b.ctx.VPANDND(x, a, dst) }
func (b *avx512) Rol(dst, a reg.VecPhysical, n int)   { b.ctx.VPROLD(U8(n), a, dst) }

// Logic3 is VPTERNLOGD, which overwrites its first source.
func (b *avx512) Logic3(dst, a, x reg.VecPhysical, y Op, imm uint8) {
	if dst != a {
		if dst == x || dst == y {
			panic("sha1many: Logic3 would overwrite a source") // a description bug
		}
		b.ctx.VMOVDQA32(a, dst)
	}
	b.ctx.VPTERNLOGD(U8(imm), y, x, dst)
}

func (b *avx512) LoadPart(dst reg.VecPhysical, m Mem, q int) {
	if q == 0 {
		b.ctx.VMOVDQU32(m, xmm(dst))
		return
	}
	b.ctx.VINSERTI32X4(U8(q), m, dst, dst)
}

func (b *avx512) GatherTemps() int { return 3 }

// Gather fetches the eight low lanes' words with one VPGATHERQD and the
// eight high lanes' with another, and joins the halves.
func (b *avx512) Gather(dst reg.VecPhysical, ptrs, zero reg.GPPhysical, disp int, tmp []reg.VecPhysical) []step {
	c := b.ctx
	lo, hi, half := tmp[0], tmp[1], ymmOf(tmp[2])
	return []step{
		func() { c.VMOVDQU64(Mem{Base: ptrs}, lo) },
		func() { c.VMOVDQU64(Mem{Base: ptrs, Disp: 64}, hi) },
		func() { c.KXNORW(gatherMask, gatherMask, gatherMask) }, // the gather clears its mask
		func() { c.VPGATHERQD(Mem{Base: zero, Index: lo, Scale: 1, Disp: disp}, gatherMask, ymmOf(dst)) },
		func() { c.KXNORW(gatherMask, gatherMask, gatherMask) },
		func() { c.VPGATHERQD(Mem{Base: zero, Index: hi, Scale: 1, Disp: disp}, gatherMask, half) },
		func() { c.VINSERTI64X4(U8(1), half, dst, dst) },
	}
}

// UpdateH stores the sum to the lanes of the opmask only.
func (b *avx512) UpdateH(dst, x reg.VecPhysical, m Mem) {
	b.ctx.VPADDD(m, x, dst)
	b.ctx.VMOVDQU32(dst, liveMask, m)
}
