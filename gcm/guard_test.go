//go:build linux || darwin

package gcm

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"

	"github.com/simdhash/simdhash/internal/guardpage"
)

// TestGuardPages seals and opens with every input and the output each
// ending exactly at an unmapped page, and then each starting exactly after
// one: the nonce, the plaintext, the ciphertext with its tag, the
// additional data, and the output, whose capacity is exactly what it
// needs. A read or write outside any of them crashes the test; the
// results are checked too. Lengths 0..300 and a few longer (under -short,
// fewer).
func TestGuardPages(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	var ls []int
	for n := 0; n <= 300; n++ {
		if !testing.Short() || n <= 40 || n%13 == 0 {
			ls = append(ls, n)
		}
	}
	ls = append(ls, 1000, 2049)
	pages := [5][]byte{}
	for i := range pages {
		pages[i] = guardpage.Page(t)
	}
	page := len(pages[0])
	// at returns n bytes of p at its end or at its start, holding data.
	at := func(p []byte, end bool, data []byte) []byte {
		n := len(data)
		var s []byte
		if end {
			s = p[page-n:]
		} else {
			s = p[:n:n]
		}
		copy(s, data)
		return s
	}
	for _, ns := range []int{12, 13} {
		for _, ts := range []int{12, 16} {
			g := ours(t, randBytes(r, 16), ns, ts)
			for _, n := range ls {
				nonce, pt, ad := randBytes(r, ns), randBytes(r, n), randBytes(r, n%40)
				want := g.Seal(nil, nonce, pt, ad)
				for _, end := range []bool{true, false} {
					what := fmt.Sprintf("nonce %d, tag %d, plaintext %d, at the %s of a page", ns, ts, n, map[bool]string{true: "end", false: "start"}[end])
					gn, gpt, gad := at(pages[0], end, nonce), at(pages[1], end, pt), at(pages[2], end, ad)
					out := at(pages[3], end, make([]byte, n+ts))[:0]
					if got := g.Seal(out, gn, gpt, gad); !bytes.Equal(got, want) {
						t.Fatalf("%s: Seal = %x, want %x", what, got, want)
					}
					gct := at(pages[4], end, want)
					out = at(pages[3], end, make([]byte, n))[:0]
					if got, err := g.Open(out, gn, gct, gad); err != nil || !bytes.Equal(got, pt) {
						t.Fatalf("%s: Open = %x, %v; want %x", what, got, err, pt)
					}
					// In place, the plaintext at the page's edge with
					// room for the tag and no more.
					in := at(pages[1], end, append(bytes.Clone(pt), make([]byte, ts)...))[:n]
					if got := g.Seal(in[:0], gn, in, gad); !bytes.Equal(got, want) {
						t.Fatalf("%s: Seal in place = %x, want %x", what, got, want)
					}
					if got, err := g.Open(in[:0], gn, in[:n+ts], gad); err != nil || !bytes.Equal(got, pt) {
						t.Fatalf("%s: Open in place = %x, %v; want %x", what, got, err, pt)
					}
				}
			}
		}
	}
}

// TestHugeMessages gives Seal a plaintext one byte longer than GCM allows
// (2^32-2 blocks, 64 GiB) and Open a ciphertext one byte longer than the
// longest it can open, both in memory that faults on any access: a
// mapping of address space alone, with no access allowed. Seal must
// panic, naming the limit, and Open return an error, both before reading
// a byte. On 64-bit Unix, where the address space allows it.
func TestHugeMessages(t *testing.T) {
	limit, ok := maxPlaintextInt()
	if !ok {
		t.Skip("int is too small for a plaintext over GCM's limit")
	}
	const tagSize = 16
	size := limit + tagSize + 1
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_NONE, syscall.MAP_ANON|syscall.MAP_PRIVATE|mapNoReserve)
	if err != nil {
		t.Skipf("mmap of %d bytes of address space: %v", size, err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	g := ours(t, make([]byte, 16), stdNonceSize, tagSize)
	nonce := make([]byte, stdNonceSize)
	if got := panicOf(func() { g.Seal(nil, nonce, mem[:limit+1], nil) }); got != msgTooLong {
		t.Errorf("Seal of 2^32-2 blocks and a byte: panic %q, want %q", got, msgTooLong)
	}
	if got, err := g.Open(nil, nonce, mem[:limit+tagSize+1], nil); err == nil || got != nil {
		t.Errorf("Open of 2^32-2 blocks, a byte and a tag = %v bytes, %v; want an error", len(got), err)
	}
}
