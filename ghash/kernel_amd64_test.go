//go:build amd64 && !purego

package ghash

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
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

// TestPCLMULPaths checks each way the amd64 kernels absorb blocks against
// the generic kernel: one block at a time with H alone (the powers not
// computed yet), the main loop of eight blocks, and the rest with the
// powers ready, for every block count up to 40 and a run of keys.
func TestPCLMULPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(0x9c1, 0xa7d))
	data := make([]byte, 41*BlockSize)
	for _, k := range amd64Kernels(t) {
		t.Run(k.name, func(t *testing.T) {
			if !k.available {
				t.Skipf("kernel %q not available", k.name)
			}
			for trial := 0; trial < 20; trial++ {
				var h, y0 [16]byte
				amd64Fill(rng, h[:])
				amd64Fill(rng, y0[:])
				amd64Fill(rng, data)
				if trial == 0 {
					h = [16]byte{0: 0x80} // H = 1: x^0 alone, the identity
				}
				var gk expandedKey
				expandGeneric(&gk, &h)
				for n := 0; n <= 40; n++ {
					p := data[:n*BlockSize+trial%BlockSize] // and a partial block it must ignore
					want := y0
					updateGeneric(&want, &gk, p)

					var fresh expandedKey
					k.expand(&fresh, &h)
					if n < pclmulMaxBlocks {
						got := y0
						k.update(&got, &fresh, p)
						if fresh.asm[readyWord] != 0 {
							t.Fatalf("%d blocks: the powers were computed for fewer than %d blocks", n, pclmulMaxBlocks)
						}
						if got != want {
							t.Fatalf("trial %d, %d blocks, H alone: got %x, want %x", trial, n, got, want)
						}
					}

					var ready expandedKey
					k.expand(&ready, &h)
					keyReady(&ready, data[:pclmulMaxBlocks*BlockSize])
					if ready.asm[readyWord] == 0 {
						t.Fatal("keyReady did not compute the powers")
					}
					got := y0
					k.update(&got, &ready, p)
					if got != want {
						t.Fatalf("trial %d, %d blocks, powers ready: got %x, want %x", trial, n, got, want)
					}
				}
			}
		})
	}
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
		amd64Fill(rng, h[:])
		var k expandedKey
		expandPCLMUL(&k, &h)
		keyReady(&k, make([]byte, pclmulMaxBlocks*BlockSize))

		// The generic kernel with y = 0 and one block X gives X·H.
		var gk expandedKey
		expandGeneric(&gk, &h)
		pow := h // H^1
		for i := 1; i <= pclmulMaxBlocks; i++ {
			var want expandedKey
			expandPCLMUL(&want, &pow)
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

// amd64Fill fills b with bytes from rng.
func amd64Fill(rng *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
}

// BenchmarkUpdate measures a kernel's update alone on a key expanded
// beforehand, with the powers computed: what `openssl speed ghash`
// measures (a GMAC update on a key set once), unlike BenchmarkGHASH, whose
// Sum expands the key and absorbs the length block on every call.
func BenchmarkUpdate(b *testing.B) {
	key := [16]byte{0x66, 0xe9, 0x4b, 0xd4, 0xef, 0x8a, 0x2c, 0x3b, 0x88, 0x4c, 0xfa, 0x59, 0xca, 0x34, 0x2b, 0x2e}
	data := bytes.Repeat([]byte{0x5a}, 8192)
	for _, k := range amd64Kernels(b) {
		b.Run(k.name, func(b *testing.B) {
			if !k.available {
				b.Skipf("kernel %q not available", k.name)
			}
			var ek expandedKey
			k.expand(&ek, &key)
			keyReady(&ek, data)
			for _, n := range []int{16, 64, 1024, 8192} {
				b.Run(strconv.Itoa(n), func(b *testing.B) {
					b.SetBytes(int64(n))
					var y [16]byte
					for b.Loop() {
						k.update(&y, &ek, data[:n])
					}
					benchSink = y
				})
			}
		})
	}
}
