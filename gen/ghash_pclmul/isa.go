package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// isa emits the vector operations of the description at one vector width.
// The description names registers at 128 bits (X0..X15); an isa of a wider
// width uses the same register numbers at its width (Y or Z), and every
// operation acts on each 128-bit lane alone, as PCLMULQDQ, PSHUFB and
// PSHUFD do at every width. Operations are written in three-operand form,
// dst = op(a, b); the SSE implementation copies a into dst first when they
// differ (its encodings overwrite their first operand), the others emit
// VEX or EVEX forms directly.
type isa interface {
	// width is the vector width in bits: 128, 256 or 512.
	width() int
	// narrower is the isa of half this width, in the encodings this one's
	// code can mix with (VEX for the 256- and 512-bit ones), or nil at 128.
	narrower() isa
	// memKey reports whether clmul takes its key operand (b) from memory
	// at any alignment; if not, the description loads it into a register.
	memKey() bool

	// copy sets dst = a.
	copy(dst, a reg.VecPhysical)
	// load sets dst to the width/8 bytes at m (no alignment needed).
	load(dst reg.VecPhysical, m Mem)
	// broadcast sets every 128-bit lane of dst to the 16 bytes at m.
	broadcast(dst reg.VecPhysical, m Mem)
	// load64 sets dst's low 64 bits to the 8 bytes at m and its other
	// bits to 0; store writes a to the width/8 bytes at m; store64 writes
	// a's low 64 bits to m. The wider isas need none of them.
	load64(dst reg.VecPhysical, m Mem)
	store(m Mem, a reg.VecPhysical)
	store64(m Mem, a reg.VecPhysical)
	// fromWords sets dst's low 64 bits to the general register lo and its
	// high ones to hi; it may overwrite tmp. 128 bits only.
	fromWords(dst, tmp reg.VecPhysical, lo, hi reg.Register)
	// clmul sets each lane of dst to the 128-bit carry-less product of a
	// 64-bit half of a's lane and one of b's: imm bit 0 picks a's (0 low,
	// 1 high), bit 4 b's. b is a register, or memory if memKey.
	clmul(dst, a reg.VecPhysical, b Op, imm uint8)
	// xor sets dst = a ^ b; xor3 sets dst = a ^ b ^ c.
	xor(dst, a, b reg.VecPhysical)
	xor3(dst, a, b, c reg.VecPhysical)
	// swap sets each lane of dst to a's lane with its 64-bit halves
	// exchanged.
	swap(dst, a reg.VecPhysical)
	// shuffle sets each lane of dst to the bytes of a's lane picked by the
	// indexes in idx's lane (PSHUFB).
	shuffle(dst, a, idx reg.VecPhysical)
	// upper sets dst, a register of half this width, to a's upper half.
	upper(dst, a reg.VecPhysical)

	// The schedule's forms (schedule.go).
	//
	// unpackHi sets each lane of dst to [a's high half, b's high half].
	unpackHi(dst, a, b reg.VecPhysical)
	// shl64 and shr64 shift each 64-bit half of a by n bits into dst.
	shl64(dst, a reg.VecPhysical, n uint8)
	shr64(dst, a reg.VecPhysical, n uint8)
	// blend64 sets each lane of dst to [lo's low half, hi's high half];
	// dst may be hi (SSE: must be hi, or neither).
	blend64(dst, lo, hi reg.VecPhysical)
	// xorMem and shuffleMem are xor and shuffle with the second operand
	// from memory, at any alignment; broadcast64 sets every 64-bit half of
	// dst to the 8 bytes at m. Not SSE.
	xorMem(dst, a reg.VecPhysical, m Mem)
	andMem(dst, a reg.VecPhysical, m Mem)
	shuffleMem(dst, a reg.VecPhysical, idx Mem)
	broadcast64(dst reg.VecPhysical, m Mem)
}

// halfSum sets dst to the sum of src's two 64-bit halves, in both halves:
// the middle operand of a Karatsuba product (x0+x1, or a key power's).
func halfSum(o isa, dst, src reg.VecPhysical) {
	o.swap(dst, src)
	o.xor(dst, dst, src)
}

// twoXor is xor3 as two xors, for the isas without a three-way one.
func twoXor(o isa, dst, a, b, c reg.VecPhysical) {
	o.xor(dst, a, b)
	o.xor(dst, dst, c)
}

// sse: SSE2, SSSE3 and PCLMULQDQ at 128 bits, destructive two-operand
// encodings. Its memory operands would need 16-byte alignment, which the
// key does not have, so it takes none.
type sse struct{ ctx *build.Context }

func (s sse) width() int    { return 128 }
func (s sse) narrower() isa { return nil }
func (s sse) memKey() bool  { return false }

