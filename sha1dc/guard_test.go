//go:build linux || darwin

package sha1dc

import (
	"os"
	"testing"

	"github.com/simdhash/simdhash/internal/guardpage"
	"github.com/simdhash/simdhash/internal/ref"
)

// TestGuardPage places every input of length 0..300, and the Shambles
// collision (640 bytes) with and without data after it, so that it ends
// exactly at an inaccessible page or starts right after one, and hashes it
// with Sum, New and the raw block function; then SumMany on a batch of
// messages each between guard pages of its own. A kernel that reads one
// byte outside its input crashes here instead of silently passing.
func TestGuardPage(t *testing.T) {
	page := guardpage.Page(t)
	rng := newRand(t)
	copy(page, randomBytes(rng, len(page)))
	shambles := collisionFile(t, "sha-mbles-1.bin")
	wantCol, _ := Sum(shambles)
	forEachKernel(t, func(t *testing.T) {
		check := func(p []byte) {
			want := ref.SHA1(p)
			col := false
			if string(p) == string(shambles) {
				want, col = wantCol, true
			}
			if got, c := Sum(p); got != want || c != col {
				t.Fatalf("len %d: Sum = %x %v, want %x %v", len(p), got, c, want, col)
			}
			h := New().(CollisionResistantHash)
			h.Write(p)
			if got, c := h.CollisionResistantSum(nil); string(got) != string(want[:]) || c != col {
				t.Fatalf("len %d: New/Write/Sum = %x %v, want %x %v", len(p), got, c, want, col)
			}
			whole := len(p) &^ (BlockSize - 1)
			h1 := initState
			active.block(&h1, p[:whole])
			h2 := initState
			active.block(&h2, p)
			if h1 != h2 {
				t.Fatalf("len %d: the block function read the partial block", len(p))
			}
		}
		for n := 0; n <= 300; n++ {
			check(page[len(page)-n:])
			check(page[:n])
		}
		copy(page[len(page)-len(shambles):], shambles)
		check(page[len(page)-len(shambles):])
		copy(page, shambles)
		check(page[:len(shambles)])
	})
}

// TestSumManyGuardPages puts every message of a batch (lengths 0..200, some
// of several KiB, and the Shambles collision) between two inaccessible
// pages, at the start or the end of its mapping, and checks SumMany with
// each multi-lane kernel (and single).
func TestSumManyGuardPages(t *testing.T) {
	rng := newRand(t)
	size := os.Getpagesize()
	shambles := collisionFile(t, "sha-mbles-2.bin")
	var lens []int
	for n := 0; n <= 200; n += 1 + rng.IntN(3) {
		lens = append(lens, n)
	}
	for range 10 {
		lens = append(lens, rng.IntN(3*size))
	}
	var msgs [][]byte
	for i, n := range lens {
		mem := guardpage.Pages(t, (n+size-1)/size+1)
		copy(mem, randomBytes(rng, len(mem)))
		if i%2 == 0 {
			msgs = append(msgs, mem[:n])
		} else {
			msgs = append(msgs, mem[len(mem)-n:])
		}
	}
	mem := guardpage.Page(t)
	msgs = append(msgs, mem[len(mem)-len(shambles):])
	copy(msgs[len(msgs)-1], shambles)
	for i := range manyKernels {
		k := &manyKernels[i]
		t.Run(k.name, func(t *testing.T) {
			if !k.available {
				t.Skipf("kernel %q not available on this CPU", k.name)
			}
			sums := make([][Size]byte, len(msgs))
			detected := make([]bool, len(msgs))
			sumMany(sums, detected, msgs, k)
			for i, m := range msgs {
				if s, c := Sum(m); sums[i] != s || detected[i] != c {
					t.Fatalf("message %d (%d bytes): SumMany %x %v, Sum %x %v", i, len(m), sums[i], detected[i], s, c)
				}
			}
			if !detected[len(msgs)-1] {
				t.Fatal("the Shambles message between guard pages: no collision detected")
			}
		})
	}
}
