// Gcmspeed measures the speed targets of the gcm package (issue 21) in
// one interleaved run, as ratios within each round: Seal then Open
// against crypto/cipher's GCM over the same plain block, the delegation
// for crypto/aes blocks against crypto/cipher's AES-GCM, the allocations,
// and the shares of GHASH and of the block cipher in a Seal.
//
// Each round runs each test binary given (one per Go toolchain, say) once,
// in turn, over BenchmarkSealOpen, BenchmarkSeal and BenchmarkParts of the
// gcm package, timed by the thread's CPU time (cpu-ns/op,
// internal/cycles.CPUTimer), so that what other processes take of a
// shared machine is not counted. A ratio is the other's time over ours in
// the same round; the tables give its median over the rounds with the
// lowest and highest beside it, and "best" the ratio of the two fastest
// times over all rounds.
//
//	go test -c -o /tmp/gcm.test ./gcm
//	GOTOOLCHAIN=go1.27.3 go test -c -o /tmp/gcm127.test ./gcm
//	go -C gen run ./tools/gcmspeed -dir gcm go1.26=/tmp/gcm.test go1.27=/tmp/gcm127.test
//
// scripts/gcm-speed.sh does all three.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/simdhash/simdhash/gen/internal/benchline"
)

var (
	dir       = flag.String("dir", "gcm", "the gcm package directory, where the benchmarks run")
	rounds    = flag.Int("rounds", 8, "rounds; each runs every binary once")
	benchtime = flag.String("benchtime", "100ms", "-test.benchtime of each benchmark")
	bench     = flag.String("bench", "^(BenchmarkSealOpen|BenchmarkSeal|BenchmarkParts)$", "-test.bench pattern")
)

// sizes are the message sizes of the targets.
var sizes = []string{"64", "1024", "8192"}

// A run is one binary's results in one round: benchmark name (without
// "Benchmark") to its metrics.
type run map[string]benchline.Result

type binary struct{ label, path string }

func main() {
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: gcmspeed [flags] LABEL=TEST_BINARY...")
		flag.PrintDefaults()
	}
	flag.Parse()
	var bins []binary
	for _, arg := range flag.Args() {
		label, path, ok := strings.Cut(arg, "=")
		if !ok {
			fail("an argument is LABEL=TEST_BINARY, not " + arg)
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			fail(err.Error())
		}
		bins = append(bins, binary{label, abs})
	}
	if len(bins) == 0 {
		flag.Usage()
		os.Exit(2)
	}
	results := make([][]run, len(bins)) // [binary][round]
	for i := 0; i < *rounds; i++ {
		for j, b := range bins {
			fmt.Fprintf(os.Stderr, "gcmspeed: round %d of %d: %s\n", i+1, *rounds, b.label)
			results[j] = append(results[j], goBench(b.path))
		}
	}
	fmt.Printf("%d rounds, each running every binary once in turn; -test.benchtime %s; times are thread CPU time (cpu-ns/op).\n", *rounds, *benchtime)
	fmt.Println("A cell is the median over the rounds of that round's ratio (lowest-highest), then the ratio of the two best times.")
	for j, b := range bins {
		report(b.label, results[j])
	}
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "gcmspeed:", msg)
	os.Exit(1)
}

// goBench runs the benchmarks of binary bin once.
func goBench(bin string) run {
	results, err := benchline.Run(bin, *dir, "-test.run", "^$", "-test.bench", *bench, "-test.benchtime", *benchtime)
	if err != nil {
		fail(err.Error())
	}
	r := run{}
	for _, res := range results {
		r[strings.TrimPrefix(res.Name, "Benchmark")] = res
	}
	return r
}

// cpu returns the CPU time per operation of benchmark name in r.
func (r run) cpu(name string) (float64, bool) {
	res, ok := r[name]
	if !ok {
		return 0, false
	}
	v, ok := res.Metric("cpu-ns/op")
	if !ok {
		fail(name + ": no cpu-ns/op in the benchmark output (a platform without thread CPU time?)")
	}
	return v, v > 0
}

