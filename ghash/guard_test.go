//go:build linux || darwin

package ghash

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/simdhash/simdhash/internal/guardpage"
	"github.com/simdhash/simdhash/internal/ref"
)

// TestGuardPage feeds every kernel inputs that end exactly at an unmapped
// page, and inputs that start exactly after one, for every length 0..1100
// (0..300 with -short: past two groups of the widest loop of any kernel,
// and its tails), through Hash.Write, the raw update, Key.SumGCM and
// SumGCM. A kernel that reads past
// either end of its input crashes the test; the results are checked too.
func TestGuardPage(t *testing.T) {
	mem := guardpage.Page(t)
	page := len(mem)
	maxLen := 1100
	if testing.Short() {
		maxLen = 300
	}
	forEachKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(20, 21))
		for n := 0; n <= maxLen; n++ {
			h, y0 := randKey(r), randKey(r)
			d := randBytes(r, n)
			wantRaw := refUpdate(t, h, y0, d)
			wantPad := refGHASH(t, h, zeroPad(d))
			key := NewKey(h)
			for _, p := range [][]byte{mem[page-n:], mem[:n]} {
				copy(p, d)
				y := y0
				updateWith(active, &y, &key.ek, p)
				if y != wantRaw {
					t.Fatalf("update, len %d: y = %x, want %x", n, y, wantRaw)
				}
				if got := hashOf(&key, p); !bytes.Equal(got, wantPad[:]) {
					t.Fatalf("Hash, len %d: %x, want %x", n, got, wantPad)
				}
			}
			// GCM's GHASH with A ending at the guard page and C starting
			// after the other one, through a Key and in one shot.
			a, c := mem[page-n:], mem[:n/2]
			copy(a, d)
			copy(c, d[:n/2])
			want := ref.GCMGHASH(h, d, d[:n/2])
			if got := key.SumGCM(a, c); got != want {
				t.Fatalf("Key.SumGCM, len %d+%d: %x, want %x", n, n/2, got, want)
			}
			if got := SumGCM(h, a, c); got != want {
				t.Fatalf("SumGCM, len %d+%d: %x, want %x", n, n/2, got, want)
			}
		}
	})
}
