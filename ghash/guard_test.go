//go:build linux || darwin

package ghash

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/simdhash/simdhash/internal/guardpage"
)

// TestGuardPage feeds every kernel inputs that end exactly at an unmapped
// page, and inputs that start exactly after one, for every length 0..300,
// through Hash.Write and through the raw update. A kernel that reads past
// either end of its input crashes the test; the results are checked too.
func TestGuardPage(t *testing.T) {
	mem := guardpage.Page(t)
	page := len(mem)
	forEachKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(20, 21))
		for n := 0; n <= 300; n++ {
			h, y0 := randKey(r), randKey(r)
			d := randBytes(r, n)
			wantRaw := refUpdate(t, h, y0, d)
			wantPad := refGHASH(t, h, zeroPad(d))
			var ek expandedKey
			active.expand(&ek, &h)
			for _, p := range [][]byte{mem[page-n:], mem[:n]} {
				copy(p, d)
				y := y0
				active.update(&y, &ek, p)
				if y != wantRaw {
					t.Fatalf("update, len %d: y = %x, want %x", n, y, wantRaw)
				}
				g := New(&h)
				g.Write(p)
				if got := g.Sum(nil); !bytes.Equal(got, wantPad[:]) {
					t.Fatalf("Hash, len %d: %x, want %x", n, got, wantPad)
				}
			}
		}
	})
}
