package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// This file describes GHASH (NIST SP 800-38D, section 6.4) with the 64x64
// carry-less multiply PCLMULQDQ, once, for the isa implementations of
// isa.go.
//
// # Representation
//
// A block is loaded as 16 bytes and byte-reversed (PSHUFB), which makes it
// the 128-bit integer whose bit 127 is the most significant bit of byte 0,
// the coefficient of x^0: bit 127-i holds the coefficient of x^i, the
// "reflected" form used by S. Gueron and M. E. Kounavis, "Intel
// Carry-Less Multiplication Instruction and its Usage for Computing the
// GCM Mode" (Intel white paper). No bit is ever reversed.
//
// Read a reflected value V as the polynomial V(z) = sum of bit i · z^i;
// the field element it stands for is v = x^127·V(1/x). The carry-less
// integer product C = A·B (255 bits) of two of them stands for
// x^254·C(1/x) = a·b·x^-1, one factor x short. So the kernels keep the
// "twisted" key H' = H·x^-1 in place of H (a one-bit shift when the key is
// expanded): for a data value a, C = A·H' read as x^255·C(1/x), a 256-bit
// reflected value, is a·H exactly. Split C into 128-bit halves,
// C = Chi·z^128 + Clo:
//
//	a·H = x^127·Chi(1/x) + x^128 · x^127·Clo(1/x)
//
// Chi is the reflected form of the first term as it is; the second needs
// the factor x^128 folded in. With y = 1/x and Q(y) = y^128 + y^127 +
// y^126 + y^121 + 1 (P = x^128 + x^7 + x^2 + x + 1 reflected), it is
// R = Clo·y^-128 mod Q: a Montgomery reduction. Q = 1 mod y^64, so one
// step dividing T = T1·y^64 + T0 by y^64 adds T0·Q, which clears T0:
//
//	T·y^-64 = T1 + T0·y^64 + T0·(y^63 + y^62 + y^57)  (mod Q)
//
// that is, swap the two 64-bit halves of T and add the carry-less product
// of T0 and 0xc2<<56 (127 bits at most). Two steps reduce Clo, and the
// result is Chi + R. The product of a twisted H^i and a twisted H^j (as
// the data operand) is the twisted H^(i+j), so the powers are made from
// H' alone, in the same form.
//
// # Karatsuba and aggregation
//
// With a = a1·z^64 + a0 and k = k1·z^64 + k0 (z^64 is the upper half),
//
//	a·k = a1·k1·z^128 + (a1·k1 + a0·k0 + (a0+a1)·(k0+k1))·z^64 + a0·k0
//
// three products; k is always a key power, whose k0+k1 is precomputed.
// n blocks X1..Xn are absorbed with one reduction (the aggregated
// reduction of Gueron and Kounavis):
//
//	y' = (y+X1)·H^n + X2·H^(n-1) + ... + Xn·H
//
// summing the lo, hi and middle products of all n blocks before combining
// them and reducing once. The main loop does this for eight blocks; the
// rest (fewer than eight) go through a loop over the blocks whose key
// addresses count down from H^r, so one piece of code serves every r.
//
// # Powers
//
// The key holds H^1..H^8, all computed from H' by ghashPowers when the Go
// side expands a key, or only H^1 when no update of that key will be given
// more than one block (package ghash's powersFor). So the kernels never
// ask which powers are there: an update of n blocks reads H^1..H^min(n, 8)
// and nothing more. The main loop takes groups of eight blocks; the rest
// (fewer than eight, and so no more than the update was given) are one
// group of m blocks times H^m..H^1.

// The expanded key layout: key powers, then the Karatsuba sums.
// ghash/kernel_amd64.go mirrors these numbers.
const (
	maxBlocks  = 8                           // blocks per reduction in the main loop
	powersOff  = 0                           // H^i at byte powersOff + 16(i-1): [lo, hi]
	sumsOff    = powersOff + 16*maxBlocks    // lo^hi of H^i at byte sumsOff + 8(i-1)
	keyWords   = (sumsOff + 8*maxBlocks) / 8 // the size of expandedKey.asm, in uint64 words
	polyConst  = 0xc2 << 56                  // y^63 + y^62 + y^57: the Montgomery step's multiplier
	blockBytes = 16
)

