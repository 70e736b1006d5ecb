package sha1dccheck

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/pjbgf/sha1cd"
	"github.com/simdhash/simdhash/sha1"
	"github.com/simdhash/simdhash/sha1dc"
)

// The benchmarks of docs/sha1dc.md: sha1dc against sha1cd and against this
// project's plain SHA-1, each sub-benchmark named with the kernel it runs.
// Built with -tags purego,noasm, all three run portable Go (sha1cd's noasm
// tag leaves out its assembly); without, sha1 and sha1cd run their
// assembly for this CPU (sha1cd: SHA-NI or AVX2 on amd64, its AVX-512
// check where the CPU has it; the SHA1 instructions on arm64).

var sink byte

func BenchmarkSum(b *testing.B) {
	buf := make([]byte, 8192)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	benchSum(b, buf)
}

// BenchmarkSumRandom is BenchmarkSum on random bytes, a fixed seed, whose
// blocks have a surviving DV as often as real data's (about 4.7%, 6 of
// the 128 blocks here), so that sha1dc's recompressions are timed too; the
// bytes of BenchmarkSum happen to flag none.
func BenchmarkSumRandom(b *testing.B) {
	benchSum(b, randomBytes(rand.New(rand.NewPCG(8192, 22)), 8192))
}

// benchSum times sha1dc.Sum, sha1cd.Sum and sha1.Sum on 64 bytes and on
// 8 KiB of buf.
func benchSum(b *testing.B, buf []byte) {
	for _, size := range []int{64, 8192} {
		data := buf[:size]
		b.Run("sha1dc-"+sha1dc.Kernel()+"/"+strconv.Itoa(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				s, _ := sha1dc.Sum(data)
				sink += s[0]
			}
		})
		b.Run("sha1cd/"+strconv.Itoa(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				s, _ := sha1cd.Sum(data)
				sink += s[0]
			}
		})
		b.Run("sha1-"+sha1.Kernel()+"/"+strconv.Itoa(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				s := sha1.Sum(data)
				sink += s[0]
			}
		})
	}
}

// manyMessages returns the batch of issue 22's SumMany target: 1000
// messages of random lengths from 0 to 16 KiB (a fixed seed), and their
// total size.
func manyMessages() ([][]byte, int) {
	rng := rand.New(rand.NewPCG(1000, 16384))
	msgs := make([][]byte, 1000)
	total := 0
	for i := range msgs {
		msgs[i] = randomBytes(rng, rng.IntN(16384+1))
		total += len(msgs[i])
	}
	return msgs, total
}

func BenchmarkSumMany(b *testing.B) {
	msgs, total := manyMessages()
	sums := make([][sha1dc.Size]byte, len(msgs))
	detected := make([]bool, len(msgs))
	b.Run("sha1dc-"+sha1dc.ManyKernel(), func(b *testing.B) {
		b.SetBytes(int64(total))
		for b.Loop() {
			sha1dc.SumMany(sums, detected, msgs)
		}
	})
	b.Run("sha1cd-loop", func(b *testing.B) {
		b.SetBytes(int64(total))
		for b.Loop() {
			for i, m := range msgs {
				sums[i], detected[i] = sha1cd.Sum(m)
			}
		}
	})
	b.Run("sha1-"+sha1.ManyKernel(), func(b *testing.B) {
		b.SetBytes(int64(total))
		for b.Loop() {
			sha1.SumMany(sums, msgs)
		}
	})
	sink += sums[0][0]
}
