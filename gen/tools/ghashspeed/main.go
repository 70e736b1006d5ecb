// Ghashspeed measures the amd64 GHASH kernels against `openssl speed
// ghash` in one run, as ratios, and how close each kernel's main loop comes
// to the core's carry-less-multiply throughput.
//
// Each round runs `openssl speed -seconds S ghash` (a GMAC update on a key
// set once, at 16, 64, 256, 1024, 8192 and 16384 bytes) and then, in the
// ghash test binary, BenchmarkUpdate (each kernel's update on a key
// expanded once, the kernels in turn at each size), BenchmarkCLMUL (the
// multiplier's throughput at 128 and 256 bits) and BenchmarkCycles (the
// clock). With -base, a second test binary's benchmarks run in every round
// too, in the other order each round, and the report adds its tables and,
// per kernel and size, its time over ours (BenchmarkUpdate, and
// BenchmarkKeySumGCM if -bench takes it). Both sides are timed by CPU
// time, not the wall clock: OpenSSL's
// user time (its default), the benchmarks' thread CPU time (cpu-ns/op,
// internal/cycles.CPUTimer), so that what other processes take of a shared
// machine is not counted (-wall times both by the wall clock). A ratio is
// taken within each round, and the table prints the median over the
// rounds with the lowest and highest beside it, so that a busy machine
// shows as a wide range rather than as a wrong figure.
//
// The loop's share of the multiplier: the generated .s files give the
// number of (V)PCLMULQDQ instructions in one group of the kernel's widest
// loop and the bytes it absorbs; at 8192 bytes (whole groups only) the
// kernel's time then gives the instructions issued per ns, divided by the
// calibration's rate at the same width.
//
//	go test -c -o /tmp/ghash.test ./ghash
//	go -C gen run ./tools/ghashspeed -test /tmp/ghash.test -dir ghash
//
// scripts/ghash-kernels-speed.sh does both.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"log"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/simdhash/simdhash/gen/internal/benchline"
	"github.com/simdhash/simdhash/gen/internal/ghashloop"
)

var (
	testBin   = flag.String("test", "", "the ghash package's test binary (go test -c ./ghash)")
	dir       = flag.String("dir", "ghash", "the ghash package directory: the benchmarks run there and its .s files are read")
	rounds    = flag.Int("rounds", 10, "rounds of OpenSSL then the Go benchmarks")
	benchtime = flag.String("benchtime", "100ms", "-test.benchtime of each Go benchmark")
	osslSecs  = flag.Int("openssl-seconds", 1, "-seconds of each openssl speed size")
	bench     = flag.String("bench", "^(BenchmarkUpdate|BenchmarkCLMUL|BenchmarkCycles)$", "-test.bench pattern")
	wall      = flag.Bool("wall", false, "time by the wall clock on both sides (openssl speed -elapsed, the benchmarks' ns/op) instead of CPU time")
	baseBin   = flag.String("base", "", "another ghash test binary (say, of the kernels before a change) to time in the same rounds, each round in the other order, and compare with")
	baseDir   = flag.String("base-dir", "", "the ghash directory of -base's generated files, for its loops' multiplies (default: -dir)")
)

// opensslSizes are the sizes `openssl speed ghash` reports, in order.
var opensslSizes = []int{16, 64, 256, 1024, 8192, 16384}

// round is one round's measurements.
type round struct {
	openssl  map[int]float64    // size -> bytes/ns
	update   map[string]float64 // "kernel/size" -> ns/op
	sum      map[string]float64 // BenchmarkKeySumGCM's, if run: "kernel/size" -> ns/op
	nsPerClm map[string]float64 // width -> ns per instruction
	nsPerCyc float64
	base     *round // -base's benchmarks in the same round
}

