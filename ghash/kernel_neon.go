//go:build (arm || arm64) && !purego

package ghash

import (
	"encoding/binary"
	"math/bits"
)

// What the arm64 and 32-bit arm kernels share: gen/ghash_neon writes both
// from one description, with the same expanded key layouts, so the Go side
// (key expansion, wrappers, dispatch) is the same too. kernel_arm64.go and
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

func updatePMULL(y *[16]byte, k *expandedKey, p []byte) { ghashPMULL(y, &k.asm, p) }

func updateNEON(y *[16]byte, k *expandedKey, p []byte) { ghashNEON(y, &k.asm, p) }

// poly is an element of GF(2^128) in the kernels' order: bit j of
// poly[j/64] is the coefficient of x^j. It is SP 800-38D's block with the
// bits of each byte reversed, read as two little-endian words.
type poly [2]uint64

func toPoly(b *[16]byte) poly {
	var r [16]byte
	for i, c := range b {
		r[i] = bits.Reverse8(c)
	}
	return poly{binary.LittleEndian.Uint64(r[0:8]), binary.LittleEndian.Uint64(r[8:16])}
}

// keyOperands fills ops with the layout both kernels share, as pairs of
// 64-bit halves (doubleword 0, doubleword 1), before each kernel's own
// form: H^max .. H^1, then the Karatsuba sums h0+h1 paired as
// [H^max, H^(max-1)], ..., [H^2, H^1]. It returns the number of operands,
// max + max/2. (Fixed-size arrays: expand must not allocate.)
func keyOperands(ops *[pmullMaxBlocks * 3 / 2]poly, h *[16]byte, maxBlocks int) int {
	// The powers, with the generic kernel's constant-time multiply: one
	// block X absorbed into y = 0 gives X·H, so H^i gives H^(i+1).
	var gk expandedKey
	expandGeneric(&gk, h)
	var ps [pmullMaxBlocks]poly // ps[i] = H^(i+1)
	pow := *h
	ps[0] = toPoly(&pow)
	for i := 1; i < maxBlocks; i++ {
		var y [16]byte
		updateGeneric(&y, &gk, pow[:])
		pow = y
		ps[i] = toPoly(&pow)
	}
	n := 0
	for p := maxBlocks; p >= 1; p-- {
		ops[n] = ps[p-1]
		n++
	}
	for p := maxBlocks; p >= 2; p -= 2 {
		a, b := ps[p-1], ps[p-2]
		ops[n] = poly{a[0] ^ a[1], b[0] ^ b[1]}
		n++
	}
	return n
}

// expandPMULL writes the powers H^8..H^1 and their Karatsuba sums, one
// 16-byte vector per operand.
func expandPMULL(k *expandedKey, h *[16]byte) {
	var ops [pmullMaxBlocks * 3 / 2]poly
	n := keyOperands(&ops, h, pmullMaxBlocks)
	k.asm = [asmKeyWords]uint64{}
	for i, op := range ops[:n] {
		k.asm[2*i], k.asm[2*i+1] = op[0], op[1]
	}
}

// expandNEON writes H^2, H^1 and their Karatsuba sums, each operand as
// five vectors B_0..B_4: both halves rotated right by r bytes on their own
// (byte i of B_r is byte i+r mod 8 of the half), so that the loop does not
// rotate the key.
func expandNEON(k *expandedKey, h *[16]byte) {
	var ops [pmullMaxBlocks * 3 / 2]poly
	n := keyOperands(&ops, h, neonMaxBlocks)
	k.asm = [asmKeyWords]uint64{}
	w := 0
	for _, op := range ops[:n] {
		for r := 0; r < neonRotations; r++ {
			k.asm[w] = bits.RotateLeft64(op[0], -8*r)
			k.asm[w+1] = bits.RotateLeft64(op[1], -8*r)
			w += 2
		}
	}
}

// expandWith fills ek from H with kernel k's expansion.
func expandWith(k *kernel, ek *expandedKey, h *[16]byte) {
	switch k.id {
	case kernelPMULL:
		expandPMULL(ek, h)
	case kernelNEON:
		expandNEON(ek, h)
	default:
		expandGeneric(ek, h)
	}
}

// updateWith absorbs the whole blocks of p into y with kernel k.
func updateWith(k *kernel, y *[16]byte, ek *expandedKey, p []byte) {
	switch k.id {
	case kernelPMULL:
		updatePMULL(y, ek, p)
	case kernelNEON:
		updateNEON(y, ek, p)
	default:
		updateGeneric(y, ek, p)
	}
}