// into prepares dst to receive a two-operand op whose first operand is a.
func (s sse) into(dst, a reg.VecPhysical) {
	if dst != a {
		s.ctx.MOVO(a, dst)
	}
}

func (s sse) copy(dst, a reg.VecPhysical)          { s.into(dst, a) }
func (s sse) load(dst reg.VecPhysical, m Mem)      { s.ctx.MOVOU(m, dst) }
func (s sse) broadcast(dst reg.VecPhysical, m Mem) { s.ctx.MOVOU(m, dst) }
func (s sse) load64(dst reg.VecPhysical, m Mem)    { s.ctx.MOVQ(m, dst) }
func (s sse) store(m Mem, a reg.VecPhysical)       { s.ctx.MOVOU(a, m) }
func (s sse) fromWords(dst, tmp reg.VecPhysical, lo, hi reg.Register) {
	s.ctx.MOVQ(lo, dst)
	s.ctx.MOVQ(hi, tmp)
	s.ctx.PUNPCKLQDQ(tmp, dst)
}
func (s sse) store64(m Mem, a reg.VecPhysical)    { s.ctx.MOVQ(a, m) }
func (s sse) swap(dst, a reg.VecPhysical)         { s.ctx.PSHUFD(U8(0x4e), a, dst) }
func (s sse) shuffle(dst, a, idx reg.VecPhysical) { s.into(dst, a); s.ctx.PSHUFB(idx, dst) }
func (s sse) xor3(dst, a, b, c reg.VecPhysical)   { twoXor(s, dst, a, b, c) }
func (s sse) upper(dst, a reg.VecPhysical)        { panic("sse: no upper half at 128 bits") }

func (s sse) unpackHi(dst, a, b reg.VecPhysical)    { s.into(dst, a); s.ctx.PUNPCKHQDQ(b, dst) }
func (s sse) shl64(dst, a reg.VecPhysical, n uint8) { s.into(dst, a); s.ctx.PSLLQ(U8(n), dst) }
func (s sse) shr64(dst, a reg.VecPhysical, n uint8) { s.into(dst, a); s.ctx.PSRLQ(U8(n), dst) }

// blend64 moves lo's low half into a copy of hi (MOVSD, SSE2).
func (s sse) blend64(dst, lo, hi reg.VecPhysical) {
	if dst == lo && dst != hi {
		panic("sse: blend64 into its low operand")
	}
	s.into(dst, hi)
	s.ctx.MOVSD(lo, dst)
}

const sseMem = "sse: memory operands need alignment"

func (s sse) xorMem(reg.VecPhysical, reg.VecPhysical, Mem)     { panic(sseMem) }
func (s sse) andMem(reg.VecPhysical, reg.VecPhysical, Mem)     { panic(sseMem) }
func (s sse) shuffleMem(reg.VecPhysical, reg.VecPhysical, Mem) { panic(sseMem) }
func (s sse) broadcast64(reg.VecPhysical, Mem)                 { panic("sse: no broadcast64") }

func (s sse) clmul(dst, a reg.VecPhysical, b Op, imm uint8) {
	br, ok := b.(reg.VecPhysical)
	if !ok {
		panic(fmt.Sprintf("sse: clmul operand %s is not a register", b.Asm()))
	}
	if dst == br && dst != a {
		// The product is symmetric: swap the operands and the selector bits.
		a, br, imm = br, a, imm>>4|imm<<4&0x10
	}
	s.into(dst, a)
	s.ctx.PCLMULQDQ(U8(imm), br, dst)
}

func (s sse) xor(dst, a, b reg.VecPhysical) {
	switch dst {
	case a:
		s.ctx.PXOR(b, dst)
	case b:
		s.ctx.PXOR(a, dst)
	default:
		s.ctx.MOVO(a, dst)
		s.ctx.PXOR(b, dst)
	}
}

// vex: VEX encodings at 128 bits (AVX and PCLMULQDQ) or 256 bits (AVX2 and
// VPCLMULQDQ). A VEX instruction that writes a register clears its bits
// above the width, so a 128-bit result is a 256- or 512-bit one with zero
// upper lanes.
type vex struct {
	ctx  *build.Context
	bits int // 128 or 256
}

func (v vex) width() int { return v.bits }
func (v vex) narrower() isa {
	if v.bits == 128 {
		return nil
	}
	return vex{v.ctx, v.bits / 2}
}
func (v vex) memKey() bool { return true }

// r returns the register numbered as a, at v's width.
func (v vex) r(a reg.VecPhysical) reg.VecPhysical {
	if v.bits == 256 {
		return a.AsY().(reg.VecPhysical)
	}
	return a.AsX().(reg.VecPhysical)
}