func newRound() round {
	return round{update: map[string]float64{}, sum: map[string]float64{}, nsPerClm: map[string]float64{}}
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("ghashspeed: ")
	flag.Parse()
	if *testBin == "" {
		log.Fatal("-test is required (go test -c -o /tmp/ghash.test ./ghash)")
	}
	bin, err := filepath.Abs(*testBin)
	if err != nil {
		log.Fatal(err)
	}
	base := ""
	if *baseBin != "" {
		if base, err = filepath.Abs(*baseBin); err != nil {
			log.Fatal(err)
		}
	}
	var rs []round
	for i := 0; i < *rounds; i++ {
		fmt.Fprintf(os.Stderr, "ghashspeed: round %d of %d\n", i+1, *rounds)
		r := newRound()
		r.openssl = openssl()
		if base == "" {
			goBench(bin, &r)
		} else {
			b := newRound()
			b.openssl = r.openssl
			if i%2 == 0 {
				goBench(bin, &r)
				goBench(base, &b)
			} else {
				goBench(base, &b)
				goBench(bin, &r)
			}
			r.base = &b
		}
		rs = append(rs, r)
	}
	report(rs)
	if base != "" {
		bs := benchline.Map(rs, func(r round) round { return *r.base })
		fmt.Println()
		fmt.Printf("The same rounds, -base (%s):\n\n", *baseBin)
		if *baseDir != "" {
			*dir = *baseDir
		}
		report(bs)
		reportBase(rs)
	}
}

// reportBase prints, per kernel and size, -base's time over ours in each
// round (above 1: ours is faster), for BenchmarkUpdate and, if it ran,
// BenchmarkKeySumGCM.
func reportBase(rs []round) {
	for _, bench := range []struct {
		name string
		get  func(r round) map[string]float64
	}{{"BenchmarkUpdate", func(r round) map[string]float64 { return r.update }}, {"BenchmarkKeySumGCM", func(r round) map[string]float64 { return r.sum }}} {
		kernels, sizes := keys(bench.get(rs[0]))
		if len(kernels) == 0 {
			continue
		}
		fmt.Println()
		fmt.Printf("%s against -base (its time / ours, per round; then its fastest round over ours):\n\n", bench.name)
		sizeTable(sizes, kernels, func(k string, n int) string {
			key := fmt.Sprintf("%s/%d", k, n)
			speed := func(get func(r round) map[string]float64) func(r round) (float64, bool) {
				return func(r round) (float64, bool) { t, ok := get(r)[key]; return 1 / t, ok && t > 0 }
			}
			ours := best(rs, speed(bench.get))
			theirs := best(rs, speed(func(r round) map[string]float64 { return bench.get(*r.base) }))
			return fmt.Sprintf("%s, %.2f", perRound(rs, func(r round) (float64, bool) {
				ours, ok := bench.get(r)[key]
				theirs, okb := bench.get(*r.base)[key]
				return theirs / ours, ok && okb && ours > 0
			}), ours/theirs)
		})
	}
}

// keys returns the kernels and the sizes of the "kernel/size" keys of ms,
// each once, sorted.
func keys(ms ...map[string]float64) (kernels []string, sizes []int) {
	ks, ns := map[string]bool{}, map[int]bool{}
	for _, m := range ms {
		for k := range m {
			name, size, _ := strings.Cut(k, "/")
			n, _ := strconv.Atoi(size)
			ks[name], ns[n] = true, true
		}
	}
	return slices.Sorted(maps.Keys(ks)), slices.Sorted(maps.Keys(ns))
}

// sizeTable prints a table of a row per size and a column per kernel,
// cell giving each cell.
func sizeTable(sizes []int, kernels []string, cell func(k string, n int) string) {
	benchline.Table("bytes", kernels, benchline.Map(sizes, strconv.Itoa), func(i, j int) string { return cell(kernels[j], sizes[i]) })
}

