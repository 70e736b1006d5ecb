// Speedtable measures the SHA-1 implementations on this machine and prints
// a table in the style of the Linux kernel's tcrypt hash speed test
// (crypto/tcrypt.c, mode=303): message sizes 16 to 8192 bytes, each hashed
// in one update and in several smaller ones, in MB/s and cycles per byte.
// It also writes the figures as JSON, for gen/tools/plot.
//
//	go -C gen run ./tools/speedtable [-rounds 3] [-benchtime 100ms] [-out $PWD/docs/speed.json]
//
// The implementations: every kernel of package sha1 that this CPU can run,
// forced through the package's registry by sha1's TestSpeedTable (see
// sha1/speed_test.go), crypto/sha1, and, when the openssl command exists,
// OpenSSL's SHA-1 through `openssl speed -evp sha1 -bytes N -seconds 1`:
// its default dispatch, and its AVX2 and SSSE3 code paths selected with
// OPENSSL_ia32cap. OpenSSL hashes one N-byte buffer per operation and has
// no update patterns, so only its 1 x N rows are reported.
//
// The rounds alternate: TestSpeedTable (which itself runs every
// implementation on a pattern before the next pattern), then OpenSSL, then
// OpenSSL first in the next round, and so on. Each figure is the best of
// the rounds: on a shared machine, other work only ever slows a run down.
// Cycles come from the clock measured in the same round: TestSpeedTable
// times a chain of dependent ROLQ+XORQ pairs (two cycles a pair) between
// its measurements, and the round's clock is the fastest of those samples
// (other work can slow the chain down, nothing can speed it up).
package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/simdhash/simdhash/gen/internal/benchline"
	"github.com/simdhash/simdhash/gen/internal/speedreport"
	"github.com/simdhash/simdhash/internal/cpuid"
	"github.com/simdhash/simdhash/internal/speed"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("speedtable: ")
	rounds := flag.Int("rounds", 3, "rounds of measurements; each figure is the best of them")
	benchtime := flag.String("benchtime", "100ms", "time of one measurement of one of our implementations (-test.benchtime)")
	repo := flag.String("repo", "..", "the repository's root `directory`: the tool works there, and -out is relative to it (the default suits go -C gen run)")
	out := flag.String("out", "docs/speed.json", "write the figures as JSON to `file`")
	opensslCmd := flag.String("openssl", "openssl", "the openssl command; \"\" leaves OpenSSL out")
	seconds := flag.Int("seconds", 1, "openssl speed -seconds")
	flag.Parse()
	if *rounds < 1 || flag.NArg() != 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := os.Chdir(*repo); err != nil {
		log.Fatal(err)
	}
	if runtime.GOARCH != "amd64" {
		log.Fatalf("the SHA-1 kernels and the cycle calibration are amd64 code; this is %s", runtime.GOARCH)
	}

	tmp, err := os.MkdirTemp("", "speedtable")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "sha1.test")
	if err := run(os.Stderr, nil, "", "go", "test", "-c", "-o", bin, "./sha1"); err != nil {
		log.Fatalf("building the sha1 test binary: %v", err)
	}

	rep := &speedreport.Report{
		About: "SHA-1 throughput in the patterns of Linux's tcrypt speed test (make speed, gen/tools/speedtable); " +
			"MB/s is 10^6 bytes per second; cycles from a calibration loop in the same run; each figure is the best of the rounds",
		Date:      time.Now().UTC().Format("2006-01-02"),
		CPU:       cpuid.Describe(runtime.NumCPU()),
		Go:        runtime.Version(),
		Rounds:    *rounds,
		Benchtime: *benchtime,
		Clock: "sha1.TestSpeedTable times a chain of dependent ROLQ+XORQ pairs (2 cycles a pair, sha1/cycles_amd64_test.go) " +
			"before each message size and at the end; a round's clock is the fastest of its samples",
	}
	var openssl []speedreport.Impl
	if *opensslCmd != "" {
		if path, err := exec.LookPath(*opensslCmd); err == nil {
			v, _ := exec.Command(path, "version").Output()
			rep.OpenSSL = strings.TrimSpace(string(v))
			flags, _ := cpuid.CPUInfoFlags() // none (nil) where /proc/cpuinfo cannot be read
			openssl = opensslImpls(flags)
			*opensslCmd = path
		} else {
			fmt.Fprintf(os.Stderr, "speedtable: no %s command: OpenSSL left out\n", *opensslCmd)
		}
	}

	type cell struct {
		impl string
		p    speed.Pattern
	}
	best := map[cell]speedreport.Result{}
	keep := func(r speedreport.Result) {
		if b, ok := best[cell{r.Impl, r.Pattern}]; !ok || r.NsPerOp < b.NsPerOp {
			best[cell{r.Impl, r.Pattern}] = r
		}
	}
	var order []string // our implementations, in the registry's order
	var sizes []int    // the one-update sizes, from the first round
	for r := 1; r <= *rounds; r++ {
		var rd speed.Round
		var nsPerCycle float64
		ours := func() {
			fmt.Fprintf(os.Stderr, "speedtable: round %d/%d: sha1.TestSpeedTable, -test.benchtime %s per measurement\n", r, *rounds, *benchtime)
			file := filepath.Join(tmp, fmt.Sprintf("round%d.json", r))
			var testLog bytes.Buffer
			err := run(&testLog, []string{"SIMDHASH_SPEED=" + file}, "sha1", bin,
				"-test.run", "^TestSpeedTable$", "-test.count", "1", "-test.benchtime", *benchtime)
			if err != nil {
				log.Fatalf("TestSpeedTable: %v\n%s", err, testLog.Bytes())
			}
			b, err := os.ReadFile(file)
			if err == nil {
				err = json.Unmarshal(b, &rd)
			}
			if err != nil || len(rd.Results) == 0 || len(rd.NsPerCycle) == 0 {
				log.Fatalf("TestSpeedTable wrote no figures to %s: %v", file, err)
			}
			nsPerCycle = slices.Min(rd.NsPerCycle)
			sizes = oneUpdateSizes(rd)
			rep.ClockGHz = append(rep.ClockGHz, round3(1/nsPerCycle))
			rep.Skipped = rd.Skipped
			for _, x := range rd.Results {
				if !slices.Contains(order, x.Impl) {
					order = append(order, x.Impl)
				}
				keep(newResult(x.Impl, x.Pattern, x.NsPerOp, nsPerCycle, r))
			}
		}
		// OpenSSL needs this round's clock: in the rounds where it goes
		// first, its cycles are converted once TestSpeedTable has run.
		var pending []speedreport.Result
		theirs := func() {
			fmt.Fprintf(os.Stderr, "speedtable: round %d/%d: openssl speed -evp sha1 -seconds %d at %d sizes, %d code paths\n", r, *rounds, *seconds, len(sizes), len(openssl))
			for _, im := range openssl {
				for _, n := range sizes {
					bps, err := opensslSpeed(*opensslCmd, im.Env, n, *seconds)
					if err != nil {
						log.Fatalf("%s: %v", im.Name, err)
					}
					pending = append(pending, speedreport.Result{Impl: im.Name, Pattern: speed.Pattern{Updates: 1, UpdateSize: n}, NsPerOp: float64(n) / bps * 1e9, Round: r})
				}
			}
		}
		if r%2 == 1 || len(openssl) == 0 {
			ours()
			theirs()
		} else {
			theirs()
			ours()
		}
		for _, x := range pending {
			keep(newResult(x.Impl, x.Pattern, x.NsPerOp, nsPerCycle, r))
		}
	}

	for _, name := range order {
		im := speedreport.Impl{Name: name, Label: name + " (ours)", Kind: "kernel"}
		if name == "crypto/sha1" {
			im = speedreport.Impl{Name: name, Label: "crypto/sha1 (" + runtime.Version() + ")", Kind: "stdlib"}
		}
		rep.Impls = append(rep.Impls, im)
	}
	rep.Impls = append(rep.Impls, openssl...)
	set := map[speed.Pattern]bool{}
	for c := range best {
		set[c.p] = true
	}
	patterns := slices.SortedFunc(maps.Keys(set), func(a, b speed.Pattern) int {
		if a.Bytes() != b.Bytes() {
			return a.Bytes() - b.Bytes()
		}
		return a.Updates - b.Updates
	})
	for _, im := range rep.Impls {
		for _, p := range patterns {
			if r, ok := best[cell{im.Name, p}]; ok {
				rep.Results = append(rep.Results, r)
			}
		}
	}

	printTable(os.Stdout, rep, patterns)

	b, err := json.MarshalIndent(rep, "", "\t")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("\nThe figures are in %s (make plot draws them).\n", *out)
}

