package sha1dc

import (
	"math/bits"

	"github.com/simdhash/simdhash/internal/sha1round"
)

// blockGeneric absorbs the len(p)/BlockSize whole blocks of p into h, with
// collision detection, and reads nothing else. It reports whether any block
// was half of a collision; each such block was absorbed three times (the
// safe hash), the first one as usual and two more from the state it left.
//
// compressW keeps W and the states the recompression starts from as it
// goes, so a block is read and expanded once; the check reads W back from
// the stack, and only a block with a surviving DV is recompressed.
func blockGeneric(h *[5]uint32, p []byte) bool {
	var w [80]uint32
	var s [len(testSteps)][5]uint32
	col := false
	for len(p) >= BlockSize {
		q := (*[BlockSize]byte)(p)
		compressW(h, q, &w, &s)
		if m := ubcCheck(&w); m != 0 && nearCollision(m, &w, &s, h) {
			col = true
			compressW(h, q, &w, &s)
			compressW(h, q, &w, &s)
		}
		p = p[BlockSize:]
	}
	return col
}

// nearCollision reports whether the block whose expanded message is w, whose
// states before the steps of testSteps are s and which left the chaining
// value h, is half of a collision along one of the DVs of mask: whether
// recompressing it with the DV's message difference, forwards and backwards
// from the state before the DV's test step, gives the same chaining value.
// It is called for a non-zero mask only, which is rare.
func nearCollision(mask uint32, w *[80]uint32, s *[len(testSteps)][5]uint32, h *[5]uint32) bool {
	for ; mask != 0; mask &= mask - 1 {
		dv := &dvTable[bits.TrailingZeros32(mask)]
		if recompress(dv, w, &s[dv.state]) == *h {
			return true
		}
	}
	return false
}

// recompress returns the chaining value that a block with expanded message
// w XOR dv.dm makes when its working variables entering step dv.testT are
// st: the state before step 0 is found by undoing steps testT-1 down to 0,
// the state after step 79 by running steps testT to 79, and their sum is the
// chaining value.
func recompress(dv *dvInfo, w *[80]uint32, st *[5]uint32) [5]uint32 {
	a, b, c, d, e := st[0], st[1], st[2], st[3], st[4]
	for t := dv.testT - 1; t >= 0; t-- {
		// Step t made (a, b, c, d, e) from (a', b', c', d', e'):
		// a = ROTL5(a') + f(b', c', d') + e' + K + W, b = a',
		// c = ROTL30(b'), d = c', e = d'.
		pa, pb, pc, pd := b, bits.RotateLeft32(c, -30), d, e
		pe := a - (bits.RotateLeft32(pa, 5) + f(t, pb, pc, pd) + k(t) + (w[t] ^ dv.dm[t]))
		a, b, c, d, e = pa, pb, pc, pd, pe
	}
	in := [5]uint32{a, b, c, d, e}
	a, b, c, d, e = st[0], st[1], st[2], st[3], st[4]
	for t := dv.testT; t < 80; t++ {
		n := bits.RotateLeft32(a, 5) + f(t, b, c, d) + e + k(t) + (w[t] ^ dv.dm[t])
		a, b, c, d, e = n, a, bits.RotateLeft32(b, 30), c, d
	}
	return [5]uint32{in[0] + a, in[1] + b, in[2] + c, in[3] + d, in[4] + e}
}

// f is SHA-1's function of step t (FIPS 180-4 section 4.1.1).
func f(t int, b, c, d uint32) uint32 {
	switch {
	case t < 20:
		return b&c | ^b&d
	case t < 40, t >= 60:
		return b ^ c ^ d
	default:
		return b&c | b&d | c&d
	}
}

// k is SHA-1's constant of step t (FIPS 180-4 section 4.2.1).
func k(t int) uint32 {
	return [4]uint32{sha1round.K0, sha1round.K1, sha1round.K2, sha1round.K3}[t/20]
}
