//go:build amd64 && !purego

package sha1

import (
	stdsha1 "crypto/sha1"
	"encoding/json"
	"hash"
	"os"
	"slices"
	"testing"

	"github.com/simdhash/simdhash/internal/cycles"
	"github.com/simdhash/simdhash/internal/speed"
)

// TestSpeedTable measures every available kernel of the registry and
// crypto/sha1 on the speed table's patterns (internal/speed: tcrypt's,
// plus one-update rows at the other sizes the plot draws), one implementation after the other
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
	var round speed.Round
	for i := range kernels {
		if kernels[i].available {
			impls = append(impls, impl{kernels[i].name, &kernels[i]})
		} else {
			round.Skipped = append(round.Skipped, kernels[i].name)
		}
	}
	impls = append(impls, impl{"crypto/sha1", nil})

	patterns := slices.Clone(speed.Tcrypt)
	for _, n := range speed.PlotSizes {
		patterns = append(patterns, speed.Pattern{Updates: 1, UpdateSize: n})
	}
	slices.SortStableFunc(patterns, func(a, b speed.Pattern) int { return a.Updates*a.UpdateSize - b.Updates*b.UpdateSize })

	msg := make([]byte, 65536)
	for i := range msg {
		msg[i] = byte(i * 7)
	}
	saved := active
	t.Cleanup(func() { active = saved })
	lastSize := -1
	for _, p := range patterns {
		if size := p.Updates * p.UpdateSize; size != lastSize {
			round.NsPerCycle = append(round.NsPerCycle, cycles.NsPerCycle())
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
			round.Results = append(round.Results, speed.Result{Impl: im.name, Pattern: p, NsPerOp: float64(r.T.Nanoseconds()) / float64(r.N)})
		}
		active = saved
	}
	round.NsPerCycle = append(round.NsPerCycle, cycles.NsPerCycle())

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
func hashPattern(h hash.Hash, msg []byte, p speed.Pattern, sum []byte) []byte {
	h.Reset()
	for i := 0; i < p.Updates; i++ {
		h.Write(msg[i*p.UpdateSize : (i+1)*p.UpdateSize])
	}
	return h.Sum(sum)
}
