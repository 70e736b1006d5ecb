package sha1many

import (
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/ubc"
)

// The general registers of the checking kernels' records: the next
// record's number, the records, and a temporary.
var (
	recCount = reg.RDI
	recBase  = reg.RBX
	recTmp   = reg.R15
)

// The opmask registers of the AVX-512 check: the two bits of a term, and
// the lanes that fail it (or, at a block's end, that have a surviving DV).
var checkK = [3]reg.OpmaskPhysical{reg.K3, reg.K4, reg.K5}

// recorder is what the checking kernels share: the zero result before
// Begin's exit without a block, the records' common part, the result.
type recorder struct{ ctx *build.Context }

func (r recorder) result() Mem { return avogen.Addr(r.ctx.ReturnIndex(0)) }

// zero is amd64's early: the result and the count of records start at 0.
func (r recorder) zero() {
	r.ctx.MOVL(U32(0), r.result())
	r.ctx.XORL(recCount.As32(), recCount.As32())
}

// begin loads the records' address.
func (r recorder) begin() { r.ctx.Load(r.ctx.Param("rec"), recBase) }

// record writes the record of the block just done at the next one's place
// (recTmp): masks (the lanes' masks, zero where none survives), h's rows
// copied through scratch with the move mov, the block number; then counts it if any is
// set, which set reports with the flags' NE (it emits the test).
func (r recorder) record(mov func(ops ...Op), masks, scratch reg.VecPhysical, hRow func(i int) Mem, set func()) {
	c := r.ctx
	c.IMUL3Q(U32(recordBytes), recCount, recTmp)
	c.ADDQ(recBase, recTmp)
	mov(masks, Mem{Base: recTmp})
	for i := range 5 {
		mov(hRow(i), scratch)
		mov(scratch, Mem{Base: recTmp, Disp: hRowBytes * (1 + i)})
	}
	c.MOVL(off.As32(), Mem{Base: recTmp, Disp: hRowBytes * 6})
	c.DECL(Mem{Base: recTmp, Disp: hRowBytes * 6}) // NextBlock counted it already
	set()
	c.SETNE(recTmp.As8())
	c.MOVBLZX(recTmp.As8(), recTmp.As32())
	c.ADDL(recTmp.As32(), recCount.As32())
}

// dvsTable emits the table of the DVs of each term of ubc.Terms.
func (r recorder) dvsTable() Mem {
	var dvs []uint32
	for _, t := range ubc.Terms {
		dvs = append(dvs, t.DVs)
	}
	return avogen.Table(r.ctx, "ubcDVs", dvs)
}

func (r recorder) CheckFinish() { r.ctx.MOVL(recCount.As32(), r.result()) }

// checkedAVX512 is the 16-lane kernel with the check: the accumulator is
// the vector register the AVX-512 rounds do not use (the AVX2 kernel's
// lane mask, in an opmask register here).
type checkedAVX512 struct {
	*avx512
	recorder
	acc  reg.VecPhysical
	bits Mem // 1<<k, k = 0..31
	dvs  Mem // the DVs of each term of ubc.Terms
}

// AVX512Checked returns the backend of the checking 16-lane kernel
// ("avx512x16" of package sha1dc).
func AVX512Checked(ctx *build.Context) Backend {
	b := &checkedAVX512{avx512: AVX512(ctx).(*avx512), recorder: recorder{ctx}}
	b.amd64.early = b.zero
	return b
}

func (b *checkedAVX512) Constants() {
	b.avx512.Constants()
	var bits []uint32
	for k := range 32 {
		bits = append(bits, 1<<k)
	}
	b.bits = avogen.Table(b.ctx, "ubcBits", bits)
	b.dvs = b.dvsTable()
}

// CheckBegin takes the lane mask's register, which the AVX-512 kernel
// does not use (its mask is an opmask), for the accumulator.
func (b *checkedAVX512) CheckBegin(_, _, mask vreg) {
	b.acc = b.v(mask)
	b.begin()
}

// CheckTerm: the two bits into opmasks, their XOR (XNOR for Eq = 1) the
// lanes that fail, and the term's DVs ORed into those lanes of the
// accumulator (set, zero elsewhere, by the first).
func (b *checkedAVX512) CheckTerm(j int, a, x source, first bool) []step {
	c, t := b.ctx, ubc.Terms[j]
	ka, kb, fail := checkK[0], checkK[1], checkK[2]
	steps := []step{
		func() { c.VPTESTMD_BCST(b.bits.Offset(4*t.KA), b.op(a), ka) },
		func() { c.VPTESTMD_BCST(b.bits.Offset(4*t.KB), b.op(x), kb) },
	}
	if t.Eq == 0 {
		steps = append(steps, func() { c.KXORW(kb, ka, fail) })
	} else {
		steps = append(steps, func() { c.KXNORW(kb, ka, fail) })
	}
	if first {
		return append(steps, func() { c.VPBROADCASTD_Z(b.dvs.Offset(4*j), fail, b.acc) })
	}
	return append(steps, func() { c.VPORD_BCST(b.dvs.Offset(4*j), b.acc, fail, b.acc) })
}

