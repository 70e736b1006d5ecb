package main

import (
	"fmt"
	"strings"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// This file describes GHASH (NIST SP 800-38D, section 6.4) with the 64x64
// carry-less multiply PCLMULQDQ, once, for the isa implementations of
// isa.go and for vectors of one, two or four 128-bit lanes (VPCLMULQDQ
// multiplies in each lane of a YMM or ZMM register as PCLMULQDQ does in
// an XMM one).
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
// y^126 + y^121 + 1 (P = x^128 + x^7 + x^2 + x + 1 reflected), the whole
// is C·y^-128 mod Q: a Montgomery reduction. Q = 1 mod y^64, so one step
// dividing a 128-bit T = T1·y^64 + T0 by y^64 adds T0·Q, which clears T0:
//
//	T·y^-64 = T1 + T0·y^64 + T0·(y^63 + y^62 + y^57)  (mod Q)
//
// that is, swap the two 64-bit halves of T and add the carry-less product
// of T0 and 0xc2<<56 (127 bits at most). The product of a twisted H^i and
// a twisted H^j (as the data operand) is the twisted H^(i+j), so the
// powers are made from H' alone, in the same form.
//
// # Karatsuba and reduction
//
// With a = a1·z^64 + a0 and k = k1·z^64 + k0 (z^64 is the upper half),
//
//	a·k = a1·k1·z^128 + (a1·k1 + a0·k0 + (a0+a1)·(k0+k1))·z^64 + a0·k0
//
// three products, h, l and m; k is always a key power, whose k0+k1 is
// precomputed. The 256-bit C = h·z^128 + mid·z^64 + l, mid = m + l + h,
// is reduced in two steps, each taking the lowest 128 bits left:
//
//	C·y^-64  = h·z^64 + (mid + l·y^-64)       = h·z^64 + m'
//	C·y^-128 = h + m'·y^-64
//
// Each step is one multiply by 0xc2<<56, one swap and additions; no
// shifts, and the first step needs only l, the first product done.
//
// # Aggregation, lanes and the fold
//
// n blocks X1..Xn are absorbed with one reduction (the aggregated
// reduction of Gueron and Kounavis):
//
//	y' = (y+X1)·H^n + X2·H^(n-1) + ... + Xn·H
//
// summing the l, h and m products of all n blocks before reducing once.
// A loop of this description takes groups of n blocks in vectors of one,
// two or four lanes: lane j of the vector holding blocks i..i+lanes-1
// takes block i+j and H^(n-i-j), so the key holds its powers from the
// highest down, and one load gives a vector its powers. Each lane sums its
// own products, and the reduction runs on all lanes at once, at the cost
// of one. Reduction is linear, so the lanes' reduced sums add up to the
// reduced whole: the lanes are folded afterwards, by adding the upper half
// of the vector to the lower one until one lane is left (one step at 256
// bits, two at 512). So a group costs one reduction and log2(lanes)
// additions, whatever its width.
//
// A kernel is a list of such loops, widest first, each with its group
// size: the 128-bit one takes 8 blocks, the 256- and 512-bit ones 16 (the
// -blocks knob; 32 needs a key layout of 32 powers, tableBlocks). The widest loop is used from a
// threshold (a knob) up; what is left after it goes to the narrower loops,
// and the rest, fewer than 8 blocks, to a loop over single blocks whose
// key addresses run from H^r up to H^1, so one piece of code serves every
// r. The block that y is added to goes last in its group: the products of
// the others do not wait for the previous group's reduction. How a group's
// work is done and ordered, and whether a wide loop folds its lanes after
// every group or once, are knobs of the loop's schedule (schedule.go).
//
// # Powers
//
// The key holds H^1..H^n, computed from H' by ghashPowers when the Go side
// expands a key, n the group size of the kernel's widest loop, or fewer
// when no update of that key will be given more blocks (package ghash's
// powersFor). So the kernels never ask which powers are there: the
// widest loop runs only on at least its group size of blocks, the 8-block
// loop on at least 8, and the rest (fewer than eight, and so no more than
// the update was given) is one group of m blocks times H^m..H^1; an update
// of n blocks reads H^1..H^min(n, group size) and nothing more.
//
// # Short GCM messages
//
// GCM's GHASH of a short message (A, C and the length block in at most as
// many blocks as the key has powers: eight, or sixteen for the wide
// kernels) is one group of its own (gcm): the whole blocks of A and C
// are read where they are, two to a vector at 256 bits, and the partial
// blocks and the length block are put together in general registers from
// the bytes that are there, so that nothing is copied into a buffer first.
// A block alone in a wide vector has zero upper lanes, which add nothing
// to the upper lanes' sums; the fold adds them up as for any group.

// The expanded key layout, shared by every amd64 kernel: key powers, then
// their Karatsuba sums. ghash/kernel_amd64.go mirrors these numbers.
const (
	tableBlocks = 16                            // H^1..H^16: the most blocks any loop absorbs per reduction
	tableLanes  = 4                             // the sums are laid out for vectors of up to four lanes
	powersOff   = 0                             // H^i at byte powerAddr(i): H^16 first, H^1 last
	sumsOff     = powersOff + 16*tableBlocks    // lo^hi of H^i at byte sumAddr(i)
	keyWords    = (sumsOff + 8*tableBlocks) / 8 // the size of expandedKey.asm, in uint64 words
	polyConst   = 0xc2 << 56                    // y^63 + y^62 + y^57: the Montgomery step's multiplier
	blockBytes  = 16
	pclmulGroup = 8 // blocks per group of the 128-bit loop
)

// powerAddr returns the byte offset of the twisted H^i, [lo, hi]: the
// powers run down from H^tableBlocks, so that lane j of a vector loaded
// from powerAddr(i) holds H^(i-j).
func powerAddr(i int) int {
	if i < 1 || i > tableBlocks {
		panic(fmt.Sprintf("no power H^%d in the key", i))
	}
	return powersOff + 16*(tableBlocks-i)
}

// sumAddr returns the byte offset of the 64-bit Karatsuba sum lo^hi of
// H^i. The sums are 8 bytes each and a vector operand is a lane-wise
// choice of half, so they are interleaved: counting the powers from the
// highest, the sums of the 4-power vectors 2v and 2v+1 share four 16-byte
// entries, 2v's in the low halves and 2v+1's in the high ones. A vector of
// two or four lanes whose powers start at a multiple of its lanes then
// finds its sums in consecutive entries, all in the same half (sums
// checks that).
func sumAddr(i int) int {
	j := tableBlocks - i
	v, lane := j/tableLanes, j%tableLanes
	return sumsOff + 16*(v/2*tableLanes+lane) + 8*(v%2)
}

// sums returns the memory operand holding the sums of H^i..H^(i-lanes+1)
// as a vector of lanes lanes, and which half of each lane holds them (0
// low, 1 high). It panics if the layout does not allow that.
func sums(kp reg.Register, i, lanes int) (Mem, uint8) {
	a := sumAddr(i)
	for j := 1; j < lanes; j++ {
		if sumAddr(i-j) != a+16*j {
			panic(fmt.Sprintf("the sums of H^%d..H^%d are not one vector", i, i-lanes+1))
		}
	}
	return Mem{Base: kp, Disp: a &^ 8}, uint8(a>>3) & 1
}

// regs is the register plan of the kernels, as 128-bit names; the wider
// loops use the same numbers at their width.
type regs struct {
	y, bswap, poly reg.VecPhysical // accumulator; PSHUFB byte reversal; polyConst in each lane's low half
	l, h, m        reg.VecPhysical // the lo, hi and middle sums of the products
	x, k, s, t     reg.VecPhysical // block, key power, its Karatsuba sum, temporary
	// The software-pipelined loops (schedule.go): the second set of sums,
	// and the reduction's temporaries, apart from the products' x and t.
	l2, h2, m2 reg.VecPhysical
	u, w, z    reg.VecPhysical
}

var plan = regs{
	y: reg.X0, bswap: reg.X1, poly: reg.X2,
	l: reg.X3, h: reg.X4, m: reg.X5,
	x: reg.X6, k: reg.X7, s: reg.X8, t: reg.X9,
	l2: reg.X10, h2: reg.X11, m2: reg.X12,
	u: reg.X13, w: reg.X14, z: reg.X15,
}

// desc emits the description on the register plan.
type desc struct {
	ctx *build.Context
	r   regs
}

// constants emits the read-only tables: the byte reversal indexes and the
// reduction multiplier, 16 bytes each (broadcast to every lane), and with
// more those the shape of a loop may read (loopConstants).
func constants(ctx *build.Context) (bswap, poly Mem) {
	// Byte i of the result is byte 15-i of the source.
	bswap = indexTable(ctx, "ghashBswap", func(i int) int { return 15 - i })
	return bswap, table(ctx, "ghashPoly", polyConst, 0)
}

// function starts the NOSPLIT function name, of the signature that sig
// formats with args.
func function(ctx *build.Context, name, sig string, args ...any) {
	ctx.Function(name)
	ctx.Attributes(attr.NOSPLIT)
	ctx.SignatureExpr(fmt.Sprintf(sig, args...))
}

// table emits the read-only 16 bytes of name, the words lo and hi.
func table(ctx *build.Context, name string, lo, hi uint64) Mem {
	m := ctx.StaticGlobal(name)
	ctx.DataAttributes(attr.RODATA | attr.NOPTR)
	ctx.AddDatum(0, U64(lo))
	ctx.AddDatum(8, U64(hi))
	return m
}

// indexTable emits the PSHUFB indexes of name: byte i of the result is
// byte src(i) of the source.
func indexTable(ctx *build.Context, name string, src func(i int) int) Mem {
	var w [2]uint64
	for i := 15; i >= 0; i-- {
		w[i/8] = w[i/8]<<8 | uint64(src(i))
	}
	return table(ctx, name, w[0], w[1])
}

// loopConstants emits the tables the schedule of a loop may read, if
// some loop's shape does: the byte reversal of each 64-bit half (-halves
// pair), the mask of each lane's low half (-blend mask) and of its high
// half (the 512-bit blend of -reduction shift), 16 bytes each.
func loopConstants(ctx *build.Context, loops []loop) loopMems {
	var c loopMems
	for _, lp := range loops {
		if lp.shape.halves == HalvesPair && lp.shape.mul == MulKaratsuba && c.bswap64.Symbol.Name == "" {
			// Byte i of the result is byte 7-i of the same half.
			c.bswap64 = indexTable(ctx, "ghashBswap64", func(i int) int { return i&^7 + 7 - i&7 })
		}
		if lp.shape.blend == BlendMask && c.loMask.Symbol.Name == "" {
			c.loMask = table(ctx, "ghashLoMask", ^uint64(0), 0)
		}
		if lp.shape.reduction != ReductionCLMUL && lp.o.width() == 512 && c.hiMask.Symbol.Name == "" {
			c.hiMask = table(ctx, "ghashHiMask", 0, ^uint64(0))
		}
	}
	return c
}

// product adds x·k into the sums l, h, m (or sets them, if first), lane by
// lane: three carry-less products, with k0+k1 in half sHalf of s's lanes.
// x and t are overwritten.
func (d *desc) product(o isa, x reg.VecPhysical, k, s Op, sHalf uint8, first bool) {
	r := d.r
	halfSum(o, r.t, x)
	if first {
		o.clmul(r.m, r.t, s, sHalf<<4)
		o.clmul(r.l, x, k, 0x00)
		o.clmul(r.h, x, k, 0x11)
		return
	}
	o.clmul(r.t, r.t, s, sHalf<<4)
	o.xor(r.m, r.m, r.t)
	o.clmul(r.t, x, k, 0x00)
	o.xor(r.l, r.l, r.t)
	o.clmul(x, x, k, 0x11)
	o.xor(r.h, r.h, x)
}

// reduce reduces the sums l, h, m of each lane into dst (see Karatsuba
// and reduction); l, m and t are overwritten.
func (d *desc) reduce(o isa, dst reg.VecPhysical) {
	r := d.r
	d.ctx.Comment("Reduce: m' = mid + l·y^-64, then h + m'·y^-64.")
	o.clmul(r.t, r.l, r.poly, 0x00)
	o.xor3(r.m, r.m, r.l, r.h) // mid
	o.swap(r.l, r.l)
	o.xor3(r.m, r.m, r.l, r.t) // m'
	o.clmul(r.t, r.m, r.poly, 0x00)
	o.swap(r.m, r.m)
	o.xor3(dst, r.h, r.m, r.t)
}

// fold adds the lanes of y, at o's width, into its lowest one, halving the
// width each step; the lanes above come out zero.
func (d *desc) fold(o isa) {
	for n := o.narrower(); n != nil; o, n = n, n.narrower() {
		d.ctx.Commentf("Fold %d bits into %d.", o.width(), n.width())
		o.upper(d.r.t, d.r.y)
		n.xor(d.r.y, d.r.y, d.r.t)
	}
}

// loadBlocks sets dst to the width/8 bytes at m, each block byte-reversed.
func (d *desc) loadBlocks(o isa, dst reg.VecPhysical, m Mem) {
	o.load(dst, m)
	o.shuffle(dst, dst, d.r.bswap)
}

// A loop absorbs groups of blocks, one reduction per group, in vectors of
// o.width()/128 lanes, with the schedule its shape gives (schedule.go).
type loop struct {
	o      isa
	blocks int // per group, a multiple of the lanes
	shape  shape
}

// kernelSpec is one update function: its loops, widest first, the last
// one 128 bits wide, and the number of blocks from which the first one is
// used (the later ones are used whenever a whole group is left).
type kernelSpec struct {
	name      string
	loops     []loop
	threshold int
	knobs     string // the generator's knobs, "flag=value ...", if it has any
}

// productAt adds r.x·H^i into the sums (or sets them, if first), for the
// power H^i at kpow, whose Karatsuba sum it makes: the code that takes
// blocks one at a time, with kpow running over the powers, uses it.
func (d *desc) productAt(o isa, kpow reg.Register, first bool) {
	r := d.r
	o.load(r.k, Mem{Base: kpow})
	halfSum(o, r.s, r.k)
	d.product(o, r.x, r.k, r.s, 0, first)
}

// update emits the kernel's function, (y *[16]byte, key *[keyWords]uint64,
// p []byte): it absorbs len(p)/16 whole blocks of p into *y and reads
// nothing else of p.
func update(ctx *build.Context, ks kernelSpec, bswapMem, polyMem Mem, lc loopMems) {
	d := &desc{ctx: ctx, r: plan}
	r := d.r
	last := ks.loops[len(ks.loops)-1]
	o := last.o // the 128-bit isa, for everything outside the wider loops
	if o.width() != 128 || last.blocks != pclmulGroup {
		panic(fmt.Sprintf("%s: the last loop must take %d blocks at 128 bits", ks.name, pclmulGroup))
	}
	if ks.threshold < ks.loops[0].blocks {
		panic(fmt.Sprintf("%s: threshold %d is below the first loop's group of %d blocks", ks.name, ks.threshold, ks.loops[0].blocks))
	}
	function(ctx, ks.name, "func(y *[16]byte, key *[%d]uint64, p []byte)", keyWords)
	var loops []string
	for _, lp := range ks.loops {
		loops = append(loops, fmt.Sprintf("%d-bit groups of %d blocks", lp.o.width(), lp.blocks))
	}
	ctx.Comment(ks.name+" absorbs len(p)/16 blocks of p into *y: y = (y+X)·H for each block X.",
		"Blocks, y and the key are byte-reversed 128-bit values, bit 127-i the coefficient",
		"of x^i, and the key powers are twisted (H^i·x^-1); see gen/ghash_pclmul.",
		fmt.Sprintf("Loops: %s (the first from %d blocks up); then single blocks.", strings.Join(loops, ", then "), ks.threshold),
		fmt.Sprintf("Key layout (%d bytes):", 8*keyWords),
		fmt.Sprintf("  +%3d  H^%d..H^1, 16 bytes each (low 64 bits first)", powersOff, tableBlocks),
		fmt.Sprintf("  +%3d  lo^hi of each, 8 bytes, interleaved for %d-lane vectors", sumsOff, tableLanes),
		fmt.Sprintf("An update of n blocks reads H^1..H^min(n, %d) and their sums, nothing more.", ks.loops[0].blocks))
	if ks.knobs != "" {
		ctx.Comment("Knobs: " + ks.knobs)
	}
	yp, kp, ptr, n := reg.RDI, reg.RSI, reg.RDX, reg.RCX
	m, kpow := reg.RBX, reg.R8
	ctx.Load(ctx.Param("p").Len(), n)
	ctx.Comment("n = the number of whole blocks.")
	ctx.SHRQ(U8(4), n)
	ctx.JZ(LabelRef("done"))
	ctx.Load(ctx.Param("y"), yp)
	ctx.Load(ctx.Param("key"), kp)
	ctx.Load(ctx.Param("p").Base(), ptr)
	o.load(r.bswap, bswapMem)
	o.load(r.poly, polyMem)
	d.loadBlocks(o, r.y, Mem{Base: yp})

	lc.bswap, lc.poly = bswapMem, polyMem
	for i, lp := range ks.loops {
		from := lp.blocks
		if i == 0 {
			from = ks.threshold
		}
		d.emitLoop(lp, from, ptr, kp, n, lc)
	}

	ctx.Label("rest")
	ctx.Commentf("The rest: one group of m = n blocks (fewer than %d), block i times", pclmulGroup)
	ctx.Comment("H^(m-i), y added to the first.")
	ctx.TESTQ(n, n)
	ctx.JZ(LabelRef("store"))
	ctx.MOVQ(n, m)
	ctx.Commentf("kpow = &H^m = key + %d - 16m; the sums are made here.", powerAddr(1)+16)
	ctx.MOVQ(m, kpow)
	ctx.SHLQ(U8(4), kpow)
	ctx.NEGQ(kpow)
	ctx.LEAQ(Mem{Base: kp, Index: kpow, Scale: 1, Disp: powerAddr(1) + 16}, kpow)
	ctx.Comment("The group's first block, with y added, sets the sums.")
	block := func(first bool) {
		d.loadBlocks(o, r.x, Mem{Base: ptr})
		if first {
			o.xor(r.x, r.x, r.y)
		}
		d.productAt(o, kpow, first)
		ctx.ADDQ(U8(blockBytes), ptr)
		ctx.ADDQ(U8(16), kpow)
		ctx.DECQ(m)
	}
	block(true)
	ctx.JZ(LabelRef("reduce"))
	ctx.Label("group")
	block(false)
	ctx.JNZ(LabelRef("group"))
	ctx.Label("reduce")
	d.reduce(o, r.y)

	ctx.Label("store")
	o.shuffle(r.y, r.y, r.bswap)
	o.store(Mem{Base: yp}, r.y)
	ctx.Label("done")
	ctx.RET()
}

// gcm emits name(y *[16]byte, key *[keyWords]uint64, a, c []byte, bitsA,
// bitsC uint64, withY bool): the end of GCM's GHASH, short enough to be
// one group, with one reduction, into *y. Its blocks, in order: the whole
// blocks of a, a's partial block zero-padded, the same of c, and the
// length block of bitsA and bitsC. For a short message a and c are A and
// C, and y starts at zero (withY false: *y is only written); the end of a
// longer one gives the pieces after what updates absorbed into *y, and
// withY. The partial blocks and the length block are put
// together in general registers (tailWords) and moved into a vector
// register, never stored: a 16-byte load of bytes stored just before in
// smaller pieces waits for the stores to reach the cache, which cost a
// short message, built in a buffer, about as much as its multiplies.
// The group's m blocks take H^m..H^1, so m must be at most the powers the
// key holds; the Go side sends no more than that.
func gcm(ctx *build.Context, name string, o isa, bswapMem, polyMem Mem) {
	d := &desc{ctx: ctx, r: plan}
	r := d.r
	x128 := o // the 128-bit isa, for single blocks
	for n := o.narrower(); n != nil; n = n.narrower() {
		x128 = n
	}
	wide := o.width() > 128
	function(ctx, name, "func(y *[16]byte, key *[%d]uint64, a, c []byte, bitsA, bitsC uint64, withY bool)", keyWords)
	ctx.Comment(name+" absorbs, with one reduction, the blocks of a, the last zero-padded,",
		"then c's, then the length block bitsA || bitsC, into *y if withY, else into zero,",
		"and sets *y to the result. Their number m is at most the powers in the key: the",
		"blocks take H^m..H^1, and y, added to the first, H^m too.")
	if wide {
		ctx.Commentf("Whole blocks go %d at a time in %d-bit vectors; the others, alone in the low", o.width()/128, o.width())
		ctx.Comment("lane with the upper lanes zero, add nothing to the upper lanes' sums.")
	}
	kp, pa, na, pc, nc := reg.RSI, reg.RDX, reg.RAX, reg.R9, reg.R10
	m, kpow, yp := reg.RBX, reg.R8, reg.RDI
	lo, hi := reg.R11, reg.R12
	ctx.Load(ctx.Param("key"), kp)
	ctx.Load(ctx.Param("a").Base(), pa)
	ctx.Load(ctx.Param("c").Base(), pc)
	ctx.Load(ctx.Param("a").Len(), na)
	ctx.Load(ctx.Param("c").Len(), nc)
	ctx.Comment("m = ceil(len(a)/16) + ceil(len(c)/16) + 1 (the length block).")
	ctx.LEAQ(Mem{Base: na, Disp: blockBytes - 1}, m)
	ctx.SHRQ(U8(4), m)
	ctx.LEAQ(Mem{Base: nc, Disp: blockBytes - 1}, kpow)
	ctx.SHRQ(U8(4), kpow)
	ctx.LEAQ(Mem{Base: m, Index: kpow, Scale: 1, Disp: 1}, m)
	ctx.Commentf("kpow = &H^m = key + %d - 16m.", powerAddr(1)+16)
	ctx.SHLQ(U8(4), m)
	ctx.NEGQ(m)
	ctx.LEAQ(Mem{Base: kp, Index: m, Scale: 1, Disp: powerAddr(1) + 16}, kpow)
	ctx.SHRQ(U8(4), na)
	ctx.SHRQ(U8(4), nc)
	o.broadcast(r.bswap, bswapMem)
	o.broadcast(r.poly, polyMem)
	for _, z := range []reg.VecPhysical{r.l, r.h, r.m} {
		o.xor(z, z, z)
	}
	ctx.Load(ctx.Param("y"), yp)
	ctx.Comment("With withY, y·H^m: (y+X1)·H^m, y added to the first block, is y·H^m + X1·H^m.")
	ctx.Load(ctx.Param("withY"), lo)
	ctx.TESTQ(lo, lo)
	ctx.JZ(LabelRef("blocks"))
	x128.load(r.x, Mem{Base: yp})
	o.shuffle(r.x, r.x, r.bswap)
	d.productAt(o, kpow, false)
	ctx.Label("blocks")
	// single absorbs the block in x's low lane (its upper lanes zero) with
	// the power at kpow: a wide key load there also reads the powers
	// below it (or the sums after H^1, still in the key), which multiply
	// zero.
	single := func() {
		d.productAt(o, kpow, false)
		ctx.ADDQ(U8(16), kpow)
	}
	for _, s := range []struct {
		name   string
		ptr, n reg.Register
	}{{"a", pa, na}, {"c", pc, nc}} {
		top, one, next := s.name+"Blocks", s.name+"Block", s.name+"Tail"
		lanes := o.width() / 128
		ctx.Commentf("The whole blocks of %s.", s.name)
		if wide {
			ctx.CMPQ(s.n, U8(lanes))
			ctx.JB(LabelRef(one))
		} else {
			ctx.TESTQ(s.n, s.n)
			ctx.JZ(LabelRef(next))
		}
		ctx.Label(top)
		d.loadBlocks(o, r.x, Mem{Base: s.ptr})
		d.productAt(o, kpow, false)
		ctx.ADDQ(U8(blockBytes*lanes), s.ptr)
		ctx.ADDQ(U8(16*lanes), kpow)
		if wide {
			ctx.SUBQ(U8(lanes), s.n)
			ctx.CMPQ(s.n, U8(lanes))
			ctx.JAE(LabelRef(top))
			if lanes != 2 {
				panic("gcm: the blocks left after the vectors must be at most one")
			}
			ctx.Label(one)
			ctx.TESTQ(s.n, s.n)
			ctx.JZ(LabelRef(next))
			x128.load(r.x, Mem{Base: s.ptr})
			o.shuffle(r.x, r.x, r.bswap)
			single()
			ctx.ADDQ(U8(blockBytes), s.ptr)
		} else {
			ctx.DECQ(s.n)
			ctx.JNZ(LabelRef(top))
		}
		ctx.Label(next)
		done := s.name + "Done"
		ctx.Commentf("%s's partial block, if any, from the r = len(%s)%%16 bytes at %s.", s.name, s.name, s.ptr.Asm())
		ctx.Load(ctx.Param(s.name).Len(), s.n)
		ctx.ANDQ(U8(blockBytes-1), s.n)
		ctx.JZ(LabelRef(done))
		d.tailWords(s.name, s.ptr, s.n, lo, hi)
		x128.fromWords(r.x, r.t, lo, hi)
		single()
		ctx.Label(done)
	}
	ctx.Comment("The length block, times H: bitsA (high half) and bitsC.")
	ctx.Load(ctx.Param("bitsA"), hi)
	ctx.Load(ctx.Param("bitsC"), lo)
	x128.fromWords(r.x, r.t, lo, hi)
	d.productAt(o, kpow, false)
	d.reduce(o, r.y)
	d.fold(o)
	x128.shuffle(r.y, r.y, r.bswap)
	x128.store(Mem{Base: yp}, r.y)
	if wide {
		ctx.VZEROUPPER()
	}
	ctx.RET()
}

// gcmShort emits gcmShort(y *[16]byte, key *[keyWords]uint64, a, c
// []byte, bitsA, bitsC uint64, withY bool, form uint8), which jumps to
// the gcm function numbered form in gcmForms, with its arguments as they
// are: Key.SumGCM calls it for every amd64 kernel, so that choosing the
// function costs a compare, not a Go function of its own between the two
// (docs/ghash.md has what that cost). An unknown form jumps to
// gcmBadForm, which panics.
func gcmShort(ctx *build.Context) {
	function(ctx, "gcmShort", "func(y *[16]byte, key *[%d]uint64, a, c []byte, bitsA, bitsC uint64, withY bool, form uint8)", keyWords)
	ctx.Comment("gcmShort jumps to the short-message GCM function numbered form, with these arguments.")
	form := reg.RAX
	ctx.Load(ctx.Param("form"), form)
	// tail jumps to another function, which avo's JMP (a branch to a
	// label of this function) does not take: a terminal instruction, as
	// RET is.
	tail := func(name string) {
		to := Mem{Symbol: Symbol{Name: "·" + name}, Base: reg.StaticBase}
		ctx.Instruction(&ir.Instruction{Opcode: "JMP", Operands: []Op{to}, IsTerminal: true})
	}
	for n, name := range gcmForms {
		if name == "" {
			continue
		}
		ctx.CMPQ(form, U8(n))
		ctx.JE(LabelRef(name))
	}
	tail(gcmBadForm)
	for _, name := range gcmForms {
		if name == "" {
			continue
		}
		ctx.Label(name)
		tail(name)
	}
}

// tailWords sets lo and hi to the low and high 64 bits of the block of
// the n bytes at p (1 <= n <= 15), zero-padded, in the byte-reversed form:
// hi holds bytes 0..7 big-endian, lo bytes 8..15. It reads only those n
// bytes, with loads that may overlap, and branches on n alone. It
// overwrites p, n, BX and CX, and its labels start with prefix.
func (d *desc) tailWords(prefix string, p, n, lo, hi reg.Register) {
	ctx := d.ctx
	short, done := prefix+"Short", prefix+"Words"
	ctx.CMPQ(n, U8(8))
	ctx.JB(LabelRef(short))
	ctx.MOVQ(Mem{Base: p}, hi)
	ctx.BSWAPQ(hi)
	ctx.ADDQ(U8(8), p)
	ctx.SUBQ(U8(8), n)
	d.upTo8(prefix+"Lo", p, n, lo)
	ctx.JMP(LabelRef(done))
	ctx.Label(short)
	d.upTo8(prefix+"Hi", p, n, hi)
	ctx.XORQ(lo, lo)
	ctx.Label(done)
}

// upTo8 sets dst to the n bytes at p (0 <= n <= 7) as the top bytes of a
// big-endian word, zero below: from 4 bytes up with two 4-byte loads, the
// first n and the last n bytes, which overlap; below 4, with the first,
// middle and last bytes, which may coincide. Each load is shifted into
// place by a count computed from n (CX), so no branch depends on the
// bytes. It overwrites BX and CX.
func (d *desc) upTo8(prefix string, p, n, dst reg.Register) {
	ctx := d.ctx
	t := reg.RBX
	small, done := prefix+"Small", prefix+"Done"
	// intoBelowN adds t, shifted left by 64-8n (mod 64, so -8n): a value
	// whose top byte is byte n-1 of the block goes to that byte's place.
	intoBelowN := func() {
		ctx.MOVQ(n, reg.RCX)
		ctx.SHLQ(U8(3), reg.RCX)
		ctx.NEGQ(reg.RCX)
		ctx.SHLQ(reg.CL, t)
		ctx.ORQ(t, dst)
	}
	ctx.XORQ(dst, dst)
	ctx.CMPQ(n, U8(4))
	ctx.JB(LabelRef(small))
	ctx.MOVL(Mem{Base: p}, dst.(reg.GPPhysical).As32())
	ctx.BSWAPL(dst.(reg.GPPhysical).As32())
	ctx.SHLQ(U8(32), dst)
	ctx.MOVL(Mem{Base: p, Index: n, Scale: 1, Disp: -4}, t.As32())
	ctx.BSWAPL(t.As32())
	ctx.Comment("The last 4 bytes go to bits 64-8n..95-8n: shift by 64-8n (mod 64, -8n).")
	intoBelowN()
	ctx.JMP(LabelRef(done))
	ctx.Label(small)
	ctx.TESTQ(n, n)
	ctx.JZ(LabelRef(done))
	ctx.MOVBQZX(Mem{Base: p}, dst)
	ctx.SHLQ(U8(56), dst)
	ctx.Comment("Byte n-1 goes to bits 64-8n..71-8n, byte n/2 to 56-8(n/2)..63-8(n/2).")
	ctx.MOVBQZX(Mem{Base: p, Index: n, Scale: 1, Disp: -1}, t)
	intoBelowN()
	ctx.MOVQ(n, reg.RCX)
	ctx.SHRQ(U8(1), reg.RCX)
	ctx.MOVBQZX(Mem{Base: p, Index: reg.RCX, Scale: 1}, t)
	ctx.SHLQ(U8(3), reg.RCX)
	ctx.NEGQ(reg.RCX)
	ctx.ADDQ(U8(56), reg.RCX)
	ctx.SHLQ(reg.CL, t)
	ctx.ORQ(t, dst)
	ctx.Label(done)
}

// powers emits ghashPowers(key *[keyWords]uint64, n int): from H' at H^1's
// place it computes H^2..H^n and the Karatsuba sums of H^1..H^n, with the
// description's own multiply, in straight-line code (a loop computing the
// addresses was a third slower in NewKey); n above tableBlocks counts as
// tableBlocks.
func powers(ctx *build.Context, o isa, polyMem Mem) {
	d := &desc{ctx: ctx, r: plan}
	r := d.r
	function(ctx, "ghashPowers", "func(key *[%d]uint64, n int)", keyWords)
	ctx.Comment(fmt.Sprintf("ghashPowers sets H^2..H^n and the sums of H^1..H^n, n <= %d, from H^1.", tableBlocks),
		"Each power is the product of two made before it, as shallow as possible:",
		"H^i = H^ceil(i/2) · H^floor(i/2).")
	kp, n := reg.RDI, reg.RCX
	ctx.Load(ctx.Param("key"), kp)
	ctx.Load(ctx.Param("n"), n)
	o.load(r.poly, polyMem)
	// H^i stays in pw[i] once made, for the registers the plan leaves
	// free; the others are read back from the key.
	pw := map[int]reg.VecPhysical{1: reg.X1, 2: reg.X10, 3: reg.X11, 4: reg.X12, 5: reg.X13, 6: reg.X14, 7: reg.X15}
	sum := func(i int, v reg.VecPhysical) {
		halfSum(o, r.t, v)
		o.store64(Mem{Base: kp, Disp: sumAddr(i)}, r.t)
	}
	o.load(pw[1], Mem{Base: kp, Disp: powerAddr(1)})
	sum(1, pw[1])
	operand := func(i int) reg.VecPhysical {
		if v, ok := pw[i]; ok {
			return v
		}
		o.load(r.k, Mem{Base: kp, Disp: powerAddr(i)})
		return r.k
	}
	for i := 2; i <= tableBlocks; i++ {
		ha, hb := (i+1)/2, i/2
		ctx.Commentf("H^%d = H^%d · H^%d", i, ha, hb)
		ctx.CMPQ(n, U8(i))
		ctx.JB(LabelRef("done"))
		o.copy(r.x, operand(ha))
		kb := operand(hb)
		halfSum(o, r.s, kb) // the key operand's
		d.product(o, r.x, kb, r.s, 0, true)
		dst, keep := pw[i]
		if !keep {
			dst = r.y
		}
		d.reduce(o, dst)
		o.store(Mem{Base: kp, Disp: powerAddr(i)}, dst)
		sum(i, dst)
	}
	ctx.Label("done")
	ctx.RET()
}

// calibrationChains is how many independent products the calibration loop
// keeps in flight: more than any current core's multiplier latency times
// its issue rate.
const calibrationChains = 8

// calibration emits clmulLoop<width>(n int): n iterations of
// calibrationChains independent carry-less multiplies at o's width, each
// depending only on its own result of the iteration before. Benchmarks
// time it to measure the core's carry-less-multiply throughput in the
// same run as a kernel.
func calibration(ctx *build.Context, o isa) {
	name := fmt.Sprintf("clmulLoop%d", o.width())
	function(ctx, name, "func(n int)")
	ctx.Commentf("%s runs n iterations of %d independent carry-less multiplies.", name, calibrationChains)
	n := reg.RCX
	ctx.Load(ctx.Param("n"), n)
	ctx.TESTQ(n, n)
	ctx.JZ(LabelRef("done"))
	k := reg.X15 // any value: the time does not depend on it
	ctx.Label("loop")
	for _, r := range []reg.VecPhysical{reg.X0, reg.X1, reg.X2, reg.X3, reg.X4, reg.X5, reg.X6, reg.X7}[:calibrationChains] {
		o.clmul(r, r, k, 0x01)
	}
	ctx.DECQ(n)
	ctx.JNZ(LabelRef("loop"))
	if o.width() > 128 {
		ctx.VZEROUPPER()
	}
	ctx.Label("done")
	ctx.RET()
}

// groupSize emits <kernel>Group() int, which returns the group size of
// the kernel's widest loop: the powers of H its keys need. The Go side
// reads it from here, so a kernel generated with other knobs (make tune)
// gets the powers it reads.
func groupSize(ctx *build.Context, ks kernelSpec) {
	function(ctx, ks.name+"Group", "func() int")
	ctx.Commentf("%sGroup returns %d, the blocks per reduction of %s's widest loop.", ks.name, ks.loops[0].blocks, ks.name)
	ctx.MOVQ(U32(ks.loops[0].blocks), reg.RAX)
	ctx.Store(reg.RAX, ctx.ReturnIndex(0))
	ctx.RET()
}