// op returns b at v's width if it is a register, else b.
func (v vex) op(b Op) Op { return widen(b, v.r) }

// widen returns b through r if it is a register, else b.
func widen(b Op, r func(reg.VecPhysical) reg.VecPhysical) Op {
	if x, ok := b.(reg.VecPhysical); ok {
		return r(x)
	}
	return b
}

func (v vex) copy(dst, a reg.VecPhysical) {
	if dst != a {
		v.ctx.VMOVDQA(v.r(a), v.r(dst))
	}
}
func (v vex) load(dst reg.VecPhysical, m Mem) { v.ctx.VMOVDQU(m, v.r(dst)) }
func (v vex) broadcast(dst reg.VecPhysical, m Mem) {
	if v.bits == 128 {
		v.ctx.VMOVDQU(m, v.r(dst))
		return
	}
	v.ctx.VBROADCASTI128(m, v.r(dst))
}
func (v vex) narrow(what string) {
	if v.bits != 128 {
		panic(fmt.Sprintf("vex: %s at %d bits is not part of the description", what, v.bits))
	}
}
func (v vex) load64(dst reg.VecPhysical, m Mem) { v.narrow("load64"); v.ctx.VMOVQ(m, v.r(dst)) }
func (v vex) store(m Mem, a reg.VecPhysical)    { v.narrow("store"); v.ctx.VMOVDQU(v.r(a), m) }
func (v vex) store64(m Mem, a reg.VecPhysical)  { v.narrow("store64"); v.ctx.VMOVQ(v.r(a), m) }
func (v vex) fromWords(dst, _ reg.VecPhysical, lo, hi reg.Register) {
	v.narrow("fromWords")
	v.ctx.VMOVQ(lo, v.r(dst))
	v.ctx.VPINSRQ(U8(1), hi, v.r(dst), v.r(dst))
}
func (v vex) swap(dst, a reg.VecPhysical)         { v.ctx.VPSHUFD(U8(0x4e), v.r(a), v.r(dst)) }
func (v vex) shuffle(dst, a, idx reg.VecPhysical) { v.ctx.VPSHUFB(v.r(idx), v.r(a), v.r(dst)) }
func (v vex) xor(dst, a, b reg.VecPhysical)       { v.ctx.VPXOR(v.r(b), v.r(a), v.r(dst)) }
func (v vex) xor3(dst, a, b, c reg.VecPhysical)   { twoXor(v, dst, a, b, c) }
func (v vex) clmul(dst, a reg.VecPhysical, b Op, imm uint8) {
	v.ctx.VPCLMULQDQ(U8(imm), v.op(b), v.r(a), v.r(dst))
}
func (v vex) unpackHi(dst, a, b reg.VecPhysical)    { v.ctx.VPUNPCKHQDQ(v.r(b), v.r(a), v.r(dst)) }
func (v vex) shl64(dst, a reg.VecPhysical, n uint8) { v.ctx.VPSLLQ(U8(n), v.r(a), v.r(dst)) }
func (v vex) shr64(dst, a reg.VecPhysical, n uint8) { v.ctx.VPSRLQ(U8(n), v.r(a), v.r(dst)) }

// blend64 is VBLENDPD at 128 bits (AVX; VPBLENDD would need AVX2) and
// VPBLENDD at 256: neither is a shuffle on Intel's cores.
func (v vex) blend64(dst, lo, hi reg.VecPhysical) {
	if v.bits == 128 {
		v.ctx.VBLENDPD(U8(0x2), v.r(hi), v.r(lo), v.r(dst))
		return
	}
	v.ctx.VPBLENDD(U8(0xcc), v.r(hi), v.r(lo), v.r(dst))
}
func (v vex) xorMem(dst, a reg.VecPhysical, m Mem)       { v.ctx.VPXOR(m, v.r(a), v.r(dst)) }
func (v vex) andMem(dst, a reg.VecPhysical, m Mem)       { v.ctx.VPAND(m, v.r(a), v.r(dst)) }
func (v vex) shuffleMem(dst, a reg.VecPhysical, idx Mem) { v.ctx.VPSHUFB(idx, v.r(a), v.r(dst)) }
func (v vex) broadcast64(dst reg.VecPhysical, m Mem) {
	if v.bits == 128 {
		panic("vex: broadcast64 at 128 bits would need AVX2")
	}
	v.ctx.VPBROADCASTQ(m, v.r(dst))
}

func (v vex) upper(dst, a reg.VecPhysical) {
	if v.bits != 256 {
		panic("vex: upper of a 128-bit register")
	}
	v.ctx.VEXTRACTI128(U8(1), v.r(a), dst.AsX())
}

