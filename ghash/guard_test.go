//go:build linux || darwin

package ghash

import (
	"bytes"
	"testing"

	"github.com/simdhash/simdhash/internal/guardpage"
	"github.com/simdhash/simdhash/internal/ref"
)

// TestGuardPage feeds every kernel inputs that end exactly at an unmapped
// page, and inputs that start exactly after one, for every length 0..1100
// (with -short, 0..shortLen: past two groups of the kernel's widest loop,
// and every tail), through Hash.Write, the raw update, Key.SumGCM and
// SumGCM. A kernel that reads past either end of its input crashes the
// test; the results are checked too.
func TestGuardPage(t *testing.T) {
	mem := guardpage.Page(t)
	page := len(mem)
	const full, floor = 1100, 300
	cases := refCases(t, 20, full, floor, true)
	forEachKernel(t, func(t *testing.T) {
		for n, c := range cases[:testLen(active, full, floor)+1] {
			key := NewKey(c.h)
			for _, p := range [][]byte{mem[page-n:], mem[:n]} {
				copy(p, c.d)
				y := c.y0
				updateWith(active, &y, &key.ek, p)
				if y != c.raw {
					t.Fatalf("update, len %d: y = %x, want %x", n, y, c.raw)
				}
				if got := hashOf(&key, p); !bytes.Equal(got, c.padded[:]) {
					t.Fatalf("Hash, len %d: %x, want %x", n, got, c.padded)
				}
			}
			// GCM's GHASH with A ending at the guard page and C starting
			// after the other one, through a Key and in one shot.
			a, cc := mem[page-n:], mem[:n/2]
			copy(a, c.d)
			copy(cc, c.d[:n/2])
			if got := key.SumGCM(a, cc); got != c.gcm {
				t.Fatalf("Key.SumGCM, len %d+%d: %x, want %x", n, n/2, got, c.gcm)
			}
			if got := SumGCM(c.h, a, cc); got != c.gcm {
				t.Fatalf("SumGCM, len %d+%d: %x, want %x", n, n/2, got, c.gcm)
			}
			// And with C ending at the guard page (the amd64 kernels read
			// C's partial block at its end) and A starting after the
			// other one.
			a, cc = mem[:n/2], mem[page-n:]
			copy(a, c.d[:n/2])
			copy(cc, c.d)
			if got, want := key.SumGCM(a, cc), ref.GCMGHASH(c.h, c.d[:n/2], c.d); got != want {
				t.Fatalf("Key.SumGCM, len %d+%d, C at the guard page: %x, want %x", n/2, n, got, want)
			}
		}
	})
}
