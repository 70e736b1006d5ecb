package sha1

import (
	stdsha1 "crypto/sha1"
	"hash"
	"strconv"
	"testing"
)

// The "crypto-sha1" entries run crypto/sha1 in the same process as the kernels,
// as the baseline. crypto/sha1 picks its own implementation at start-up; run
// with GODEBUG=cpu.sha=off,cpu.avx2=off to make it use its portable Go code.

var benchSizes = []int{8, 64, 320, 1024, 8192, 65536}

// benchSink keeps the compiler from discarding the benchmarked work.
var benchSink byte

// benchEachKernel runs f as one sub-benchmark per registry kernel, with that
// kernel active, skipping those the CPU cannot run, then once as
// "crypto-sha1" (a name apart from the kernel "stdlib", which runs
// crypto/sha1 too, through this package).
func benchEachKernel(b *testing.B, f func(b *testing.B, std bool)) {
	for i := range kernels {
		k := &kernels[i]
		b.Run(k.name, func(b *testing.B) {
			if !k.available {
				b.Skipf("kernel %q not available on this CPU", k.name)
			}
			saved := active
			active = k
			b.Cleanup(func() { active = saved })
			f(b, false)
		})
	}
	b.Run("crypto-sha1", func(b *testing.B) { f(b, true) })
}

func BenchmarkSum(b *testing.B) {
	buf := make([]byte, benchSizes[len(benchSizes)-1])
	for i := range buf {
		buf[i] = byte(i)
	}
	benchEachKernel(b, func(b *testing.B, std bool) {
		for _, size := range benchSizes {
			b.Run(strconv.Itoa(size), func(b *testing.B) {
				data := buf[:size]
				b.SetBytes(int64(size))
				var sum [Size]byte
				if std {
					for b.Loop() {
						sum = stdsha1.Sum(data)
					}
				} else {
					for b.Loop() {
						sum = Sum(data)
					}
				}
				benchSink += sum[0]
			})
		}
	})
}

// BenchmarkStream writes 1500-byte chunks (an Ethernet MTU) into one hash,
// as a program hashing a network stream or a large file would.
func BenchmarkStream(b *testing.B) {
	const chunk = 1500
	buf := make([]byte, chunk)
	for i := range buf {
		buf[i] = byte(i)
	}
	benchEachKernel(b, func(b *testing.B, std bool) {
		var h hash.Hash
		if std {
			h = stdsha1.New()
		} else {
			h = New()
		}
		b.SetBytes(chunk)
		for b.Loop() {
			h.Write(buf)
		}
		benchSink += h.Sum(nil)[0]
	})
}

// BenchmarkBlock calls each kernel's block function directly on n whole
// blocks, with no dispatch in between: it is how the length from which the
// avx2 kernel beats avx (avx2MinBytes) was chosen.
func BenchmarkBlock(b *testing.B) {
	buf := make([]byte, 64*BlockSize)
	for _, n := range []int{1, 2, 3, 4, 6, 8, 16, 64} {
		for i := range kernels {
			k := &kernels[i]
			b.Run(k.name+"/"+strconv.Itoa(n), func(b *testing.B) {
				if !k.available {
					b.Skipf("kernel %q not available on this CPU", k.name)
				}
				p := buf[:n*BlockSize]
				b.SetBytes(int64(len(p)))
				var h [5]uint32
				for b.Loop() {
					k.block(&h, p)
				}
				benchSink += byte(h[0])
			})
		}
	}
}