func newResult(name string, p speed.Pattern, nsPerOp, nsPerCycle float64, r int) speedreport.Result {
	n := float64(p.Bytes())
	return speedreport.Result{
		Impl: name, Pattern: p, Bytes: p.Bytes(), NsPerOp: round3(nsPerOp),
		MBPerS:        round3(n / nsPerOp * 1e3),
		CyclesPerOp:   round3(nsPerOp / nsPerCycle),
		CyclesPerByte: round3(nsPerOp / nsPerCycle / n),
		Round:         r,
	}
}

// round3 keeps three decimals, so that the JSON file stays readable.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// oneUpdateSizes returns the sizes TestSpeedTable measured in one update,
// in increasing order: those OpenSSL can be compared at.
func oneUpdateSizes(rd speed.Round) []int {
	sizes := map[int]bool{}
	for _, x := range rd.Results {
		if x.Updates == 1 {
			sizes[x.UpdateSize] = true
		}
	}
	return slices.Sorted(maps.Keys(sizes))
}

// opensslImpls lists the OpenSSL code paths to measure on a CPU with these
// /proc/cpuinfo flags. OPENSSL_ia32cap's first word masks CPUID(1).ECX:EDX
// (bit 28+32 = 60 is AVX), the second CPUID(7).EBX (bit 5 AVX2, bit 29 SHA).
func opensslImpls(flags map[string]bool) []speedreport.Impl {
	def := "default"
	switch {
	case flags["sha_ni"]:
		def += ", SHA-NI here"
	case flags["avx2"] && flags["bmi1"] && flags["bmi2"]:
		def += ", AVX2 here"
	case flags["avx"]:
		def += ", AVX here"
	case flags["ssse3"]:
		def += ", SSSE3 here"
	}
	impls := []speedreport.Impl{{Name: "openssl", Label: "OpenSSL (" + def + ")", Kind: "openssl"}}
	if flags["sha_ni"] && flags["avx2"] && flags["bmi1"] && flags["bmi2"] {
		impls = append(impls, speedreport.Impl{Name: "openssl-avx2", Label: "OpenSSL AVX2 (no SHA-NI)", Kind: "openssl", Env: "OPENSSL_ia32cap=:~0x20000000"})
	}
	if flags["ssse3"] && (flags["avx"] || flags["sha_ni"]) {
		impls = append(impls, speedreport.Impl{Name: "openssl-ssse3", Label: "OpenSSL SSSE3", Kind: "openssl", Env: "OPENSSL_ia32cap=~0x1000000000000000:~0x20000020"})
	}
	return impls
}

