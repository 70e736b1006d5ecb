//go:build linux || darwin

package ghash

import (
	"bytes"
	"math/rand/v2"
	"os"
	"syscall"
	"testing"
)

// guardedPage maps three pages, makes the first and the last inaccessible
// and returns the middle one (whose capacity runs on into the last page).
// A read just before or just after it faults.
func guardedPage(t *testing.T) []byte {
	t.Helper()
	page := os.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 3*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[:page], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	if err := syscall.Mprotect(mem[2*page:], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	return mem[page : 2*page]
}

// TestGuardPage feeds every kernel inputs that end exactly at an unmapped
// page, and inputs that start exactly after one, for every length 0..300,
// through Hash.Write and through the raw update. A kernel that reads past
// either end of its input crashes the test; the results are checked too.
func TestGuardPage(t *testing.T) {
	mem := guardedPage(t)
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