// evex: EVEX encodings at 512 bits (AVX512F, AVX512BW for VPSHUFB, and
// VPCLMULQDQ). The description uses only Z0..Z15, whose upper halves
// VZEROUPPER clears, and mixes in VEX code at 256 and 128 bits.
type evex struct{ ctx *build.Context }

func (e evex) width() int    { return 512 }
func (e evex) narrower() isa { return vex{e.ctx, 256} }
func (e evex) memKey() bool  { return true }

func (e evex) r(a reg.VecPhysical) reg.VecPhysical { return a.AsZ().(reg.VecPhysical) }

func (e evex) op(b Op) Op { return widen(b, e.r) }

func (e evex) copy(dst, a reg.VecPhysical) {
	if dst != a {
		e.ctx.VMOVDQA64(e.r(a), e.r(dst))
	}
}
func (e evex) load(dst reg.VecPhysical, m Mem)      { e.ctx.VMOVDQU64(m, e.r(dst)) }
func (e evex) broadcast(dst reg.VecPhysical, m Mem) { e.ctx.VBROADCASTI32X4(m, e.r(dst)) }
func (e evex) load64(reg.VecPhysical, Mem)          { panic("evex: load64 is not part of the description") }
func (e evex) store(Mem, reg.VecPhysical)           { panic("evex: store is not part of the description") }
func (e evex) store64(Mem, reg.VecPhysical)         { panic("evex: store64 is not part of the description") }
func (e evex) fromWords(_, _ reg.VecPhysical, _, _ reg.Register) {
	panic("evex: fromWords is not part of the description")
}
func (e evex) swap(dst, a reg.VecPhysical)         { e.ctx.VPSHUFD(U8(0x4e), e.r(a), e.r(dst)) }
func (e evex) shuffle(dst, a, idx reg.VecPhysical) { e.ctx.VPSHUFB(e.r(idx), e.r(a), e.r(dst)) }
func (e evex) xor(dst, a, b reg.VecPhysical)       { e.ctx.VPXORD(e.r(b), e.r(a), e.r(dst)) }

// xor3 is one VPTERNLOGD: 0x96 is the truth table of a ^ b ^ c.
// The function is symmetric, so whichever operand dst is goes first.
func (e evex) xor3(dst, a, b, c reg.VecPhysical) {
	switch dst {
	case b:
		a, b = b, a
	case c:
		a, c = c, a
	}
	e.copy(dst, a)
	e.ctx.VPTERNLOGD(U8(0x96), e.r(c), e.r(b), e.r(dst))
}
func (e evex) clmul(dst, a reg.VecPhysical, b Op, imm uint8) {
	e.ctx.VPCLMULQDQ(U8(imm), e.op(b), e.r(a), e.r(dst))
}
func (e evex) upper(dst, a reg.VecPhysical)          { e.ctx.VEXTRACTI64X4(U8(1), e.r(a), dst.AsY()) }
func (e evex) unpackHi(dst, a, b reg.VecPhysical)    { e.ctx.VPUNPCKHQDQ(e.r(b), e.r(a), e.r(dst)) }
func (e evex) shl64(dst, a reg.VecPhysical, n uint8) { e.ctx.VPSLLQ(U8(n), e.r(a), e.r(dst)) }
func (e evex) shr64(dst, a reg.VecPhysical, n uint8) { e.ctx.VPSRLQ(U8(n), e.r(a), e.r(dst)) }

// blend64 is a bitwise select by hiMaskReg (all ones in each lane's high
// half, broadcast before the loop that uses it), one VPTERNLOGQ: 0xe4 is
// mask ? dst : b with dst the high operand, 0xd8 the same with dst the
// low one.
func (e evex) blend64(dst, lo, hi reg.VecPhysical) {
	switch dst {
	case hi:
		e.ctx.VPTERNLOGQ(U8(0xe4), hiMaskReg, e.r(lo), e.r(dst))
	default:
		e.copy(dst, lo)
		e.ctx.VPTERNLOGQ(U8(0xd8), hiMaskReg, e.r(hi), e.r(dst))
	}
}
func (e evex) xorMem(dst, a reg.VecPhysical, m Mem) { e.ctx.VPXORD(m, e.r(a), e.r(dst)) }
func (e evex) andMem(dst, a reg.VecPhysical, m Mem) { e.ctx.VPANDD(m, e.r(a), e.r(dst)) }
func (e evex) shuffleMem(reg.VecPhysical, reg.VecPhysical, Mem) {
	panic("evex: shuffleMem is not part of the description")
}
func (e evex) broadcast64(dst reg.VecPhysical, m Mem) { e.ctx.VPBROADCASTQ(m, e.r(dst)) }