// openssl runs `openssl speed ghash` and returns bytes/ns per size.
func openssl() map[int]float64 {
	args := []string{"speed", "-seconds", strconv.Itoa(*osslSecs)}
	if *wall {
		args = append(args, "-elapsed")
	}
	out, err := exec.Command("openssl", append(args, "ghash")...).Output()
	if err != nil {
		log.Fatal("openssl speed ghash: " + err.Error())
	}
	res := map[int]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 1+len(opensslSizes) || f[0] != "ghash" {
			continue
		}
		for i, s := range opensslSizes {
			v, err := strconv.ParseFloat(strings.TrimSuffix(f[1+i], "k"), 64)
			if err != nil {
				log.Fatal("openssl output: " + sc.Text())
			}
			res[s] = v * 1000 / 1e9 // 1000s of bytes per second -> bytes per ns
		}
	}
	if len(res) == 0 {
		log.Fatal("no ghash line in openssl's output:\n" + string(out))
	}
	return res
}

// goBench runs the Go benchmarks once into r.
func goBench(bin string, r *round) {
	results, err := benchline.Run(bin, *dir, "-test.run", "^$", "-test.bench", *bench, "-test.benchtime", *benchtime)
	if err != nil {
		log.Fatal(err)
	}
	for _, res := range results {
		name := strings.TrimPrefix(res.Name, "Benchmark")
		switch {
		case strings.HasPrefix(name, "Update/"):
			// Update/<size>/<kernel>, kept as "kernel/size".
			size, kernel, _ := strings.Cut(strings.TrimPrefix(name, "Update/"), "/")
			r.update[kernel+"/"+size] = cpuOr(res, "ns/op")
		case strings.HasPrefix(name, "KeySumGCM/"):
			// KeySumGCM/<kernel>/<size>, as it is.
			r.sum[strings.TrimPrefix(name, "KeySumGCM/")] = cpuOr(res, "ns/op")
		case strings.HasPrefix(name, "CLMUL/"):
			r.nsPerClm[strings.TrimPrefix(name, "CLMUL/")] = cpuOr(res, "ns/clmul")
		case name == "Cycles":
			r.nsPerCyc = cpuOr(res, "ns/cycle")
		}
	}
}

// cpuOr returns the CPU-time form of metric ("cpu-" prefixed, from
// internal/cycles.CPUTimer) where the benchmark reports it, else metric:
// `openssl speed` divides by its user CPU time too.
func cpuOr(res benchline.Result, metric string) float64 {
	if v, ok := res.Metric("cpu-" + metric); ok {
		return v
	}
	if *wall {
		v, _ := res.Metric(metric)
		return v
	}
	log.Fatal("no cpu-" + metric + " in the benchmark output (a platform without thread CPU time? use -wall)")
	return 0
}

// best returns the largest f over the rounds where it is defined (ok),
// or 0.
func best(rs []round, f func(r round) (float64, bool)) float64 {
	return slices.Max(append(benchline.Values(rs, f), 0))
}

// perRound collects f over the rounds where it is defined (ok).
func perRound(rs []round, f func(r round) (float64, bool)) benchline.Stat {
	return benchline.Summarize(benchline.Values(rs, f))
}

// loopCost returns the (V)PCLMULQDQ instructions and bytes of one group
// of kernel's widest loop, read from its generated file.
func loopCost(kernel string) (clmuls, bytesPerGroup int, ok bool) {
	k, found := ghashloop.Named(kernel)
	if !found {
		return 0, 0, false
	}
	l, err := ghashloop.Read(*dir, k)
	if err != nil {
		return 0, 0, false
	}
	clmuls = l.Count("PCLMULQDQ", "VPCLMULQDQ")
	return clmuls, l.Bytes(), clmuls > 0
}

