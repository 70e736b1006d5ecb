package gcm

import (
	"crypto/aes"
	"crypto/cipher"
	"strconv"
	"testing"

	"github.com/simdhash/simdhash/ghash"
	"github.com/simdhash/simdhash/internal/cycles"
)

// benchSizes are the sizes of the targets.
var benchSizes = []int{64, 1024, 8192}

// benchImpls are the AEADs the benchmarks compare, all AES-128-GCM with
// 12-byte nonces and 16-byte tags under one key:
//
//	ours        this package over AES in a plainBlock (its own code)
//	stdlib      crypto/cipher's GCM over the same plainBlock (its generic code)
//	ours-aes    this package's New over a bare crypto/aes block (crypto/cipher's AES-GCM, delegated)
//	stdlib-aes  cipher.NewGCM over the bare block (its AES-GCM)
var benchImpls = []struct {
	name  string
	plain bool // over a plainBlock
	std   bool // crypto/cipher's constructor
}{{"ours", true, false}, {"stdlib", true, true}, {"ours-aes", false, false}, {"stdlib-aes", false, true}}

var benchKey = []byte("benchmark key 16")

func benchAEAD(b *testing.B, plain, std bool) cipher.AEAD {
	blk, err := aes.NewCipher(benchKey)
	if err != nil {
		b.Fatal(err)
	}
	if plain {
		blk = plainBlock{Block: blk}
	}
	var a cipher.AEAD
	if std {
		a, err = cipher.NewGCM(blk)
	} else {
		a, err = New(blk)
	}
	if err != nil {
		b.Fatal(err)
	}
	return a
}

// benchEach runs f as a sub-benchmark per implementation and size, timed
// also in thread CPU time (cpu-ns/op, internal/cycles), which does not
// count what other processes take of a shared machine. The loops run to
// b.N, as ghash's benchmarks do (b.Loop slowed short ones there).
func benchEach(b *testing.B, sizes []int, f func(b *testing.B, a cipher.AEAD, n int)) {
	for _, impl := range benchImpls {
		b.Run(impl.name, func(b *testing.B) {
			a := benchAEAD(b, impl.plain, impl.std)
			for _, n := range sizes {
				b.Run(strconv.Itoa(n), func(b *testing.B) {
					b.SetBytes(int64(n))
					f(b, a, n)
				})
			}
		})
	}
}

// BenchmarkSealOpen measures Seal into a buffer with room, then Open of
// the result into another: the round trip the targets are set
// for. SetBytes counts the message once.
func BenchmarkSealOpen(b *testing.B) {
	benchEach(b, benchSizes, func(b *testing.B, a cipher.AEAD, n int) {
		nonce, pt := make([]byte, a.NonceSize()), make([]byte, n)
		sealed, opened := make([]byte, 0, n+a.Overhead()), make([]byte, 0, n)
		b.ReportAllocs()
		t := cycles.StartCPU(b)
		for range b.N {
			sealed = a.Seal(sealed[:0], nonce, pt, nil)
			var err error
			if opened, err = a.Open(opened[:0], nonce, sealed, nil); err != nil {
				b.Fatal(err)
			}
		}
		t.Stop()
	})
}

// BenchmarkSeal measures Seal alone, into a buffer with room.
func BenchmarkSeal(b *testing.B) {
	benchEach(b, append(benchSizes, 65536), func(b *testing.B, a cipher.AEAD, n int) {
		nonce, pt := make([]byte, a.NonceSize()), make([]byte, n)
		sealed := make([]byte, 0, n+a.Overhead())
		b.ReportAllocs()
		t := cycles.StartCPU(b)
		for range b.N {
			sealed = a.Seal(sealed[:0], nonce, pt, nil)
		}
		t.Stop()
	})
}

// BenchmarkParts measures the two parts of this package's Seal over a
// plainBlock, alone: "ghash", the Key.SumGCM of an n-byte ciphertext
// (the GHASH of a Seal with no additional data), and "encrypt", the
// block's Encrypt of the n/16+1 blocks (E(K, J0) and the key stream).
// Against BenchmarkSeal/ours they give GHASH's share of the time and the
// block cipher's; the rest is the counters, the XOR and the calls.
func BenchmarkParts(b *testing.B) {
	var blk cipher.Block
	blk, err := aes.NewCipher(benchKey)
	if err != nil {
		b.Fatal(err)
	}
	blk = plainBlock{Block: blk}
	var h [blockSize]byte
	blk.Encrypt(h[:], h[:])
	key := ghash.NewKey(h)
	for _, part := range []string{"ghash", "encrypt"} {
		b.Run(part, func(b *testing.B) {
			for _, n := range append(benchSizes, 65536) {
				b.Run(strconv.Itoa(n), func(b *testing.B) {
					b.SetBytes(int64(n))
					data := make([]byte, n+blockSize)
					t := cycles.StartCPU(b)
					for range b.N {
						if part == "ghash" {
							h = key.SumGCM(nil, data[:n])
							continue
						}
						for i := 0; i < len(data); i += blockSize {
							blk.Encrypt(data[i:i+blockSize], data[i:i+blockSize])
						}
					}
					t.Stop()
				})
			}
		})
	}
}
