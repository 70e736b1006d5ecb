//go:build linux || darwin

package sha1

import (
	"testing"

	"github.com/simdhash/simdhash/internal/ref"

	"github.com/simdhash/simdhash/internal/guardpage"
)

// TestGuardPage places every input of length 0..300 so that it ends exactly
// at an inaccessible page, and hashes it with Sum and with the raw block
// function. A kernel that reads even one byte past the end of its input
// crashes here instead of silently passing.
func TestGuardPage(t *testing.T) {
	page := guardpage.Page(t)
	rng := newRand(t)
	copy(page, randomBytes(rng, len(page)))
	const maxLen = 300
	if len(page) < maxLen {
		t.Fatalf("page size %d too small", len(page))
	}
	forEachKernel(t, func(t *testing.T) {
		for n := 0; n <= maxLen; n++ {
			p := page[len(page)-n:]
			if got, want := Sum(p), ref.SHA1(p); got != want {
				t.Fatalf("len %d: Sum = %x, want %x", n, got, want)
			}
			h := New()
			h.Write(p)
			if got, want := h.Sum(nil), ref.SHA1(p); string(got) != string(want[:]) {
				t.Fatalf("len %d: New/Write/Sum = %x, want %x", n, got, want)
			}

			// The block function on the whole blocks that end at the guard,
			// and on the unaligned tail of a partial block ending there.
			whole := n &^ (BlockSize - 1)
			var h1, h2 [5]uint32
			for i := range h1 {
				h1[i] = rng.Uint32()
			}
			h2 = h1
			active.block(&h1, page[len(page)-whole:])
			ref.SHA1Blocks(&h2, page[len(page)-whole:])
			if h1 != h2 {
				t.Fatalf("whole blocks, len %d: state %08x, want %08x", whole, h1, h2)
			}
			h2 = h1
			active.block(&h1, p)
			ref.SHA1Blocks(&h2, p)
			if h1 != h2 {
				t.Fatalf("len %d: state %08x, want %08x", n, h1, h2)
			}
		}
	})
}
