package main

import (
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// isa emits the vector operations of the description. Every operation is
// written in three-operand form, dst = op(a, b); the SSE implementation
// copies a into dst first when they differ (its encodings overwrite their
// first operand), the AVX one emits VEX forms directly.
type isa interface {
	// suffix is appended to the names of the functions it emits.
	suffix() string
	// copy sets dst = a.
	copy(dst, a reg.VecPhysical)
	// load sets dst to the 16 bytes at m (no alignment needed); load64
	// sets dst's low 64 bits to the 8 bytes at m and its high ones to 0.
	load(dst reg.VecPhysical, m Mem)
	load64(dst reg.VecPhysical, m Mem)
	// store writes a to the 16 bytes at m; store64 writes a's low 64 bits.
	store(m Mem, a reg.VecPhysical)
	store64(m Mem, a reg.VecPhysical)
	// clmul sets dst to the 128-bit carry-less product of a 64-bit half
	// of a and one of b: imm bit 0 picks a's (0 low, 1 high), bit 4 b's.
	clmul(dst, a, b reg.VecPhysical, imm uint8)
	// xor sets dst = a ^ b.
	xor(dst, a, b reg.VecPhysical)
	// zero sets dst = 0.
	zero(dst reg.VecPhysical)
	// swap sets dst to a with its two 64-bit halves exchanged.
	swap(dst, a reg.VecPhysical)
	// shuffle sets dst to the bytes of a picked by the indexes in idx (PSHUFB).
	shuffle(dst, a, idx reg.VecPhysical)
	// shl and shr shift the whole 128 bits of a by n bytes.
	shl(dst, a reg.VecPhysical, n int)
	shr(dst, a reg.VecPhysical, n int)
	// low sets dst to a's low 64 bits, with zeros above.
	low(dst, a reg.VecPhysical)
}

// sse: SSE2, SSSE3 and PCLMULQDQ, destructive two-operand encodings.
type sse struct{ ctx *build.Context }

func (s sse) suffix() string { return "" }

// into prepares dst to receive a two-operand op whose first operand is a.
func (s sse) into(dst, a reg.VecPhysical) {
	if dst != a {
		s.ctx.MOVO(a, dst)
	}
}

func (s sse) copy(dst, a reg.VecPhysical)         { s.into(dst, a) }
func (s sse) load(dst reg.VecPhysical, m Mem)     { s.ctx.MOVOU(m, dst) }
func (s sse) load64(dst reg.VecPhysical, m Mem)   { s.ctx.MOVQ(m, dst) }
func (s sse) store(m Mem, a reg.VecPhysical)      { s.ctx.MOVOU(a, m) }
func (s sse) store64(m Mem, a reg.VecPhysical)    { s.ctx.MOVQ(a, m) }
func (s sse) zero(dst reg.VecPhysical)            { s.ctx.PXOR(dst, dst) }
func (s sse) swap(dst, a reg.VecPhysical)         { s.ctx.PSHUFD(U8(0x4e), a, dst) }
func (s sse) shl(dst, a reg.VecPhysical, n int)   { s.into(dst, a); s.ctx.PSLLO(U8(n), dst) }
func (s sse) shr(dst, a reg.VecPhysical, n int)   { s.into(dst, a); s.ctx.PSRLO(U8(n), dst) }
func (s sse) shuffle(dst, a, idx reg.VecPhysical) { s.into(dst, a); s.ctx.PSHUFB(idx, dst) }
func (s sse) low(dst, a reg.VecPhysical)          { s.ctx.MOVQ(a, dst) }

func (s sse) clmul(dst, a, b reg.VecPhysical, imm uint8) {
	if dst == b && dst != a {
		// The product is symmetric: swap the operands and the selector bits.
		a, b, imm = b, a, imm>>4|imm<<4&0x10
	}
	s.into(dst, a)
	s.ctx.PCLMULQDQ(U8(imm), b, dst)
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

// avx: the same operations in VEX encodings (AVX and PCLMULQDQ).
type avx struct{ ctx *build.Context }

func (v avx) suffix() string { return "AVX" }

func (v avx) copy(dst, a reg.VecPhysical) {
	if dst != a {
		v.ctx.VMOVDQA(a, dst)
	}
}
func (v avx) load(dst reg.VecPhysical, m Mem)     { v.ctx.VMOVDQU(m, dst) }
func (v avx) load64(dst reg.VecPhysical, m Mem)   { v.ctx.VMOVQ(m, dst) }
func (v avx) store(m Mem, a reg.VecPhysical)      { v.ctx.VMOVDQU(a, m) }
func (v avx) store64(m Mem, a reg.VecPhysical)    { v.ctx.VMOVQ(a, m) }
func (v avx) zero(dst reg.VecPhysical)            { v.ctx.VPXOR(dst, dst, dst) }
func (v avx) swap(dst, a reg.VecPhysical)         { v.ctx.VPSHUFD(U8(0x4e), a, dst) }
func (v avx) shl(dst, a reg.VecPhysical, n int)   { v.ctx.VPSLLDQ(U8(n), a, dst) }
func (v avx) shr(dst, a reg.VecPhysical, n int)   { v.ctx.VPSRLDQ(U8(n), a, dst) }
func (v avx) shuffle(dst, a, idx reg.VecPhysical) { v.ctx.VPSHUFB(idx, a, dst) }
func (v avx) xor(dst, a, b reg.VecPhysical)       { v.ctx.VPXOR(b, a, dst) }
func (v avx) low(dst, a reg.VecPhysical)          { v.ctx.VMOVQ(a, dst) }
func (v avx) clmul(dst, a, b reg.VecPhysical, imm uint8) {
	v.ctx.VPCLMULQDQ(U8(imm), b, a, dst)
}
