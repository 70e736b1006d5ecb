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

// checkedAVX512 is the 16-lane kernel with the check: the accumulator is
// the vector register the AVX-512 rounds do not use (the AVX2 kernel's
// lane mask, in an opmask register here).
type checkedAVX512 struct {
	*avx512
	acc  reg.VecPhysical
	bits Mem // 1<<k, k = 0..31
	dvs  Mem // the DVs of each term of ubc.Terms
}

// AVX512Checked returns the backend of the checking 16-lane kernel
// ("avx512x16" of package sha1dc).
func AVX512Checked(ctx *build.Context) Backend {
	b := &checkedAVX512{avx512: AVX512(ctx).(*avx512)}
	b.early = func() {
		b.ctx.MOVL(U32(0), b.result())
		b.ctx.XORL(recCount.As32(), recCount.As32())
	}
	return b
}

func (b *checkedAVX512) result() Mem {
	m, err := b.ctx.ReturnIndex(0).Resolve()
	if err != nil {
		panic("sha1many: " + err.Error())
	}
	return m.Addr
}

func (b *checkedAVX512) Constants() {
	b.avx512.Constants()
	var bits []uint32
	for k := range 32 {
		bits = append(bits, 1<<k)
	}
	b.bits = avogen.Table(b.ctx, "ubcBits", bits)
	var dvs []uint32
	for _, t := range ubc.Terms {
		dvs = append(dvs, t.DVs)
	}
	b.dvs = avogen.Table(b.ctx, "ubcDVs", dvs)
}

func (b *checkedAVX512) CheckBegin(acc vreg) {
	b.acc = b.v(acc)
	b.ctx.Load(b.ctx.Param("rec"), recBase)
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
	c.IMUL3Q(U32(recordBytes), recCount, recTmp)
	c.ADDQ(recBase, recTmp)
	c.VMOVDQU32(b.acc, Mem{Base: recTmp})
	for i := range 5 {
		c.VMOVDQU32(b.hRow(i), b.v(scratch))
		c.VMOVDQU32(b.v(scratch), Mem{Base: recTmp, Disp: hRowBytes * (1 + i)})
	}
	c.MOVL(off.As32(), Mem{Base: recTmp, Disp: hRowBytes * 6})
	c.DECL(Mem{Base: recTmp, Disp: hRowBytes * 6}) // NextBlock counted it already
	c.KORTESTW(k, k)
	c.SETNE(recTmp.As8())
	c.MOVBLZX(recTmp.As8(), recTmp.As32())
	c.ADDL(recTmp.As32(), recCount.As32())
}

func (b *checkedAVX512) CheckFinish() { b.ctx.MOVL(recCount.As32(), b.result()) }
