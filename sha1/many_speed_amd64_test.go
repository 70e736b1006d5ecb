//go:build amd64 && !purego

package sha1

import (
	stdsha1 "crypto/sha1"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/simdhash/simdhash/internal/cycles"
)

// TestManySpeed measures SumMany against a loop of Sum on the workloads of
// BenchmarkSumMany, for docs/sha1-many.md, on a shared machine where
// benchstat's medians are mostly noise. It runs only when
// SIMDHASH_MANY_SPEED is set, to the number of rounds (1 means the
// default, 60; a round takes about a third of a second):
//
//	SIMDHASH_MANY_SPEED=60 go test -run '^TestManySpeed$' -v ./sha1
//
// Every round times each implementation once on each workload, in a
// rotating order. The test logs, per workload and implementation, the minimum and
// median time, the Sum loop's minimum over theirs (above 1 is faster than
// the Sum loop; what the code does when nothing else runs), the median
// over the rounds of that ratio within a round (what drifts of the load
// disturb least), and files per second for the git workload. Then, for
// each multi-lane kernel alone (64 blocks of every lane), cycles per byte
// of all lanes, per block and lane, and per byte of one lane's message,
// with the clock measured by cycles.Chain in the same rounds; and the Sum
// loop's time over SumMany's on m equal messages of 8 KiB with the kernel
// kept on m of its lanes, m = 1..lanes, where the handoff threshold of
// manyMinLive should fall.
func TestManySpeed(t *testing.T) {
	rounds, _ := strconv.Atoi(os.Getenv("SIMDHASH_MANY_SPEED"))
	if rounds == 0 {
		t.Skip("a measurement, not a test: set SIMDHASH_MANY_SPEED=ROUNDS to run it")
	}
	if rounds == 1 {
		rounds = 60
	}
	type impl struct {
		name string
		run  func(sums [][Size]byte, msgs [][]byte)
	}
	impls := []impl{
		{"Sum-loop", func(sums [][Size]byte, msgs [][]byte) {
			for i, m := range msgs {
				sums[i] = Sum(m)
			}
		}},
		{"crypto-sha1", func(sums [][Size]byte, msgs [][]byte) {
			for i, m := range msgs {
				sums[i] = stdsha1.Sum(m)
			}
		}},
	}
	var lanes []*manyKernel
	for i := range manyKernels {
		k := &manyKernels[i]
		if k.lanes > 0 && k.id != manyPortable && k.available {
			impls = append(impls, impl{k.name, func(sums [][Size]byte, msgs [][]byte) { sumMany(sums, msgs, k) }})
			lanes = append(lanes, k)
		}
	}
	type work struct {
		name  string
		msgs  [][]byte
		bytes int
		files bool
	}
	var works []work
	for _, w := range manyWorks {
		msgs, err := w.msgs()
		if err != nil {
			t.Logf("no %s workload: %v", w.name, err)
			continue
		}
		n := 0
		for _, m := range msgs {
			n += len(m)
		}
		works = append(works, work{w.name, msgs, n, w.files})
	}
	// The kernels alone: 64 blocks of every lane.
	const kblocks = 64
	kbuf := randomBytes(newRand(t), maxLanes*kblocks*BlockSize)
	var ks manyLanes
	kstart := func() *manyLanes { // the kernels advance p[0] and c
		for l := range ks.P[0] {
			ks.P[0][l], ks.C[0][l], ks.C[1][l] = &kbuf[l*kblocks*BlockSize], 0, kblocks
		}
		return &ks
	}
	// The handoff threshold: m equal messages with the kernel kept on m
	// of its lanes.
	few := equalBatch(maxLanes, 8192)

	times := map[string][]float64{} // "work/impl" -> ns, one per round it ran in
	var nsPerCycle []float64
	timeIt := func(key string, f func()) {
		start := time.Now()
		f()
		times[key] = append(times[key], float64(time.Since(start).Nanoseconds()))
	}
	for r := 0; r < rounds; r++ {
		for wi, w := range works {
			sums := make([][Size]byte, len(w.msgs))
			for j := range impls {
				im := impls[(j+r+wi)%len(impls)]
				timeIt(w.name+"/"+im.name, func() { im.run(sums, w.msgs) })
				if last := len(w.msgs) - 1; sums[last] != stdsha1.Sum(w.msgs[last]) {
					t.Fatalf("%s/%s: wrong sum", w.name, im.name)
				}
			}
		}
		for _, k := range lanes {
			timeIt("kernel/"+k.name, func() { manyBlocks(k, kstart(), kblocks) })
			kk := *k
			kk.minLive = 1
			sums := make([][Size]byte, k.lanes)
			for m := 1; m <= k.lanes; m++ {
				key := fmt.Sprintf("few/%s/%d/", k.name, m)
				timeIt(key+"Sum-loop", func() { impls[0].run(sums[:m], few[:m]) })
				timeIt(key+k.name, func() { sumMany(sums[:m], few[:m], &kk) })
			}
		}
		start := time.Now()
		cycleSink += cycles.Chain(uint64(r), 0x9e3779b97f4a7c15, 1<<14)
		nsPerCycle = append(nsPerCycle, float64(time.Since(start).Nanoseconds())/(2<<14))
	}
	stats := func(key string) (min, med float64) {
		s := slices.Clone(times[key])
		slices.Sort(s)
		return s[0], s[len(s)/2]
	}
	// perRound is the median over the rounds of base's time over impl's
	// in the same round.
	perRound := func(base, impl string) float64 {
		var r []float64
		for i, b := range times[base] {
			r = append(r, b/times[impl][i])
		}
		slices.Sort(r)
		return r[len(r)/2]
	}
	slices.Sort(nsPerCycle)
	cyc := nsPerCycle[0]
	t.Logf("%d rounds; Sum uses %s; clock %.2f GHz (fastest round of cycles.Chain; median %.2f GHz)", rounds, Kernel(), 1/cyc, 1/nsPerCycle[len(nsPerCycle)/2])
	for _, w := range works {
		bmin, _ := stats(w.name + "/Sum-loop")
		for _, im := range impls {
			min, med := stats(w.name + "/" + im.name)
			line := fmt.Sprintf("%-15s %-11s min %8.1f us  median %8.1f us  x%.2f (min)  x%.2f (per round)  %.3f cycles/B",
				w.name, im.name, min/1e3, med/1e3, bmin/min, perRound(w.name+"/Sum-loop", w.name+"/"+im.name), min/cyc/float64(w.bytes))
			if w.files {
				line += fmt.Sprintf("  %.0f files/s", float64(len(w.msgs))/(min/1e9))
			}
			t.Log(line)
		}
	}
	for _, k := range lanes {
		min, med := stats("kernel/" + k.name)
		cpb := min / cyc / float64(k.lanes*kblocks*BlockSize)
		t.Logf("kernel %s alone: %.3f cycles/B of all lanes (median %.3f): %.1f cycles per block per lane; a lane's message moves at %.2f cycles/B",
			k.name, cpb, med/cyc/float64(k.lanes*kblocks*BlockSize), cpb*BlockSize, cpb*float64(k.lanes))
		line := ""
		for m := 1; m <= k.lanes; m++ {
			key := fmt.Sprintf("few/%s/%d/", k.name, m)
			bmin, _ := stats(key + "Sum-loop")
			min, _ := stats(key + k.name)
			line += fmt.Sprintf(" %d:x%.2f", m, bmin/min)
		}
		t.Logf("%s kept on m lanes, m equal 8 KiB messages, the Sum loop's time over its own (min):%s; threshold now %d", k.name, line, manyMinLive(k))
	}
}
