//go:build amd64 && !purego

package sha1

import (
	"os"
	"slices"
	"strconv"
	"testing"
	"time"
	"unsafe"
)

// TestManyLayout measures the placement penalty of docs/sha1-many.md
// ("Layout"): 16 pieces of 8 KiB and of 256 KiB laid end to end in one
// buffer (every lane at the same offset modulo 4 KiB, as a torrent's
// pieces read into one buffer are), from a page-aligned buffer and from
// one 200 bytes past a page, against the same pieces 64 bytes apart
// (stride size+64), with each multi-lane kernel. It runs only when
// SIMDHASH_MANY_LAYOUT is set, to the number of interleaved rounds, and
// logs, per kernel, size and start, the fastest time of each layout,
// apart's fastest over end to end's, and the median over the rounds of
// that ratio within a round (1 means no penalty).
func TestManyLayout(t *testing.T) {
	rounds, _ := strconv.Atoi(os.Getenv("SIMDHASH_MANY_LAYOUT"))
	if rounds == 0 {
		t.Skip("a measurement, not a test: set SIMDHASH_MANY_LAYOUT=ROUNDS to run it")
	}
	const pieces, page = 16, 4096

	rng := newRand(t)
	for _, size := range []int{8 << 10, 256 << 10} {
		buf := randomBytes(rng, pieces*(size+2048)+2*page)
		base := int(uintptr(unsafe.Pointer(&buf[0])) % page)
		aligned := page - base // the index of the first page boundary
		for _, start := range []int{0, 200} {
			layout := func(stride int) [][]byte {
				msgs := make([][]byte, pieces)
				for i := range msgs {
					o := aligned + start + i*stride
					msgs[i] = buf[o : o+size]
				}
				return msgs
			}
			endToEnd, apart := layout(size), layout(size+64)
			for i := range manyKernels {
				k := &manyKernels[i]
				if k.lanes == 0 || k.id == manyPortable || !k.available {
					continue
				}
				sums := make([][Size]byte, pieces)
				best := [2]time.Duration{time.Hour, time.Hour}
				layouts := [2][][]byte{endToEnd, apart}
				ratios := make([]float64, rounds)
				for r := 0; r < rounds; r++ {
					var d [2]time.Duration
					for o := 0; o < 2; o++ {
						j := o ^ r%2 // the order alternates by round
						t0 := time.Now()
						sumMany(sums, layouts[j], k)
						d[j] = time.Since(t0)
						best[j] = min(best[j], d[j])
						checkSums(t, k.name, sums, layouts[j])
					}
					ratios[r] = d[1].Seconds() / d[0].Seconds()
				}
				slices.Sort(ratios)
				t.Logf("%-10s 16 x %3d KiB from page+%3d: end to end %8.1f us, apart %8.1f us: apart/end-to-end %.3f (min), %.3f (median of the rounds')",
					k.name, size>>10, start, best[0].Seconds()*1e6, best[1].Seconds()*1e6, best[1].Seconds()/best[0].Seconds(), ratios[rounds/2])
				if os.Getenv("SIMDHASH_MANY_LAYOUT_STRIDES") == "" || start != 0 {
					continue
				}
				// The cause: pieces whose offsets modulo 4 KiB fall on 1, 2,
				// 4 or 16 lines (L1 sets), each the fastest of rounds.
				for _, extra := range []int{2048, 1024, 64} {
					msgs := layout(size + extra)
					d := time.Hour
					for r := 0; r < rounds; r++ {
						t0 := time.Now()
						sumMany(sums, msgs, k)
						d = min(d, time.Since(t0))
					}
					checkSums(t, k.name, sums, msgs)
					t.Logf("%-10s   stride size+%4d (%2d lanes a set): %8.1f us, end to end's time over it %.3f", k.name, extra, pieces/min(pieces, 4096/extra), d.Seconds()*1e6, best[0].Seconds()/d.Seconds())
				}
			}
		}
	}
}
