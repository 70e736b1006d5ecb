//go:build amd64 && !purego

package sha1

import (
	stdsha1 "crypto/sha1"
	"encoding/json"
	"hash"
	"os"
	"slices"
	"testing"
)

// The speed table of make speed (scripts/speedtable.go): the update
// patterns of the Linux kernel's tcrypt hash speed test, plus one-update
// rows at the other powers of two up to 64 KiB for the plot
// (scripts/plot.go).

// A speedPattern hashes updates*updateSize bytes in updates calls of Write.
type speedPattern struct {
	Updates    int `json:"updates"`
	UpdateSize int `json:"update_size"`
}

// speedPatterns are tcrypt's patterns, grouped by message size.
var speedPatterns = []speedPattern{
	{1, 16},
	{1, 64}, {4, 16},
	{1, 256}, {4, 64}, {16, 16},
	{1, 1024}, {4, 256}, {16, 64},
	{1, 2048}, {8, 256}, {32, 64},
	{1, 4096}, {16, 256}, {64, 64},
	{1, 8192}, {32, 256}, {128, 64},
}

// speedPlotSizes are the other one-update sizes the plot draws.
var speedPlotSizes = []int{32, 128, 512, 16384, 32768, 65536}

// speedResult is one measurement: the time of New-state-to-digest (Reset,
// Updates Writes of UpdateSize bytes, Sum) with one implementation.
type speedResult struct {
	Impl string `json:"impl"`
	speedPattern
	NsPerOp float64 `json:"ns_per_op"`
}

// speedRound is what one run of TestSpeedTable writes.
type speedRound struct {
	// NsPerCycle are the clock calibrations (cycleChain) taken before each
	// message size, interleaved with the measurements.
	NsPerCycle []float64     `json:"ns_per_cycle"`
	Results    []speedResult `json:"results"`
	Skipped    []string      `json:"skipped,omitempty"` // kernels this CPU lacks
}

// TestSpeedTable measures every available kernel of the registry and
// crypto/sha1 on every speed pattern, one implementation after the other
// for each pattern, with -test.benchtime per measurement, and writes the
// results as JSON to the file named by SIMDHASH_SPEED. Without it the test
// is skipped: it is a measurement, run by make speed, not a check. (It
// still fails if an implementation's digest differs from crypto/sha1's.)
func TestSpeedTable(t *testing.T) {
	out := os.Getenv("SIMDHASH_SPEED")
	if out == "" {
		t.Skip("a measurement, not a test: set SIMDHASH_SPEED=FILE to write the speed table's data (make speed)")
	}
	type impl struct {
		name string
		k    *kernel // nil for crypto/sha1
	}
	var impls []impl
	var round speedRound
	for i := range kernels {
		if kernels[i].available {
			impls = append(impls, impl{kernels[i].name, &kernels[i]})
		} else {
			round.Skipped = append(round.Skipped, kernels[i].name)
		}
	}
	impls = append(impls, impl{"crypto/sha1", nil})

	patterns := slices.Clone(speedPatterns)
	for _, n := range speedPlotSizes {
		patterns = append(patterns, speedPattern{1, n})
	}
	slices.SortStableFunc(patterns, func(a, b speedPattern) int { return a.Updates*a.UpdateSize - b.Updates*b.UpdateSize })

	msg := make([]byte, 65536)
	for i := range msg {
		msg[i] = byte(i * 7)
	}
	saved := active
	t.Cleanup(func() { active = saved })
	lastSize := -1
	for _, p := range patterns {
		if size := p.Updates * p.UpdateSize; size != lastSize {
			round.NsPerCycle = append(round.NsPerCycle, measureNsPerCycle())
			lastSize = size
		}
		want := stdsha1.Sum(msg[:p.Updates*p.UpdateSize])
		for _, im := range impls {
			var h hash.Hash
			if im.k == nil {
				h = stdsha1.New()
			} else {
				active = im.k
				h = New()
			}
			var sum [Size]byte
			hashPattern(h, msg, p, sum[:0])
			if got := hashPattern(h, msg, p, sum[:0]); !slices.Equal(got, want[:]) {
				t.Fatalf("%s, %d x %d bytes: digest %x, crypto/sha1's %x", im.name, p.Updates, p.UpdateSize, got, want)
			}
			r := testing.Benchmark(func(b *testing.B) {
				for b.Loop() {
					hashPattern(h, msg, p, sum[:0])
				}
			})
			round.Results = append(round.Results, speedResult{im.name, p, float64(r.T.Nanoseconds()) / float64(r.N)})
		}
		active = saved
	}
	round.NsPerCycle = append(round.NsPerCycle, measureNsPerCycle())

	b, err := json.MarshalIndent(round, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// hashPattern is one tcrypt operation: h from its initial state through
// p.Updates writes of consecutive p.UpdateSize-byte pieces of msg to the
// digest, appended to sum.
func hashPattern(h hash.Hash, msg []byte, p speedPattern, sum []byte) []byte {
	h.Reset()
	for i := 0; i < p.Updates; i++ {
		h.Write(msg[i*p.UpdateSize : (i+1)*p.UpdateSize])
	}
	return h.Sum(sum)
}

// measureNsPerCycle times cycleChain, whose dependent ROLQ+XORQ pairs take
// two cycles each (see BenchmarkCycles), and returns nanoseconds per cycle.
func measureNsPerCycle() float64 {
	const pairs = 1 << 12
	r := testing.Benchmark(func(b *testing.B) {
		x := uint64(0x0123456789abcdef)
		for b.Loop() {
			x = cycleChain(x, 0x9e3779b97f4a7c15, pairs)
		}
		cycleSink = x
	})
	return float64(r.T.Nanoseconds()) / float64(r.N) / (2 * pairs)
}
