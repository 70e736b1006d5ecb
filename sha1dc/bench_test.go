package sha1dc

import (
	"strconv"
	"testing"

	"github.com/simdhash/simdhash/sha1"
)

// The "sha1-<kernel>" entries run this project's plain SHA-1 in the same
// process, as the baseline; with -tags purego both packages run their
// portable Go code ("generic"), the comparison of one kernel class. The
// comparison with sha1cd itself lives in gen/internal/sha1dccheck, where
// sha1cd may be imported.

var benchSink byte

func BenchmarkSum(b *testing.B) {
	buf := make([]byte, 8192)
	for i := range buf {
		buf[i] = byte(i)
	}
	benchSum(b, buf)
}

// benchSum times Sum of this package and of sha1 on 64 bytes and on 8 KiB
// of buf.
func benchSum(b *testing.B, buf []byte) {
	for _, size := range []int{64, 8192} {
		data := buf[:size]
		b.Run("sha1dc-"+Kernel()+"/"+strconv.Itoa(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				s, _ := Sum(data)
				benchSink += s[0]
			}
		})
		b.Run("sha1-"+sha1.Kernel()+"/"+strconv.Itoa(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				s := sha1.Sum(data)
				benchSink += s[0]
			}
		})
	}
}

// BenchmarkCheck times the UBC check alone, on the W of a real block.
func BenchmarkCheck(b *testing.B) {
	var w [80]uint32
	var s [len(testSteps)][5]uint32
	h := initState
	var q [BlockSize]byte
	compressW(&h, &q, &w, &s)
	for b.Loop() {
		benchSink += byte(ubcCheck(&w))
		w[40]++
	}
}

// BenchmarkCompressW times the compression that keeps W and the states.
func BenchmarkCompressW(b *testing.B) {
	var w [80]uint32
	var s [len(testSteps)][5]uint32
	h := initState
	var q [BlockSize]byte
	b.SetBytes(BlockSize)
	for b.Loop() {
		compressW(&h, &q, &w, &s)
	}
	benchSink += byte(h[0])
}

// BenchmarkCheckRandom times the UBC check on the W of random blocks, as
// in a message of random bytes.
func BenchmarkCheckRandom(b *testing.B) {
	const n = 256
	ws := make([][80]uint32, n)
	var s [len(testSteps)][5]uint32
	h := initState
	var q [BlockSize]byte
	for i := range ws {
		for j := range q {
			q[j] = byte(i*977 + j*j*31 + j>>3)
		}
		compressW(&h, &q, &ws[i], &s)
	}
	i := 0
	for b.Loop() {
		benchSink += byte(ubcCheck(&ws[i%n]))
		i++
	}
}

// BenchmarkRecompress times one recompression, the work a block with a
// surviving DV costs (about 5% of random blocks have one).
func BenchmarkRecompress(b *testing.B) {
	var w [80]uint32
	var s [len(testSteps)][5]uint32
	h := initState
	var q [BlockSize]byte
	compressW(&h, &q, &w, &s)
	for _, i := range []int{0, 31} {
		dv := &dvTable[i]
		b.Run(strconv.Itoa(dv.testT), func(b *testing.B) {
			for b.Loop() {
				r := recompress(dv, &w, &s[dv.state])
				benchSink += byte(r[0])
			}
		})
	}
}

// BenchmarkSumRandom is BenchmarkSum on random bytes, whose blocks have a
// surviving DV as often as real data's (4.7%), so that the flagged blocks'
// recompression in Go is timed too; BenchmarkSum's bytes flag none.
func BenchmarkSumRandom(b *testing.B) { benchSum(b, randomBytes(newRand(b), 8192)) }

// BenchmarkKernel calls each checking kernel directly on n whole blocks
// that flag nothing, with no dispatch in between, as sha1's BenchmarkBlock
// does for its kernels.
func BenchmarkKernel(b *testing.B) {
	buf := make([]byte, 64*BlockSize)
	for _, n := range []int{1, 2, 4, 16, 64} {
		for i := range kernels {
			k := &kernels[i]
			if k.check == nil {
				continue
			}
			b.Run(k.name+"/"+strconv.Itoa(n), func(b *testing.B) {
				if !k.available {
					b.Skipf("kernel %q not available on this CPU", k.name)
				}
				p := buf[:n*BlockSize]
				b.SetBytes(int64(len(p)))
				var h [5]uint32
				for b.Loop() {
					k.check(&h, p)
				}
				benchSink += byte(h[0])
			})
		}
	}
}
