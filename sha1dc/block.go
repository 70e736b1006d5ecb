package sha1dc

import "math/bits"

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