// ratio is, per round, the time of benchmark num over that of den, and
// the ratio of their fastest times over all rounds.
func ratio(rs []run, num, den string) (benchline.Stat, float64) {
	var xs []float64
	bestNum, bestDen := 0.0, 0.0
	for _, r := range rs {
		n, okn := r.cpu(num)
		d, okd := r.cpu(den)
		if !okn || !okd {
			continue
		}
		xs = append(xs, n/d)
		if bestNum == 0 || n < bestNum {
			bestNum = n
		}
		if bestDen == 0 || d < bestDen {
			bestDen = d
		}
	}
	if len(xs) == 0 {
		return benchline.Stat{}, 0
	}
	return benchline.Summarize(xs), bestNum / bestDen
}

// most returns the largest value of metric unit of benchmark name over
// the rounds.
func most(rs []run, name, unit string) float64 {
	m := 0.0
	for _, r := range rs {
		if v, ok := r[name].Metric(unit); ok {
			m = max(m, v)
		}
	}
	return m
}

func report(label string, rs []run) {
	fmt.Printf("\n## %s\n\n", label)
	fmt.Println("| Seal+Open, the other's time / ours | " + strings.Join(sizes, " B | ") + " B |")
	fmt.Println("|---|" + strings.Repeat("---|", len(sizes)))
	for _, row := range []struct{ what, num, den string }{
		{"crypto/cipher's GCM over the plain block / ours over it", "stdlib", "ours"},
		{"crypto/cipher's AES-GCM / ours delegating to it (crypto/aes block)", "stdlib-aes", "ours-aes"},
	} {
		fmt.Printf("| %s |", row.what)
		for _, n := range sizes {
			s, best := ratio(rs, "SealOpen/"+row.num+"/"+n, "SealOpen/"+row.den+"/"+n)
			fmt.Printf(" %s, best %.2f |", s, best)
		}
		fmt.Println()
	}
	fmt.Println()
	fmt.Println("| Seal+Open, per operation (most over the rounds) | " + strings.Join(sizes, " B | ") + " B |")
	fmt.Println("|---|" + strings.Repeat("---|", len(sizes)))
	for _, impl := range []string{"ours", "stdlib", "ours-aes", "stdlib-aes"} {
		fmt.Printf("| %s: allocs, B |", impl)
		for _, n := range sizes {
			name := "SealOpen/" + impl + "/" + n
			fmt.Printf(" %.0f, %.0f |", most(rs, name, "allocs/op"), most(rs, name, "B/op"))
		}
		fmt.Println()
	}
	fmt.Println()
	fmt.Println("| Seal over the plain block: share of the time | " + strings.Join(append(slices.Clone(sizes), "65536"), " B | ") + " B |")
	fmt.Println("|---|" + strings.Repeat("---|", len(sizes)+1))
	for _, part := range []string{"ghash", "encrypt"} {
		fmt.Printf("| %s (BenchmarkParts/%s) |", map[string]string{"ghash": "GHASH, Key.SumGCM", "encrypt": "the block's Encrypt, n/16+1 blocks"}[part], part)
		for _, n := range append(slices.Clone(sizes), "65536") {
			s, best := ratio(rs, "Parts/"+part+"/"+n, "Seal/ours/"+n)
			fmt.Printf(" %s, best %.2f |", s, best)
		}
		fmt.Println()
	}
	fmt.Println()
	fmt.Println("| cpu-ns/op, median (lowest-highest) | " + strings.Join(append(slices.Clone(sizes), "65536"), " B | ") + " B |")
	fmt.Println("|---|" + strings.Repeat("---|", len(sizes)+1))
	for _, row := range []string{"SealOpen/ours", "SealOpen/stdlib", "SealOpen/ours-aes", "SealOpen/stdlib-aes", "Seal/ours", "Seal/stdlib", "Parts/ghash", "Parts/encrypt"} {
		fmt.Printf("| %s |", row)
		for _, n := range append(slices.Clone(sizes), "65536") {
			var xs []float64
			for _, r := range rs {
				if v, ok := r.cpu(row + "/" + n); ok {
					xs = append(xs, v)
				}
			}
			if s := benchline.Summarize(xs); s != (benchline.Stat{}) {
				fmt.Printf(" %.0f (%.0f-%.0f) |", s.Med, s.Lo, s.Hi)
			} else {
				fmt.Print(" |")
			}
		}
		fmt.Println()
	}
}