// CheckRecord: the masks are the accumulator's complement, kept in the
// lanes that absorb the block and have a surviving DV; the record is
// written at the next one's place every block, and counted only if one
// of its masks is not zero.
func (b *checkedAVX512) CheckRecord(scratch vreg) {
	c, k := b.ctx, checkK[2]
	c.Comment("The record of this block: its lanes' masks, h before it, its number; kept if a mask is not zero.")
	c.VPTERNLOGD(U8(0x0f), b.acc, b.acc, b.acc) // the masks: ^acc
	c.VPTESTMD(b.acc, b.acc, liveMask, k)
	c.VMOVDQA32_Z(b.acc, k, b.acc)
	b.record(b.mov, b.acc, b.v(scratch), b.hRow, func() { c.KORTESTW(k, k) })
}

// checkedAVX2 is the 8-lane kernel with the check. Its 16 YMM registers
// all have a role, so the lanes' counts and the block number, which only
// the end of a block reads, live in memory (c[1] itself, and a stack
// slot): their registers hold the accumulator and a temporary, and the
// lane mask's, which only the end of a block holds, the other temporary.
// A term is the sign of the two words shifted to bit 31 and XORed,
// spread over the lane, ANDed (ANDNOT for Eq = 1) with the term's DVs and
// ORed into the accumulator; W is read from the ring.
type checkedAVX2 struct {
	*avx2
	recorder
	acc, t0, t1 reg.VecPhysical
	blk         Mem // the block number, in every lane
	dvs         Mem
}

// AVX2Checked returns the backend of the checking 8-lane kernel
// ("avx2x8" of package sha1dc).
func AVX2Checked(ctx *build.Context) Backend {
	b := &checkedAVX2{avx2: AVX2(ctx).(*avx2), recorder: recorder{ctx}}
	b.amd64.early = b.zero
	return b
}

func (b *checkedAVX2) Constants() {
	b.avx2.Constants()
	b.dvs = b.dvsTable()
}

// Setup keeps the block number in a stack slot, from 0; the counts are
// read from c[1] where they are.
func (b *checkedAVX2) Setup(counts, blk vreg) {
	c := b.ctx
	b.blk = c.AllocLocal(32)
	c.Comment("Block 0, for the masks of the lanes that absorb each block (the counts stay in c[1]).")
	c.VPXOR(b.v(blk), b.v(blk), b.v(blk))
	c.VMOVDQU(b.v(blk), b.blk)
}

// Retire: mask = counts > blk, from memory, and blk++ in memory.
func (b *checkedAVX2) Retire(counts, blk, mask vreg) {
	c := b.ctx
	c.VMOVDQU(b.counts(), b.v(mask))
	c.VPCMPGTD(b.blk, b.v(mask), b.v(mask))
	c.VMOVDQU(b.blk, b.v(blk))
	c.VPADDD(b.ones, b.v(blk), b.v(blk))
	c.VMOVDQU(b.v(blk), b.blk)
	b.avx2.mask = b.v(mask)
}

// CheckBegin takes the registers of the counts (the accumulator), the
// block number and the lane mask (the temporaries).
func (b *checkedAVX2) CheckBegin(counts, blk, mask vreg) {
	b.acc, b.t0, b.t1 = b.v(counts), b.v(blk), b.v(mask)
	b.begin()
}

func (b *checkedAVX2) CheckTerm(j int, a, x source, first bool) []step {
	c, t := b.ctx, ubc.Terms[j]
	steps := []step{
		func() { c.VMOVDQU(b.op(a), b.t0) },
		func() { c.VPSLLD(U8(31-t.KA), b.t0, b.t0) },
		func() { c.VMOVDQU(b.op(x), b.t1) },
		func() { c.VPSLLD(U8(31-t.KB), b.t1, b.t1) },
		func() { c.VPXOR(b.t1, b.t0, b.t0) },
		func() { c.VPSRAD(U8(31), b.t0, b.t0) },
		func() { c.VPBROADCASTD(b.dvs.Offset(4*j), b.t1) },
	}
	and := func() { c.VPAND(b.t1, b.t0, b.t0) }
	if t.Eq == 1 {
		and = func() { c.VPANDN(b.t1, b.t0, b.t0) } // DVs &^ sign
	}
	steps = append(steps, and)
	if first {
		return append(steps, func() { c.VMOVDQA(b.t0, b.acc) })
	}
	return append(steps, func() { c.VPOR(b.t0, b.acc, b.acc) })
}

// CheckRecord: the masks are the accumulator's complement in the lanes
// that absorb the block (the lane mask of Retire); the record is written
// every block and counted if a mask is not zero.
func (b *checkedAVX2) CheckRecord(scratch vreg) {
	c := b.ctx
	c.Comment("The record of this block: its lanes' masks, h before it, its number; kept if a mask is not zero.")
	c.VPANDN(b.avx2.mask, b.acc, b.t0) // ^acc & live
	b.record(b.mov, b.t0, b.v(scratch), b.hRow, func() { c.VPTEST(b.t0, b.t0) })
}
