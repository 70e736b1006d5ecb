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
	"log"
	"math"
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
	log.SetFlags(0)
	log.SetPrefix("gcmspeed: ")
	flag.Parse()
	var bins []binary
	for _, arg := range flag.Args() {
		label, path, ok := strings.Cut(arg, "=")
		if !ok {
			log.Fatal("an argument is LABEL=TEST_BINARY, not " + arg)
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			log.Fatal(err)
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

// goBench runs the benchmarks of binary bin once.
func goBench(bin string) run {
	results, err := benchline.Run(bin, *dir, "-test.run", "^$", "-test.bench", *bench, "-test.benchtime", *benchtime)
	if err != nil {
		log.Fatal(err)
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
		log.Fatal(name + ": no cpu-ns/op in the benchmark output (a platform without thread CPU time?)")
	}
	return v, v > 0
}

// ratio is, per round, the time of benchmark num over that of den, and
// the ratio of their fastest times over all rounds.
func ratio(rs []run, num, den string) (benchline.Stat, float64) {
	s, best, _ := benchline.Ratio(cpus(rs, num), cpus(rs, den))
	return s, best
}

// cpus returns the CPU time per operation of benchmark name in each
// round, NaN where the round has none.
func cpus(rs []run, name string) []float64 {
	xs := make([]float64, len(rs))
	for i, r := range rs {
		xs[i] = math.NaN()
		if v, ok := r.cpu(name); ok {
			xs[i] = v
		}
	}
	return xs
}

// most returns the largest value of metric unit of benchmark name over
// the rounds.
func most(rs []run, name, unit string) float64 {
	return slices.Max(append(benchline.Values(rs, func(r run) (float64, bool) { return r[name].Metric(unit) }), 0))
}

func report(label string, rs []run) {
	fmt.Printf("\n## %s\n", label)
	pairs := []struct{ what, num, den string }{
		{"crypto/cipher's GCM over the plain block / ours over it", "stdlib", "ours"},
		{"crypto/cipher's AES-GCM / ours delegating to it (crypto/aes block)", "stdlib-aes", "ours-aes"},
	}
	whats := benchline.Map(pairs, func(p struct{ what, num, den string }) string { return p.what })
	table("Seal+Open, the other's time / ours", sizes, whats, func(i int, n string) string {
		s, best := ratio(rs, "SealOpen/"+pairs[i].num+"/"+n, "SealOpen/"+pairs[i].den+"/"+n)
		return fmt.Sprintf("%s, best %.2f", s, best)
	})
	impls := []string{"ours", "stdlib", "ours-aes", "stdlib-aes"}
	allocs := benchline.Map(impls, func(impl string) string { return impl + ": allocs, B" })
	table("Seal+Open, per operation (most over the rounds)", sizes, allocs, func(i int, n string) string {
		name := "SealOpen/" + impls[i] + "/" + n
		return fmt.Sprintf("%.0f, %.0f", most(rs, name, "allocs/op"), most(rs, name, "B/op"))
	})
	wide := append(slices.Clone(sizes), "65536")
	parts := []string{"ghash", "encrypt"}
	table("Seal over the plain block: share of the time", wide, []string{
		"GHASH, Key.SumGCM (BenchmarkParts/ghash)", "the block's Encrypt, n/16+1 blocks (BenchmarkParts/encrypt)",
	}, func(i int, n string) string {
		s, best := ratio(rs, "Parts/"+parts[i]+"/"+n, "Seal/ours/"+n)
		return fmt.Sprintf("%s, best %.2f", s, best)
	})
	rows := []string{"SealOpen/ours", "SealOpen/stdlib", "SealOpen/ours-aes", "SealOpen/stdlib-aes", "Seal/ours", "Seal/stdlib", "Parts/ghash", "Parts/encrypt"}
	table("cpu-ns/op, median (lowest-highest)", wide, rows, func(i int, n string) string {
		if s := benchline.Summarize(slices.DeleteFunc(cpus(rs, rows[i]+"/"+n), math.IsNaN)); s != (benchline.Stat{}) {
			return fmt.Sprintf("%.0f (%.0f-%.0f)", s.Med, s.Lo, s.Hi)
		}
		return ""
	})
}

// table prints a table after a blank line: title and the sizes cols (in
// bytes) head it, then each row, labelled by rows[i], has cell(i, n) in
// the column of size n.
func table(title string, cols, rows []string, cell func(i int, n string) string) {
	fmt.Println()
	head := benchline.Map(cols, func(n string) string { return n + " B" })
	benchline.Table(title, head, rows, func(i, j int) string { return cell(i, cols[j]) })
}