func report(rs []round) {
	kernels, sizes := keys(benchline.Map(rs, func(r round) map[string]float64 { return r.update })...)
	bytesPerNs := func(r round, k string, n int) (float64, bool) {
		t, ok := r.update[fmt.Sprintf("%s/%d", k, n)]
		return float64(n) / t, ok && t > 0
	}

	fmt.Printf("%d rounds; cells are the median over the rounds, (lowest-highest).\n\n", len(rs))
	fmt.Println("Against `openssl speed ghash` (OpenSSL time / ours, per round):")
	fmt.Println()
	var cols []int // the sizes OpenSSL has too
	for _, n := range opensslSizes {
		if slices.Contains(sizes, n) {
			cols = append(cols, n)
		}
	}
	head := benchline.Map(cols, func(n int) string { return fmt.Sprintf("%d B", n) })
	// kernelTable prints a row per kernel of rows ("" is OpenSSL's), a
	// column per size of cols.
	kernelTable := func(rows []string, cell func(k string, n int) string) {
		labels := benchline.Map(rows, func(k string) string { return cmp.Or(k, "OpenSSL (MB/s)") })
		benchline.Table("kernel", head, labels, func(i, j int) string { return cell(rows[i], cols[j]) })
	}
	kernelTable(append([]string{""}, kernels...), func(k string, n int) string {
		if k == "" {
			return fmt.Sprintf("%.0f", perRound(rs, func(r round) (float64, bool) { return r.openssl[n] * 1000, true }).Med)
		}
		return perRound(rs, func(r round) (float64, bool) {
			v, ok := bytesPerNs(r, k, n)
			return v / r.openssl[n], ok
		}).String()
	})

	fmt.Println()
	fmt.Println("Best against best (the fastest round's OpenSSL over our fastest round's; noise only slows):")
	fmt.Println()
	kernelTable(kernels, func(k string, n int) string {
		ours := best(rs, func(r round) (float64, bool) { return bytesPerNs(r, k, n) })
		theirs := best(rs, func(r round) (float64, bool) { return r.openssl[n], true })
		return fmt.Sprintf("%.2f", ours/theirs)
	})

	if slices.Contains(kernels, "pclmul") {
		fmt.Println()
		fmt.Println("Against pclmul (pclmul time / ours, per round):")
		fmt.Println()
		sizeTable(sizes, slices.DeleteFunc(slices.Clone(kernels), func(k string) bool { return k == "pclmul" }), func(k string, n int) string {
			return perRound(rs, func(r round) (float64, bool) {
				v, ok := bytesPerNs(r, k, n)
				p, okp := bytesPerNs(r, "pclmul", n)
				return v / p, ok && okp
			}).String()
		})
	}

	fmt.Println()
	fmt.Println("At 8192 bytes: speed, cycles/byte (clock from BenchmarkCycles), and the main loop's share")
	fmt.Println("of the multiplier's throughput (BenchmarkCLMUL at the loop's width):")
	fmt.Println()
	fmt.Println("| kernel | MB/s | cycles/byte | clmul per group | bytes per group | share of clmul throughput |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, k := range kernels {
		mbs := perRound(rs, func(r round) (float64, bool) {
			v, ok := bytesPerNs(r, k, 8192)
			return v * 1000, ok
		})
		cpb := perRound(rs, func(r round) (float64, bool) {
			t, ok := r.update[k+"/8192"]
			return t / 8192 / r.nsPerCyc, ok && r.nsPerCyc > 0
		})
		clm, gb, ok := loopCost(k)
		share := benchline.Stat{}
		if ok {
			kn, _ := ghashloop.Named(k)
			w := strconv.Itoa(kn.Width)
			share = perRound(rs, func(r round) (float64, bool) {
				t, okt := r.update[k+"/8192"]
				c, okc := r.nsPerClm[w]
				// instructions issued per ns over instructions per ns at full rate
				return float64(clm) / float64(gb) * 8192 / t * c, okt && okc && c > 0
			})
		}
		fmt.Printf("| %s | %.0f | %s | %d | %d | %s |\n", k, mbs.Med, cpb, clm, gb, share)
	}
	fmt.Println()
	fmt.Printf("Clock: %s GHz; ns per instruction:", perRound(rs, func(r round) (float64, bool) { return 1 / r.nsPerCyc, r.nsPerCyc > 0 }))
	for _, w := range []string{"128", "256", "512"} {
		if s := perRound(rs, func(r round) (float64, bool) { c, ok := r.nsPerClm[w]; return c, ok }); s.Med > 0 {
			fmt.Printf(" %s-bit clmul %s;", w, s)
		}
	}
	fmt.Println()
}