// regs is the register plan of the kernels.
type regs struct {
	y, bswap, poly reg.VecPhysical // accumulator; PSHUFB byte reversal; polyConst in the low half
	l, h, m        reg.VecPhysical // the lo, hi and middle sums of the products
	x, k, s, t     reg.VecPhysical // block, key power, its Karatsuba sum, temporary
}

var plan = regs{
	y: reg.X0, bswap: reg.X1, poly: reg.X2,
	l: reg.X3, h: reg.X4, m: reg.X5,
	x: reg.X6, k: reg.X7, s: reg.X8, t: reg.X9,
}

// desc emits the description for one isa, on the register plan.
type desc struct {
	ctx *build.Context
	isa isa
	r   regs
}

// constants emits the read-only tables: the byte reversal indexes and the
// reduction multiplier.
func constants(ctx *build.Context) (bswap, poly Mem) {
	bswap = ctx.StaticGlobal("ghashBswap")
	ctx.DataAttributes(attr.RODATA | attr.NOPTR)
	for half := 0; half < 2; half++ {
		// Byte i of the result is byte 15-i of the source.
		var q uint64
		for i := 8*half + 7; i >= 8*half; i-- {
			q = q<<8 | uint64(15-i)
		}
		ctx.AddDatum(8*half, U64(q))
	}
	poly = ctx.StaticGlobal("ghashPoly")
	ctx.DataAttributes(attr.RODATA | attr.NOPTR)
	ctx.AddDatum(0, U64(polyConst))
	ctx.AddDatum(8, U64(0))
	return bswap, poly
}

// product adds x·k into the sums l, h, m (or sets them, if first): three
// carry-less products, with s holding k0+k1 in its low half. x and t are
// overwritten.
func (d *desc) product(x, k, s reg.VecPhysical, first bool) {
	r, o := d.r, d.isa
	o.swap(r.t, x)
	o.xor(r.t, r.t, x) // x0+x1 in both halves
	if first {
		o.clmul(r.m, r.t, s, 0x00)
		o.clmul(r.l, x, k, 0x00)
		o.clmul(r.h, x, k, 0x11)
		return
	}
	o.clmul(r.t, r.t, s, 0x00)
	o.xor(r.m, r.m, r.t)
	o.clmul(r.t, x, k, 0x00)
	o.xor(r.l, r.l, r.t)
	o.clmul(x, x, k, 0x11)
	o.xor(r.h, r.h, x)
}

// reduce combines the sums l, h, m into the 256-bit product H:L and
// reduces it into dst (see Representation); l, h, m and t are overwritten.
// With mid = m+l+h, the middle Karatsuba product, L = l + mid·z^64 and
// H = h + mid·z^-64. The two Montgomery steps are ordered for latency: the
// first needs only L's low half, which is l's (mid does not reach it), so
// it starts as soon as the products are summed; mid's halves join later.
// (Reducing with shifts instead, to spare the multiplier, which limits the
// main loop, measured no faster on the machine this was tuned on.)
func (d *desc) reduce(dst reg.VecPhysical) {
	r, o := d.r, d.isa
	d.ctx.Comment("Step 1: L·z^-64 = swap(L) + L0·(0xc2<<56), L0 = l0.")
	o.clmul(r.t, r.l, r.poly, 0x00)
	o.xor(r.m, r.m, r.l)
	o.xor(r.m, r.m, r.h)
	o.swap(r.l, r.l)
	o.xor(r.l, r.l, r.t)
	o.low(r.t, r.m)
	o.xor(r.l, r.l, r.t) // swap(L) has mid's low half in its low half
	o.shr(r.m, r.m, 8)
	o.xor(r.h, r.h, r.m) // H
	d.ctx.Comment("Step 2, and the sum with H.")
	o.clmul(r.t, r.l, r.poly, 0x00)
	o.swap(r.l, r.l)
	o.xor(r.h, r.h, r.l)
	o.xor(dst, r.h, r.t)
}

