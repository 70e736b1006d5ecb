package gentest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/gen/internal/knob"
)

// Compare is the host side of a generator's TestCompare, which times
// variants of its kernels against each other in one process, for choosing
// defaults on a shared, noisy machine. It runs only on amd64 and when
// SIMDHASH_COMPARE lists the variants, as kernel:flags separated by
// semicolons; the first is the baseline, and a variant may repeat (a
// repeat at another address shows what code placement alone does).
//
// For the n-th entry, variant returns the variant of kernel name with its
// knobs set by flags, to be labelled "n name flags"; it fails or skips the
// test when the entry names no kernel, bad flags or a kernel this CPU
// cannot run. scratch generates the variants into a scratch package, with
// its TestVariants (the check against internal/ref) and its table
// variants, each element with the variant's label as its name, and returns
// its directory. timing is the source of the package's TestCompare, which
// Compare writes into compare_amd64_test.go after the package clause and
// the imports it may use (fmt, os, testing, time): it times the variants
// with timeRounds and logs the figures with logTimes, which Compare writes
// beside it (compareStats). Compare runs TestVariants and TestCompare
// there and logs the figures.
func Compare[V any](t *testing.T, variant func(name, flags, label string) V, scratch func([]V) string, timing string) {
	t.Helper()
	spec := os.Getenv("SIMDHASH_COMPARE")
	if spec == "" {
		t.Skip("SIMDHASH_COMPARE lists no variants to time")
	}
	NativeAMD64(t)
	var vs []V
	for n, v := range strings.Split(spec, ";") {
		name, flags, _ := strings.Cut(strings.TrimSpace(v), ":")
		vs = append(vs, variant(name, flags, fmt.Sprintf("%d %s %s", n, name, flags)))
	}
	dir := scratch(vs)
	WriteFile(t, filepath.Join(dir, "compare_amd64_test.go"), compareHead+timing)
	WriteFile(t, filepath.Join(dir, "compare_stats_amd64_test.go"), compareStats)
	for _, l := range strings.Split(GoTest(t, dir, "-v", "-run", "^(TestVariants|TestCompare)$"), "\n") {
		if _, result, ok := strings.Cut(l, "compare_amd64_test.go:"); ok && strings.Contains(l, "ns/B") {
			_, result, _ = strings.Cut(result, ": ") // after the line number
			t.Log(result)
		}
	}
}

// SetKnobs parses flags as the generator of kernel name parses its
// command line, setting knobs; it fails the test on a bad flag.
func SetKnobs(t *testing.T, name, flags string, knobs []knob.Knob) {
	t.Helper()
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	knob.Register(fs, knobs...)
	if err := fs.Parse(strings.Fields(flags)); err != nil {
		t.Fatalf("%s:%s: %v", name, flags, err)
	}
}

// compareHead is what a scratch package's TestCompare (timing, see
// Compare) follows.
const compareHead = `//go:build amd64

package sweep

import (
	"fmt"
	"os"
	"testing"
	"time"
)

`

// compareStats is the part of a scratch package's TestCompare (see
// Compare) that does not depend on the kernels' signature: the rounds in a
// rotating order, and the figures.
const compareStats = `//go:build amd64

package sweep

import (
	"slices"
	"testing"
)

// timeRounds calls time(i) for each variant i once a round, for rounds
// rounds, in an order rotating with the round, and returns what each call
// returned (the time per byte), per variant.
func timeRounds(rounds int, time func(i int) float64) [][]float64 {
	times := make([][]float64, len(variants))
	for r := 0; r < rounds; r++ {
		for j := range variants {
			i := (j + r) % len(variants)
			times[i] = append(times[i], time(i))
		}
	}
	return times
}

// logTimes logs each variant's minimum and median of times, and their
// ratios to the first variant's.
func logTimes(t *testing.T, times [][]float64) {
	t.Helper()
	var min0, med0 float64
	for i, v := range variants {
		slices.Sort(times[i])
		min, med := times[i][0], times[i][len(times[i])/2]
		if i == 0 {
			min0, med0 = min, med
		}
		t.Logf("%-50s min %.4f ns/B (%.3f)  median %.4f ns/B (%.3f)", v.name, min, min/min0, med, med/med0)
	}
}
`
