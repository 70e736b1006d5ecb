//go:build linux || darwin

package sha1

import (
	"fmt"
	"os"
	"testing"

	"github.com/simdhash/simdhash/internal/guardpage"
	"github.com/simdhash/simdhash/internal/ref"
)

// TestSumManyGuardPages puts every message of a batch (lengths 0..300 and
// some of several KiB) in a mapping of its own between two inaccessible
// pages, starting right after the first or ending right before the
// second, and hashes the batch with every kernel, then again with each
// message at its other end. A kernel, or a pad, that reads a byte before
// or after a message crashes here.
func TestSumManyGuardPages(t *testing.T) {
	rng := newRand(t)
	page := os.Getpagesize()
	var lens []int
	for n := 0; n <= 300; n++ {
		lens = append(lens, n)
	}
	for i := 0; i < 40; i++ {
		lens = append(lens, rng.IntN(3*page))
	}
	if testing.Short() {
		lens = lens[:len(lens)-30]
	}
	type placed struct{ atStart, atEnd []byte }
	spots := make([]placed, len(lens))
	for i, n := range lens {
		mem := guardpage.Pages(t, (n+page-1)/page+1)
		copy(mem, randomBytes(rng, len(mem)))
		spots[i] = placed{atStart: mem[:n], atEnd: mem[len(mem)-n:]}
	}
	forEachManyKernel(t, func(t *testing.T, k *manyKernel) {
		for _, startFirst := range []bool{true, false} {
			msgs := make([][]byte, len(spots))
			for i, s := range spots {
				if (i%2 == 0) == startFirst {
					msgs[i] = s.atStart
				} else {
					msgs[i] = s.atEnd
				}
			}
			sums := make([][Size]byte, len(msgs))
			sumMany(sums, msgs, k)
			checkSums(t, fmt.Sprintf("guard pages (even messages at the start: %v)", startFirst), sums, msgs)
		}
	})
}

// TestManyBlocksGuardPages calls the multi-lane kernels directly with each
// lane's blocks between two guard pages, starting right after the first
// and ending right before the second.
func TestManyBlocksGuardPages(t *testing.T) {
	rng := newRand(t)
	page := os.Getpagesize()
	const n = 3
	// Two mappings per lane: its blocks start right after a guard page in
	// one and end right before one in the other.
	var starts, ends [maxLanes][]byte
	for l := range starts {
		for _, seg := range []*[maxLanes][]byte{&starts, &ends} {
			mem := guardpage.Pages(t, 1)
			copy(mem, randomBytes(rng, page))
			if seg == &starts {
				seg[l] = mem[:n*BlockSize]
			} else {
				seg[l] = mem[page-n*BlockSize:]
			}
		}
	}
	forEachManyKernel(t, func(t *testing.T, k *manyKernel) {
		if k.lanes == 0 {
			t.Skip("single has no block function")
		}
		// All blocks in the first segment, at its start and at its end;
		// then one block there and two in the second.
		for _, c := range []struct {
			seg0, seg1 [maxLanes][]byte
			rem        int
		}{{starts, ends, 0}, {ends, starts, 0}, {ends, starts, 1}, {starts, ends, 1}} {
			var s manyLanes
			var want [5][maxLanes]uint32
			for l := 0; l < maxLanes; l++ {
				seg0, seg1 := c.seg0[l], c.seg1[l]
				if c.rem > 0 {
					seg0 = seg0[len(seg0)-c.rem*BlockSize:] // ends at the guard page, or not
					seg1 = seg1[:(n-c.rem)*BlockSize]
				}
				laneBlocks(&s, l, seg0, seg1, c.rem, n)
				if l >= k.lanes {
					continue
				}
				var h [5]uint32
				ref.SHA1Blocks(&h, seg0[:min(len(seg0), n*BlockSize)])
				if c.rem > 0 {
					ref.SHA1Blocks(&h, seg1)
				}
				for w := range h {
					want[w][l] = h[w]
				}
			}
			manyBlocks(k, &s, n)
			if s.H != want {
				t.Fatalf("rem %d: got %08x\nwant %08x", c.rem, s.H, want)
			}
		}
	})
}
