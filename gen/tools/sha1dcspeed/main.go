// Command sha1dcspeed measures issue 22's ratios on this machine: sha1dc
// against this project's plain sha1 in every amd64 kernel class (each
// selected with GODEBUG, both packages in the same run), against
// github.com/pjbgf/sha1cd v0.7.0, and sha1dc.SumMany against a loop of
// sha1cd.Sum and against sha1.SumMany, from the benchmarks of
// gen/internal/sha1dccheck: on the patterned bytes of BenchmarkSum, which
// flag no block, and on the random bytes of BenchmarkSumRandom, of which a
// few blocks are recompressed. It builds the test binary once and runs
// the classes in turn, -rounds times, and prints for each ratio the median
// over the rounds of that round's ratio (the other's time over ours:
// above 1 is faster) with the range, and the ratio of the best times.
// Run it alone on the machine (scripts say `bench`).
//
//	go -C gen run ./tools/sha1dcspeed [-rounds 8] [-benchtime 300ms]
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/simdhash/simdhash/gen/internal/benchline"
	"github.com/simdhash/simdhash/internal/cpuid"
)

// classes are the amd64 kernel classes: the GODEBUG that selects each, on
// a CPU with all of them.
var classes = []struct{ name, godebug string }{
	{"shani", ""},
	{"shani-avx", "cpu.avx512=off"},
	{"shani-sse", "cpu.avx=off"},
	{"avx2", "cpu.sha=off"},
	{"avx", "cpu.sha=off,cpu.avx2=off"},
	{"ssse3", "cpu.sha=off,cpu.avx=off"},
}

func main() {
	rounds := flag.Int("rounds", 8, "rounds of every class")
	benchtime := flag.String("benchtime", "300ms", "-test.benchtime of each benchmark")
	flag.Parse()
	dir, err := os.MkdirTemp("", "sha1dcspeed")
	check(err)
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "sha1dccheck.test")
	build := exec.Command("go", "test", "-c", "-o", bin, "./internal/sha1dccheck")
	build.Stderr = os.Stderr
	check(build.Run())
	pkg, err := filepath.Abs("internal/sha1dccheck")
	check(err)

	// times[class][benchmark] are the rounds' ns/op, the kernel names cut
	// from the benchmarks' names ("Sum/sha1dc/8192").
	times := map[string]map[string][]float64{}
	for r := 0; r < *rounds; r++ {
		for _, c := range classes {
			bench := "BenchmarkSum"
			if c.godebug == "" || c.godebug == "cpu.avx512=off" {
				bench = "BenchmarkSum|BenchmarkSumMany"
			}
			os.Setenv("GODEBUG", c.godebug)
			res, err := benchline.Run(bin, pkg, "-test.run", "^$", "-test.bench", bench, "-test.benchtime", *benchtime)
			check(err)
			if times[c.name] == nil {
				times[c.name] = map[string][]float64{}
			}
			for _, x := range res {
				ns, _ := x.Metric("ns/op")
				times[c.name][key(x.Name)] = append(times[c.name][key(x.Name)], ns)
			}
		}
		fmt.Fprintf(os.Stderr, "sha1dcspeed: round %d of %d\n", r+1, *rounds)
	}

	fmt.Printf("%s, %d rounds of %s per benchmark\n\n", cpuid.Describe(runtime.NumCPU()), *rounds, *benchtime)
	fmt.Println("| class | ratio | data | median | rounds | best/best |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, c := range classes {
		for _, data := range []string{"Sum", "SumRandom"} {
			for _, size := range []string{"64", "8192"} {
				row(times[c.name], c.name, "sha1dc.Sum / sha1.Sum, "+size+" B", data, data+"/sha1dc/"+size, data+"/sha1/"+size)
			}
			if c.name == "shani" {
				row(times[c.name], c.name, "sha1dc.Sum / sha1cd.Sum, 8 KiB", data, data+"/sha1dc/8192", data+"/sha1cd/8192")
			}
		}
		if _, ok := times[c.name]["SumMany/sha1dc"]; ok {
			row(times[c.name], c.name, "SumMany / loop of sha1cd.Sum", "1000 random", "SumMany/sha1dc", "SumMany/sha1cd-loop")
			row(times[c.name], c.name, "SumMany / sha1.SumMany", "1000 random", "SumMany/sha1dc", "SumMany/sha1")
		}
	}
}

// key is a benchmark's name without "Benchmark" and with the kernel cut
// from "sha1dc-<kernel>" and "sha1-<kernel>".
func key(name string) string {
	parts := strings.Split(strings.TrimPrefix(name, "Benchmark"), "/")
	for i, p := range parts {
		if impl, _, ok := strings.Cut(p, "-"); ok && (impl == "sha1dc" || impl == "sha1") {
			parts[i] = impl
		}
	}
	return strings.Join(parts, "/")
}

// row prints the ratio of the other's time over ours.
func row(t map[string][]float64, class, what, data, ours, other string) {
	a, b := t[ours], t[other]
	if len(a) == 0 || len(a) != len(b) {
		fmt.Fprintf(os.Stderr, "sha1dcspeed: %s: no rounds of %s and %s\n", class, ours, other)
		return
	}
	s, best, _ := benchline.Ratio(b, a)
	fmt.Printf("| %s | %s | %s | %.2f | %.2f-%.2f | %.2f |\n", class, what, data, s.Med, s.Lo, s.Hi, best)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "sha1dcspeed:", err)
		os.Exit(1)
	}
}
