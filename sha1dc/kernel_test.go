package sha1dc

import (
	"encoding/hex"
	"testing"
)

// refCheck is what a checking kernel must do, from the portable code:
// absorb the blocks of p into h up to the first whose mask is not zero,
// and return the blocks absorbed and that mask, h left before it.
func refCheck(h *[5]uint32, p []byte) (n, mask uint32) {
	var w [80]uint32
	var s [len(testSteps)][5]uint32
	for ; len(p) >= BlockSize; p = p[BlockSize:] {
		g := *h
		compressW(&g, (*[BlockSize]byte)(p), &w, &s)
		if m := ubcCheck(&w); m != 0 {
			return n, m
		}
		*h = g
		n++
	}
	return n, 0
}

// reachBlock returns ubcReachBlocks[d][i].
func reachBlock(t testing.TB, d, i int) []byte {
	b, err := hex.DecodeString(ubcReachBlocks[d][i])
	if err != nil || len(b) != BlockSize {
		t.Fatalf("ubcReachBlocks[%d][%d]: %v", d, i, err)
	}
	return b
}

// Every checking kernel stops where the portable check says, with its mask
// and the chaining value before the flagged block: on blocks made to reach
// each DV (ubcReachBlocks) at every position among random blocks, from
// random states; on blocks that meet all of a DV's conditions but one, for
// every term (ubcBreakBlocks: a kernel that evaluated a term wrongly, or
// not at all, would keep the DV there); and on random messages of up to
// 40 blocks and the collision files (whose near-collision blocks are
// flagged).
func TestKernelMasks(t *testing.T) {
	rng := newRand(t)
	try := func(t *testing.T, k *kernel, what string, p []byte) {
		t.Helper()
		h := [5]uint32{rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32()}
		if rng.IntN(2) == 0 {
			h = initState
		}
		want := h
		wn, wm := refCheck(&want, p)
		got := h
		n, m := k.check(&got, p)
		if n != wn || m != wm || got != want {
			t.Fatalf("%s (%d bytes): n %d, mask %#08x, h %08x; want %d, %#08x, %08x", what, len(p), n, m, got, wn, wm, want)
		}
	}
	files := [][]byte{collisionFile(t, "shattered-1.pdf")[:8192], collisionFile(t, "sha-mbles-1.bin")}
	for i := range kernels {
		k := &kernels[i]
		if k.check == nil {
			continue
		}
		t.Run(k.name, func(t *testing.T) {
			if !k.available {
				t.Skipf("kernel %q not available on this CPU", k.name)
			}
			for d := range ubcReachBlocks {
				for i := range ubcReachBlocks[d] {
					blk := reachBlock(t, d, i)
					for at := 0; at < 5; at++ {
						p := randomBytes(rng, (at+1+rng.IntN(3))*BlockSize+rng.IntN(BlockSize))
						copy(p[at*BlockSize:], blk)
						try(t, k, dvTableName(d), p)
					}
				}
			}
			for j, e := range ubcBreakBlocks {
				blk, err := hex.DecodeString(e.block)
				if err != nil || len(blk) != BlockSize {
					t.Fatalf("ubcBreakBlocks[%d]: %v", j, err)
				}
				at := j % 4
				p := randomBytes(rng, (at+1+rng.IntN(2))*BlockSize)
				copy(p[at*BlockSize:], blk)
				try(t, k, "a block meeting all but one term of a DV", p)
			}
			for range 200 {
				try(t, k, "random", randomBytes(rng, rng.IntN(40*BlockSize)))
			}
			for _, f := range files {
				for off := 0; off < len(f); {
					// Run on from where the last call stopped, as block does.
					h := initState
					n, m := k.check(&h, f[off:])
					want := initState
					wn, wm := refCheck(&want, f[off:])
					if n != wn || m != wm {
						t.Fatalf("collision file at %d: n %d, mask %#08x; want %d, %#08x", off, n, m, wn, wm)
					}
					if m == 0 {
						break
					}
					off += (int(n) + 1) * BlockSize
				}
			}
		})
	}
}

// dvTableName names DV d, as the generated constants do.
func dvTableName(d int) string {
	return "the blocks reaching DV " + string(rune('0'+d/10)) + string(rune('0'+d%10))
}