// loadBlock sets dst to the block at m, byte-reversed.
func (d *desc) loadBlock(dst reg.VecPhysical, m Mem) {
	d.isa.load(dst, m)
	d.isa.shuffle(dst, dst, d.r.bswap)
}

// update emits ghash<PCLMUL|PCLMULAVX>(y *[16]byte, key *[keyWords]uint64,
// p []byte): it absorbs len(p)/16 whole blocks of p into *y and reads
// nothing else of p.
func update(ctx *build.Context, o isa, bswapMem, polyMem Mem) {
	d := &desc{ctx: ctx, isa: o, r: plan}
	r := d.r
	name := "ghashPCLMUL" + o.suffix()
	ctx.Function(name)
	ctx.Attributes(attr.NOSPLIT)
	ctx.SignatureExpr(fmt.Sprintf("func(y *[16]byte, key *[%d]uint64, p []byte)", keyWords))
	ctx.Comment(name+" absorbs len(p)/16 blocks of p into *y: y = (y+X)·H for each block X.",
		"Blocks, y and the key are byte-reversed 128-bit values, bit 127-i the coefficient",
		"of x^i, and the key powers are twisted (H^i·x^-1); see gen/ghash_pclmul.",
		fmt.Sprintf("Key layout (%d bytes):", 8*keyWords),
		fmt.Sprintf("  +%3d  H^1..H^%d, 16 bytes each (low 64 bits first)", powersOff, maxBlocks),
		fmt.Sprintf("  +%3d  lo^hi of H^1..H^%d, 8 bytes each", sumsOff, maxBlocks),
		fmt.Sprintf("An update of n blocks reads H^1..H^min(n, %d) and their sums, nothing more.", maxBlocks))
	yp, kp, ptr, n := reg.RDI, reg.RSI, reg.RDX, reg.RCX
	m, kpow, ksum := reg.RBX, reg.R8, reg.R9
	ctx.Load(ctx.Param("p").Len(), n)
	ctx.Comment("n = the number of whole blocks.")
	ctx.SHRQ(U8(4), n)
	ctx.JZ(LabelRef("done"))
	ctx.Load(ctx.Param("y"), yp)
	ctx.Load(ctx.Param("key"), kp)
	ctx.Load(ctx.Param("p").Base(), ptr)
	o.load(r.bswap, bswapMem)
	o.load(r.poly, polyMem)
	d.loadBlock(r.y, Mem{Base: yp})

	ctx.Comment(fmt.Sprintf("Groups of %d blocks, with one reduction each; the key's powers are set.", maxBlocks))
	ctx.CMPQ(n, U8(maxBlocks))
	ctx.JB(LabelRef("rest"))
	ctx.Label("loop")
	// Block 0, the one y is added to, goes last: the products of the
	// others do not wait for the previous group's reduction, and block
	// 0's is one addition away from the next reduction.
	for i := 1; i <= maxBlocks; i++ {
		b := i % maxBlocks
		pow := maxBlocks - b
		ctx.Commentf("Block %d times H^%d.", b, pow)
		d.loadBlock(r.x, Mem{Base: ptr, Disp: blockBytes * b})
		if b == 0 {
			o.xor(r.x, r.x, r.y)
		}
		o.load(r.k, Mem{Base: kp, Disp: powersOff + 16*(pow-1)})
		o.load64(r.s, Mem{Base: kp, Disp: sumsOff + 8*(pow-1)})
		d.product(r.x, r.k, r.s, i == 1)
	}
	d.reduce(r.y)
	ctx.ADDQ(U32(blockBytes*maxBlocks), ptr)
	ctx.SUBQ(U8(maxBlocks), n)
	ctx.CMPQ(n, U8(maxBlocks))
	ctx.JAE(LabelRef("loop"))

	ctx.Label("rest")
	ctx.Comment("The rest: one group of m = n blocks (fewer than 8), block i times",
		"H^(m-i), y added to the first.")
	ctx.TESTQ(n, n)
	ctx.JZ(LabelRef("store"))
	ctx.MOVQ(n, m)
	ctx.Comment("kpow = &H^m, ksum = &(lo^hi of H^m)")
	ctx.MOVQ(m, kpow)
	ctx.SHLQ(U8(4), kpow)
	ctx.LEAQ(Mem{Base: kp, Index: kpow, Scale: 1, Disp: powersOff - 16}, kpow)
	ctx.LEAQ(Mem{Base: kp, Index: m, Scale: 8, Disp: sumsOff - 8}, ksum)
	ctx.Comment("The group's first block, with y added, sets the sums.")
	block := func(first bool) {
		d.loadBlock(r.x, Mem{Base: ptr})
		if first {
			o.xor(r.x, r.x, r.y)
		}
		o.load(r.k, Mem{Base: kpow})
		o.load64(r.s, Mem{Base: ksum})
		d.product(r.x, r.k, r.s, first)
		ctx.ADDQ(U8(blockBytes), ptr)
		ctx.SUBQ(U8(16), kpow)
		ctx.SUBQ(U8(8), ksum)
		ctx.DECQ(m)
	}
	block(true)
	ctx.JZ(LabelRef("reduce"))
	ctx.Label("group")
	block(false)
	ctx.JNZ(LabelRef("group"))
	ctx.Label("reduce")
	d.reduce(r.y)

	ctx.Label("store")
	o.shuffle(r.y, r.y, r.bswap)
	o.store(Mem{Base: yp}, r.y)
	ctx.Label("done")
	ctx.RET()
}

