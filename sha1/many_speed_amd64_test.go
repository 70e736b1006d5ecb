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
)

// TestManySpeed measures SumMany against a loop of Sum on the workloads of
// BenchmarkSumMany, for docs/sha1-many.md, on a shared machine where
// benchstat's medians are mostly noise. It runs only when
// SIMDHASH_MANY_SPEED is set (to the number of rounds; 1 means the
// default, 60):
//
//	SIMDHASH_MANY_SPEED=60 go test -run '^TestManySpeed$' -v ./sha1
//
// Every round times each implementation once on each workload, in a
// rotating order; the test logs, per workload and implementation, the
// minimum and median time over the rounds and their ratios to the Sum
// loop's (its time over theirs: above 1 is faster), files per second for
// the git workload, and for each multi-lane kernel alone (64 blocks of
// every lane) its cycles per byte of all lanes, per lane, and per 64-byte
// block of one lane, with the clock measured by cycleChain in the same
// rounds. The minimum is what the code does when nothing else runs.
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
		reps  int
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
		works = append(works, work{w.name, msgs, n, max(1, 4<<20/max(n, 1))})
	}
	// The kernels alone: 64 blocks of every lane.
	const kblocks = 64
	kbuf := randomBytes(newRand(t), maxLanes*kblocks*BlockSize)
	var ks manyLanes
	kstart := func() *manyLanes { // the kernels advance p[0]
		for l := range ks.p[0] {
			ks.p[0][l], ks.rem[l] = &kbuf[l*kblocks*BlockSize], 0
		}
		return &ks
	}

	times := map[string][]float64{} // "work/impl" -> ns per rep
	var nsPerCycle []float64
	for r := 0; r < rounds; r++ {
		for wi, w := range works {
			sums := make([][Size]byte, len(w.msgs))
			for j := range impls {
				im := impls[(j+r+wi)%len(impls)]
				start := time.Now()
				for k := 0; k < w.reps; k++ {
					im.run(sums, w.msgs)
				}
				times[w.name+"/"+im.name] = append(times[w.name+"/"+im.name], float64(time.Since(start).Nanoseconds())/float64(w.reps))
				if last := len(w.msgs) - 1; sums[last] != stdsha1.Sum(w.msgs[last]) {
					t.Fatalf("%s/%s: wrong sum", w.name, im.name)
				}
			}
		}
		for _, k := range lanes {
			start := time.Now()
			for i := 0; i < 16; i++ {
				manyBlocks(k, kstart(), kblocks, 1<<k.lanes-1)
			}
			times["kernel/"+k.name] = append(times["kernel/"+k.name], float64(time.Since(start).Nanoseconds())/16)
		}
		start := time.Now()
		cycleSink += cycleChain(uint64(r), 0x9e3779b97f4a7c15, 1<<16)
		nsPerCycle = append(nsPerCycle, float64(time.Since(start).Nanoseconds())/(2<<16))
	}
	stats := func(key string) (min, med float64) {
		s := slices.Clone(times[key])
		slices.Sort(s)
		return s[0], s[len(s)/2]
	}
	slices.Sort(nsPerCycle)
	cyc := nsPerCycle[0]
	t.Logf("%d rounds; Sum uses %s; clock %.2f GHz (fastest round of cycleChain; median %.2f GHz)", rounds, Kernel(), 1/cyc, 1/nsPerCycle[len(nsPerCycle)/2])
	for _, w := range works {
		bmin, bmed := stats(w.name + "/Sum-loop")
		for _, im := range impls {
			min, med := stats(w.name + "/" + im.name)
			line := fmt.Sprintf("%-16s %-12s min %9.1f us  x%.2f   median %9.1f us  x%.2f   %.3f cycles/B", w.name, im.name, min/1e3, bmin/min, med/1e3, bmed/med, min/cyc/float64(w.bytes))
			if w.name == "gitblobs" {
				line += fmt.Sprintf("   %.0f files/s", float64(len(w.msgs))/(min/1e9))
			}
			t.Log(line)
		}
	}
	for _, k := range lanes {
		min, med := stats("kernel/" + k.name)
		bytes := float64(k.lanes * kblocks * BlockSize)
		t.Logf("kernel %-10s min %.3f cycles/B of all lanes (median %.3f), %.2f cycles/B per lane, %.0f cycles per block per lane", k.name, min/cyc/bytes, med/cyc/bytes, min/cyc/bytes*float64(k.lanes), min/cyc/bytes*BlockSize*float64(k.lanes))
	}
}
