package sha1x86

import (
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// ISA emits the vector operations of the schedule. Every operation is
// written in three-operand form, dst = op(src...); an implementation with
// destructive two-operand encodings copies a source into dst first when
// they differ.
type ISA interface {
	// Name is the kernel's name, as reported by sha1.Kernel.
	Name() string
	// Copy sets dst = src.
	Copy(dst, src reg.VecPhysical)
	// Load sets dst to the 16 bytes at m (no alignment needed).
	Load(dst reg.VecPhysical, m Mem)
	// Store writes src to the 16 bytes at m (no alignment needed).
	Store(m Mem, src reg.VecPhysical)
	// Shuffle sets dst to the bytes of a picked by the indexes in idx (PSHUFB).
	Shuffle(dst, a, idx reg.VecPhysical)
	// Xor, Or and Add32 set dst = a ^ b, a | b, and a + b lane by 32-bit lane.
	Xor(dst, a, b reg.VecPhysical)
	Or(dst, a, b reg.VecPhysical)
	Add32(dst, a, b reg.VecPhysical)
	// AddMem32 sets dst = a + [m] in 32-bit lanes; m is 16-byte aligned.
	AddMem32(dst, a reg.VecPhysical, m Mem)
	// Shl32 and Shr32 shift each 32-bit lane of a by n bits.
	Shl32(dst, a reg.VecPhysical, n int)
	Shr32(dst, a reg.VecPhysical, n int)
	// ShlBytes and ShrBytes shift the whole 128-bit a by n bytes.
	ShlBytes(dst, a reg.VecPhysical, n int)
	ShrBytes(dst, a reg.VecPhysical, n int)
	// Align sets dst to bytes n..n+15 of the 32-byte value hi:lo (PALIGNR).
	Align(dst, hi, lo reg.VecPhysical, n int)
	// Shuffle32 sets lane i of dst to lane (order>>2i)&3 of a (PSHUFD).
	Shuffle32(dst, a reg.VecPhysical, order uint8)
	// UnpackLo64 sets dst to the low 64 bits of a, then those of b (PUNPCKLQDQ).
	UnpackLo64(dst, a, b reg.VecPhysical)
	// Sra32 shifts each 32-bit lane of a right by n bits, copying the sign.
	Sra32(dst, a reg.VecPhysical, n int)
	// AndMem and AndNotMem set dst = a & [m] and ^a & [m]; m is 16-byte
	// aligned (32-byte for YMM).
	AndMem(dst, a reg.VecPhysical, m Mem)
	AndNotMem(dst, a reg.VecPhysical, m Mem)
}

// newSSE returns the ISA of the "ssse3" kernel: SSE2 and SSSE3 (PSHUFB,
// PALIGNR), two-operand encodings.
func newSSE(ctx *build.Context) ISA { return sse{ctx} }

// newAVX returns the ISA of the "avx" kernel: VEX three-operand encodings.
func newAVX(ctx *build.Context) ISA { return avx{ctx} }

type sse struct{ ctx *build.Context }

func (s sse) Name() string { return "ssse3" }

// into prepares dst to receive a two-operand op whose first operand is a.
func (s sse) into(dst, a reg.VecPhysical) {
	if dst != a {
		s.ctx.MOVO(a, dst)
	}
}

// commutative emits op(b, dst) for dst = a op b, copying only when dst is
// neither operand.
func (s sse) commutative(op func(src, dst Op), dst, a, b reg.VecPhysical) {
	switch dst {
	case a:
		op(b, dst)
	case b:
		op(a, dst)
	default:
		s.ctx.MOVO(a, dst)
		op(b, dst)
	}
}

// two emits op(src, dst) for dst = op(a, src), copying a into dst first.
func (s sse) two(op func(src, dst Op), dst, a reg.VecPhysical, src Op) {
	s.into(dst, a)
	op(src, dst)
}

func (s sse) Copy(dst, src reg.VecPhysical)       { s.into(dst, src) }
func (s sse) Load(dst reg.VecPhysical, m Mem)     { s.ctx.MOVOU(m, dst) }
func (s sse) Store(m Mem, src reg.VecPhysical)    { s.ctx.MOVOU(src, m) }
func (s sse) Shuffle(dst, a, idx reg.VecPhysical) { s.two(s.ctx.PSHUFB, dst, a, idx) }
func (s sse) Xor(dst, a, b reg.VecPhysical)       { s.commutative(s.ctx.PXOR, dst, a, b) }
func (s sse) Or(dst, a, b reg.VecPhysical)        { s.commutative(s.ctx.POR, dst, a, b) }
func (s sse) Add32(dst, a, b reg.VecPhysical)     { s.commutative(s.ctx.PADDL, dst, a, b) }
func (s sse) AddMem32(dst, a reg.VecPhysical, m Mem) {
	if dst == a {
		s.ctx.PADDL(m, dst)
		return
	}
	s.ctx.MOVOU(m, dst)
	s.ctx.PADDL(a, dst)
}
func (s sse) Shl32(dst, a reg.VecPhysical, n int)    { s.two(s.ctx.PSLLL, dst, a, U8(n)) }
func (s sse) Shr32(dst, a reg.VecPhysical, n int)    { s.two(s.ctx.PSRLL, dst, a, U8(n)) }
func (s sse) ShlBytes(dst, a reg.VecPhysical, n int) { s.two(s.ctx.PSLLO, dst, a, U8(n)) }
func (s sse) ShrBytes(dst, a reg.VecPhysical, n int) { s.two(s.ctx.PSRLO, dst, a, U8(n)) }
func (s sse) Align(dst, hi, lo reg.VecPhysical, n int) {
	if dst == lo && dst != hi {
		panic("sha1x86: PALIGNR cannot write its low operand") // a description bug, not a user error
	}
	s.into(dst, hi)
	s.ctx.PALIGNR(U8(n), lo, dst)
}

func (s sse) Shuffle32(dst, a reg.VecPhysical, order uint8) { s.ctx.PSHUFD(U8(order), a, dst) }
func (s sse) UnpackLo64(dst, a, b reg.VecPhysical) {
	if dst == b && dst != a {
		panic("sha1x86: PUNPCKLQDQ cannot write its second operand") // a description bug
	}
	s.two(s.ctx.PUNPCKLQDQ, dst, a, b)
}

func (s sse) Sra32(dst, a reg.VecPhysical, n int)     { s.two(s.ctx.PSRAL, dst, a, U8(n)) }
func (s sse) AndMem(dst, a reg.VecPhysical, m Mem)    { s.two(s.ctx.PAND, dst, a, m) }
func (s sse) AndNotMem(dst, a reg.VecPhysical, m Mem) { s.two(s.ctx.PANDN, dst, a, m) }

type avx struct{ ctx *build.Context }

func (v avx) Name() string { return "avx" }
func (v avx) Copy(dst, src reg.VecPhysical) {
	if dst != src {
		v.ctx.VMOVDQA(src, dst)
	}
}
func (v avx) Load(dst reg.VecPhysical, m Mem)               { v.ctx.VMOVDQU(m, dst) }
func (v avx) Store(m Mem, src reg.VecPhysical)              { v.ctx.VMOVDQU(src, m) }
func (v avx) Shuffle(dst, a, idx reg.VecPhysical)           { v.ctx.VPSHUFB(idx, a, dst) }
func (v avx) Xor(dst, a, b reg.VecPhysical)                 { v.ctx.VPXOR(b, a, dst) }
func (v avx) Or(dst, a, b reg.VecPhysical)                  { v.ctx.VPOR(b, a, dst) }
func (v avx) Add32(dst, a, b reg.VecPhysical)               { v.ctx.VPADDD(b, a, dst) }
func (v avx) AddMem32(dst, a reg.VecPhysical, m Mem)        { v.ctx.VPADDD(m, a, dst) }
func (v avx) Shl32(dst, a reg.VecPhysical, n int)           { v.ctx.VPSLLD(U8(n), a, dst) }
func (v avx) Shr32(dst, a reg.VecPhysical, n int)           { v.ctx.VPSRLD(U8(n), a, dst) }
func (v avx) ShlBytes(dst, a reg.VecPhysical, n int)        { v.ctx.VPSLLDQ(U8(n), a, dst) }
func (v avx) ShrBytes(dst, a reg.VecPhysical, n int)        { v.ctx.VPSRLDQ(U8(n), a, dst) }
func (v avx) Align(dst, hi, lo reg.VecPhysical, n int)      { v.ctx.VPALIGNR(U8(n), lo, hi, dst) }
func (v avx) Shuffle32(dst, a reg.VecPhysical, order uint8) { v.ctx.VPSHUFD(U8(order), a, dst) }
func (v avx) UnpackLo64(dst, a, b reg.VecPhysical)          { v.ctx.VPUNPCKLQDQ(b, a, dst) }
func (v avx) Sra32(dst, a reg.VecPhysical, n int)           { v.ctx.VPSRAD(U8(n), a, dst) }
func (v avx) AndMem(dst, a reg.VecPhysical, m Mem)          { v.ctx.VPAND(m, a, dst) }
func (v avx) AndNotMem(dst, a reg.VecPhysical, m Mem)       { v.ctx.VPANDN(m, a, dst) }
