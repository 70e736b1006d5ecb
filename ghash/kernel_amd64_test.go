//go:build amd64 && !purego

package ghash

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// amd64Kernels returns the registry's amd64 kernels (all but generic).
func amd64Kernels(t testing.TB) []*kernel {
	var ks []*kernel
	for i := range kernels[:len(kernels)-1] {
		ks = append(ks, &kernels[i])
	}
	if len(ks) == 0 {
		t.Fatal("no amd64 kernel registered")
	}
	return ks
}

// TestPCLMULPowers checks the key layout ghashPowers writes: H^i as the
// twisted powers that expandPCLMUL makes of H^i itself, and the Karatsuba
// sums.
func TestPCLMULPowers(t *testing.T) {
	usable := false
	for _, k := range amd64Kernels(t) {
		usable = usable || k.available // each one's flag covers ghashPowers
	}
	if !usable {
		t.Skip("no amd64 kernel available: ghashPowers would use instructions the CPU lacks")
	}
	rng := rand.New(rand.NewPCG(0x9c2, 0xa7e))
	for trial := 0; trial < 50; trial++ {
		var h [16]byte
		copy(h[:], randBytes(rng, 16))
		var k expandedKey
		expandPCLMUL(&k, &h, pclmulMaxBlocks)

		// The generic kernel with y = 0 and one block X gives X·H.
		var gk expandedKey
		expandGeneric(&gk, &h)
		pow := h // H^1
		for i := 1; i <= pclmulMaxBlocks; i++ {
			var want expandedKey
			expandPCLMUL(&want, &pow, 1)
			lo, hi := k.asm[2*(i-1)], k.asm[2*(i-1)+1]
			if lo != want.asm[0] || hi != want.asm[1] {
				t.Fatalf("H^%d = %016x%016x, want %016x%016x", i, hi, lo, want.asm[1], want.asm[0])
			}
			if s := k.asm[sumsWord+i-1]; s != lo^hi {
				t.Fatalf("Karatsuba sum of H^%d = %016x, want %016x", i, s, lo^hi)
			}
			next := [16]byte{}
			updateGeneric(&next, &gk, pow[:])
			pow = next
		}
	}
}

// TestPCLMULKeySize checks that the generated kernels were generated for
// this package's key layout: their signatures name the key's size, which
// gen/ghash_pclmul computes from the same layout as the constants here.
func TestPCLMULKeySize(t *testing.T) {
	src, err := os.ReadFile("ghash_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range []string{"ghashPCLMUL(", "ghashPCLMULAVX(", "ghashPowers("} {
		want := fmt.Sprintf("key *[%d]uint64", asmKeyWords)
		found := false
		for line := range strings.Lines(string(src)) {
			if strings.HasPrefix(line, "// func "+fn) {
				found = true
				if !strings.Contains(line, want) {
					t.Errorf("ghash_amd64.s: %q, want %s", strings.TrimSpace(line), want)
				}
			}
		}
		if !found {
			t.Errorf("ghash_amd64.s has no %s...)", fn)
		}
	}
}
