//go:build (arm || arm64) && !purego

package ghash

import (
	"encoding/binary"
	"math/bits"
)

// What the arm64 and 32-bit arm kernels share: gen/ghash_neon writes both
// from one description, with the same expanded key layouts, so the Go side
// (key expansion, dispatch) is the same too. kernel_arm64.go and
// kernel_arm.go declare the assembly and test the CPU features.

// asmKeyWords is the size of expandedKey.asm: the larger of the two
// layouts below (pmull 24 words, neon 30).
const asmKeyWords = 30

// The layouts hold H^1..H^maxBlocks and depend on nothing else, whatever
// the generator's knobs (blocks per reduction) were.
const (
	pmullMaxBlocks = 8 // gen/ghash_neon: pmullMaxBlocks
	neonMaxBlocks  = 2 // gen/ghash_neon: neonMaxBlocks
	neonRotations  = 5 // gen/ghash_neon: keyRotations (B_0..B_4)
)

// poly is an element of GF(2^128) in the kernels' order: bit j of
// poly[j/64] is the coefficient of x^j. It is SP 800-38D's block with the
// bits of each byte reversed, read as two little-endian words.
type poly [2]uint64

// toPoly converts a block to the kernels' order. Reverse64 then
// ReverseBytes64 reverses the bits within each byte: math/bits computes
// both with shifts and masks (RBIT and REV on arm64), where Reverse8 would
// be a 256-byte table indexed by the key on 32-bit arm.
func toPoly(b *[16]byte) poly {
	return poly{
		bits.ReverseBytes64(bits.Reverse64(binary.LittleEndian.Uint64(b[0:8]))),
		bits.ReverseBytes64(bits.Reverse64(binary.LittleEndian.Uint64(b[8:16]))),
	}
}

// armLayout is one kernel's key layout (gen/ghash_neon's keyLayout): the
// operands H^max .. H^1 in slots 0..max-1, then max/2 slots of Karatsuba
// sums h0+h1, paired as [H^max, H^(max-1)], ..., [H^2, H^1]. Each slot is
// rotations vectors of two 64-bit halves: the slot's halves as they are
// (pmull, rotations 1), or rotated right by r = 0..4 bytes each on its own
// (neon, rotations 5).
type armLayout struct {
	max, rotations int
}

// setHalf writes 64-bit half h (0 low, 1 high) of slot s.
func (l armLayout) setHalf(k *expandedKey, s, h int, v uint64) {
	w := 2*l.rotations*s + h
	k.asm[w] = v
	for r := 1; r < l.rotations; r++ {
		k.asm[w+2*r] = bits.RotateLeft64(v, -8*r)
	}
}

// setPower writes H^i = p and its Karatsuba sum into their slots.
func (l armLayout) setPower(k *expandedKey, i int, p poly) {
	s := l.max - i
	l.setHalf(k, s, 0, p[0])
	l.setHalf(k, s, 1, p[1])
	l.setHalf(k, l.max+s/2, s%2, p[0]^p[1])
}

// expandARM writes H^1..H^powers (at most l.max) into the layout, and
// nothing else. It computes each power with the kernel's own multiply: an
// update of one block X with y = 0 is X·H, and uses only H^1 of the key
// (powersFor), so once H^1 is written, updating with H^(i-1) gives H^i.
func expandARM(k *kernel, l armLayout, ek *expandedKey, h *[16]byte, powers int) {
	l.setPower(ek, 1, toPoly(h))
	var pows [pmullMaxBlocks][16]byte // H^2..H^max, in SP 800-38D's order
	prev := h[:]
	for i := 2; i <= min(powers, l.max); i++ {
		y := &pows[i-2]
		updateWith(k, y, ek, prev)
		l.setPower(ek, i, toPoly(y))
		prev = y[:]
	}
}

// expandWith fills ek from H with kernel k's expansion, with at least the
// powers H^1..H^powers.
func expandWith(k *kernel, ek *expandedKey, h *[16]byte, powers int) {
	switch k.id {
	case kernelPMULL:
		expandARM(k, armLayout{max: pmullMaxBlocks, rotations: 1}, ek, h, powers)
	case kernelNEON:
		expandARM(k, armLayout{max: neonMaxBlocks, rotations: neonRotations}, ek, h, powers)
	case kernelGeneric:
		expandGeneric(ek, h)
	default:
		noCase(k)
	}
}

// updateWith absorbs the whole blocks of p into y with kernel k.
func updateWith(k *kernel, y *[16]byte, ek *expandedKey, p []byte) {
	switch k.id {
	case kernelPMULL:
		ghashPMULL(y, &ek.asm, p)
	case kernelNEON:
		ghashNEON(y, &ek.asm, p)
	case kernelGeneric:
		updateGeneric(y, ek, p)
	default:
		noCase(k)
	}
}
