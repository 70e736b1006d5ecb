package ghash

import (
	"crypto/cipher"
	"strconv"
	"testing"

	"github.com/simdhash/simdhash/internal/cycles"
)

// identityBlock is a "block cipher" whose encryption is the identity. GCM
// over it does no cipher work worth measuring, and since it is not AES,
// crypto/cipher runs its portable GCM, whose GHASH is the variable-time
// 4-bit-table code: sealing an empty plaintext with all the data as
// additional data measures that GHASH.
type identityBlock struct{}

func (identityBlock) BlockSize() int          { return 16 }
func (identityBlock) Encrypt(dst, src []byte) { copy(dst, src) }
func (identityBlock) Decrypt(dst, src []byte) { copy(dst, src) }

// benchSizes are the sizes of `openssl speed ghash` that issue 10 names.
var benchSizes = []int{16, 64, 1024, 8192}

// keySumSizes are BenchmarkKeySumGCM's: benchSizes, and 128 and 240
// bytes, a group of the 128-bit loop and the most the short path of the
// wide kernels takes in one call.
var keySumSizes = []int{16, 64, 128, 240, 1024, 8192}

var (
	benchSink [16]byte
	benchKey  = [16]byte{0x66, 0xe9, 0x4b, 0xd4, 0xef, 0x8a, 0x2c, 0x3b, 0x88, 0x4c, 0xfa, 0x59, 0xca, 0x34, 0x2b, 0x2e}
)

func benchData() []byte {
	data := make([]byte, benchSizes[len(benchSizes)-1])
	for i := range data {
		data[i] = byte(i)
	}
	return data
}

// benchKernels runs f as a sub-benchmark per kernel, with that kernel
// active, and then per size.
//
// The benchmarks loop to b.N rather than with b.Loop: with b.Loop,
// Key.SumGCM of 64 bytes measured about twice its time in some builds of
// this test binary, and the same code in a b.N loop, or in a program of its
// own, did not (docs/performance.md).
func benchKernels(b *testing.B, sizes []int, f func(b *testing.B, n int)) {
	for i := range kernels {
		k := &kernels[i]
		b.Run(k.name, func(b *testing.B) {
			if !k.available {
				b.Skip(unavailable(k))
			}
			saved := active
			active = k
			b.Cleanup(func() { active = saved })
			for _, n := range sizes {
				b.Run(strconv.Itoa(n), func(b *testing.B) {
					b.SetBytes(int64(n))
					f(b, n)
				})
			}
		})
	}
}

// BenchmarkKeySumGCM measures Key.SumGCM(data, nil) on a key made
// beforehand, with every kernel: a GMAC of n bytes, length block included;
// by the wall clock and by the thread's CPU time (cpu-ns/op).
// (`openssl speed ghash` times GMAC updates on a key set once.)
func BenchmarkKeySumGCM(b *testing.B) {
	data := benchData()
	benchKernels(b, keySumSizes, func(b *testing.B, n int) {
		key := NewKey(benchKey)
		cpu := cycles.StartCPU(b)
		for range b.N {
			benchSink = key.SumGCM(data[:n], nil)
		}
		cpu.Stop()
	})
}

// BenchmarkSumGCM measures the one-shot SumGCM(H, data, nil), which expands
// H for each call with the powers that n bytes need.
func BenchmarkSumGCM(b *testing.B) {
	data := benchData()
	benchKernels(b, benchSizes, func(b *testing.B, n int) {
		for range b.N {
			benchSink = SumGCM(benchKey, data[:n], nil)
		}
	})
}

// BenchmarkNewKeySumGCM measures NewKey then Key.SumGCM, one message per
// key.
func BenchmarkNewKeySumGCM(b *testing.B) {
	data := benchData()
	benchKernels(b, benchSizes, func(b *testing.B, n int) {
		for range b.N {
			key := NewKey(benchKey)
			benchSink = key.SumGCM(data[:n], nil)
		}
	})
}

// BenchmarkHash measures NewHash, Write and Sum into a buffer on a key
// made beforehand: the plain GHASH of n bytes.
func BenchmarkHash(b *testing.B) {
	data := benchData()
	benchKernels(b, benchSizes, func(b *testing.B, n int) {
		key := NewKey(benchKey)
		out := make([]byte, 0, Size)
		for range b.N {
			g := key.NewHash()
			g.Write(data[:n])
			out = g.Sum(out[:0])
		}
		copy(benchSink[:], out)
	})
}

// BenchmarkStdlibGHASH measures crypto/cipher's portable GCM on the same
// data, as additional data with an empty plaintext: its GHASH, the
// variable-time 4-bit-table code, and a few block encryptions of the
// identity cipher.
func BenchmarkStdlibGHASH(b *testing.B) {
	aead, err := cipher.NewGCM(identityBlock{})
	if err != nil {
		b.Fatal(err)
	}
	data := benchData()
	nonce := make([]byte, aead.NonceSize())
	out := make([]byte, 0, aead.Overhead())
	for _, n := range benchSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for range b.N {
				out = aead.Seal(out[:0], nonce, nil, data[:n])
			}
		})
	}
	copy(benchSink[:], out)
}
