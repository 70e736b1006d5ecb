//go:build amd64 && !purego

package sha1dc

import (
	"testing"

	"golang.org/x/sys/cpu"
)

// The avx2 pair kernel on its own, below avx2MinBytes too (where the
// dispatch hands the blocks to avx): every length of 0 to 40 blocks, odd
// and even, with blocks reaching each DV at every position of a pair.
func TestAVX2PairKernel(t *testing.T) {
	if !cpu.X86.HasAVX2 || !cpu.X86.HasBMI1 || !cpu.X86.HasBMI2 {
		t.Skip("no AVX2, BMI1 and BMI2")
	}
	rng := newRand(t)
	for blocks := 0; blocks <= 40; blocks++ {
		for trial := range 8 {
			p := randomBytes(rng, blocks*BlockSize+rng.IntN(BlockSize))
			if blocks > 0 && trial > 0 {
				at := rng.IntN(blocks)
				copy(p[at*BlockSize:], reachBlock(t, rng.IntN(len(ubcReachBlocks)), trial%len(ubcReachBlocks[0])))
			}
			h := initState
			want := h
			wn, wm := refCheck(&want, p)
			n, m := checkAVX2(&h, p)
			if n != wn || m != wm || h != want {
				t.Fatalf("%d blocks: n %d, mask %#08x, h %08x; want %d, %#08x, %08x", blocks, n, m, h, wn, wm, want)
			}
		}
	}
}