// opensslSpeed returns OpenSSL's SHA-1 throughput in bytes per second on
// n-byte buffers, from the +F line of `openssl speed -mr`.
func opensslSpeed(cmd, env string, n, seconds int) (float64, error) {
	var out bytes.Buffer
	var envs []string
	if env != "" {
		envs = []string{env}
	}
	args := []string{"speed", "-mr", "-evp", "sha1", "-bytes", strconv.Itoa(n), "-seconds", strconv.Itoa(seconds)}
	if err := run(&out, envs, "", cmd, args...); err != nil {
		return 0, fmt.Errorf("openssl %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	for _, line := range strings.Split(out.String(), "\n") {
		// +F:<type>:sha1:<bytes per second>
		if f := strings.Split(strings.TrimSpace(line), ":"); len(f) == 4 && f[0] == "+F" {
			if v, err := strconv.ParseFloat(f[3], 64); err == nil && v > 0 {
				return v, nil
			}
		}
	}
	return 0, fmt.Errorf("openssl %s: no +F line in its output:\n%s", strings.Join(args, " "), out.String())
}

// run runs name with args in dir (the repository root if ""), with env
// added to this process's environment; its output goes to w.
func run(w io.Writer, env []string, dir, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout = w
	cmd.Stderr = w
	return cmd.Run()
}

// printTable prints one tcrypt-style block per implementation, then the
// MB/s and cycles/byte of all of them side by side.
func printTable(w io.Writer, rep *speedreport.Report, patterns []speed.Pattern) {
	get := func(name string, p speed.Pattern) (speedreport.Result, bool) {
		for _, r := range rep.Results {
			if r.Impl == name && r.Pattern == p {
				return r, true
			}
		}
		return speedreport.Result{}, false
	}
	isTcrypt := func(p speed.Pattern) bool { return slices.Contains(speed.Tcrypt, p) }

	fmt.Fprintf(w, "SHA-1 speed, in the patterns of Linux's tcrypt hash speed test (modprobe tcrypt mode=303)\n")
	fmt.Fprintf(w, "%s; %s; %s\n", rep.CPU, rep.Go, cmp.Or(rep.OpenSSL, "no openssl"))
	fmt.Fprintf(w, "clock: %s GHz in the %d rounds, measured in this run: %s.\n", strings.Join(benchline.Map(rep.ClockGHz, func(x float64) string { return fmt.Sprintf("%.2f", x) }), ", "), rep.Rounds, rep.Clock)
	fmt.Fprintf(w, "MB/s = 10^6 bytes/s; cycles/byte = time x that round's clock / bytes. Each figure is the best of %d rounds\n", rep.Rounds)
	fmt.Fprintf(w, "(ours and crypto/sha1: %s per measurement, every implementation in turn on each pattern; OpenSSL between them).\n", rep.Benchtime)
	if len(rep.Skipped) > 0 {
		fmt.Fprintf(w, "Kernels this CPU cannot run, left out: %s.\n", strings.Join(rep.Skipped, ", "))
	}
	if rep.OpenSSL != "" {
		fmt.Fprintf(w, "OpenSSL: openssl speed -evp sha1 -bytes N -seconds 1; it hashes one N-byte buffer per operation and\n")
		fmt.Fprintf(w, "cannot do update patterns, so only its 1 x N rows are reported.\n")
	}
	for _, im := range rep.Impls {
		fmt.Fprintf(w, "\ntesting speed of sha1: %s", im.Label)
		if im.Env != "" {
			fmt.Fprintf(w, " [%s]", im.Env)
		}
		fmt.Fprintln(w)
		for i, p := range patterns {
			r, ok := get(im.Name, p)
			if !ok {
				continue
			}
			mark := ""
			if !isTcrypt(p) {
				mark = "  *"
			}
			fmt.Fprintf(w, "test %2d (%5d byte blocks, %5d bytes per update, %3d updates): %9.1f MB/s %9.0f cycles/operation %7.2f cycles/byte%s\n",
				i, p.Bytes(), p.UpdateSize, p.Updates, r.MBPerS, r.CyclesPerOp, r.CyclesPerByte, mark)
		}
	}
	fmt.Fprintf(w, "\n* not one of tcrypt's patterns: a one-update size for the plot.\n")

	for _, q := range []struct {
		title string
		f     func(speedreport.Result) string
	}{
		{"MB/s", func(r speedreport.Result) string { return fmt.Sprintf("%.0f", r.MBPerS) }},
		{"cycles/byte", func(r speedreport.Result) string { return fmt.Sprintf("%.2f", r.CyclesPerByte) }},
	} {
		fmt.Fprintf(w, "\n%s, side by side (tcrypt's patterns):\n", q.title)
		fmt.Fprintf(w, "%-16s", "bytes x updates")
		for _, im := range rep.Impls {
			fmt.Fprintf(w, " %13s", im.Name)
		}
		fmt.Fprintln(w)
		for _, p := range patterns {
			if !isTcrypt(p) {
				continue
			}
			fmt.Fprintf(w, "%-16s", fmt.Sprintf("%d = %dx%d", p.Bytes(), p.Updates, p.UpdateSize))
			for _, im := range rep.Impls {
				cell := "-"
				if r, ok := get(im.Name, p); ok {
					cell = q.f(r)
				}
				fmt.Fprintf(w, " %13s", cell)
			}
			fmt.Fprintln(w)
		}
	}
}