// powers emits ghashPowers(key *[keyWords]uint64): from H' at H^1's place
// it computes H^2..H^8 and the Karatsuba sums of H^1..H^8.
func powers(ctx *build.Context, o isa, polyMem Mem) {
	d := &desc{ctx: ctx, isa: o, r: plan}
	r := d.r
	ctx.Function("ghashPowers" + o.suffix())
	ctx.Attributes(attr.NOSPLIT)
	ctx.SignatureExpr(fmt.Sprintf("func(key *[%d]uint64)", keyWords))
	kp := reg.RDI
	ctx.Load(ctx.Param("key"), kp)
	o.load(r.poly, polyMem)
	// H^i lives in pw[i] until stored; pw[0] is unused.
	pw := [maxBlocks + 1]reg.VecPhysical{1: reg.X11, 2: reg.X12, 3: reg.X13, 4: reg.X14}
	o.load(pw[1], Mem{Base: kp, Disp: powersOff})
	// Each power is a product of two smaller ones, as shallow as possible:
	// H^2 = H·H; H^3 = H^2·H, H^4 = H^2·H^2; H^5..H^8 = H^4·H^1..H^4.
	for i := 2; i <= maxBlocks; i++ {
		a, b := i/2, i-i/2
		if i > 4 {
			a, b = 4, i-4
		}
		ctx.Commentf("H^%d = H^%d · H^%d", i, a, b)
		dst := pw[i]
		if dst == nil {
			dst = r.y // stored at once, not needed again
		}
		o.swap(r.s, pw[b])
		o.xor(r.s, r.s, pw[b]) // the sum of the key operand, in both halves
		o.copy(r.x, pw[a])
		d.product(r.x, pw[b], r.s, true)
		d.reduce(dst)
		o.store(Mem{Base: kp, Disp: powersOff + 16*(i-1)}, dst)
	}
	ctx.Comment("The Karatsuba sums lo^hi of H^1..H^8.")
	for i := 1; i <= maxBlocks; i++ {
		o.load(r.x, Mem{Base: kp, Disp: powersOff + 16*(i-1)})
		o.swap(r.t, r.x)
		o.xor(r.t, r.t, r.x)
		o.store64(Mem{Base: kp, Disp: sumsOff + 8*(i-1)}, r.t)
	}
	ctx.RET()
}

// generate emits both update kernels and the powers function.
func generate(ctx *build.Context) {
	bswap, poly := constants(ctx)
	update(ctx, sse{ctx}, bswap, poly)
	update(ctx, avx{ctx}, bswap, poly)
	powers(ctx, sse{ctx}, poly)
}
