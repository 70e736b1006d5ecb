// Readmetables measures this machine and rewrites the README's speed
// tables with the figures: the block between the lines
//
//	<!-- BEGIN readme-tables -->
//	<!-- END readme-tables -->
//
// A maintainer on another CPU refreshes them with one command, make
// readme-tables, and never edits them by hand.
//
//	go -C gen run ./tools/readmetables [-rounds 8] [-benchtime 100ms] [-readme ../README.md] [-print]
//
// What it measures, in one interleaved run: each round runs every
// measurement once, in turn, so that a slow moment of the shared machine
// falls on one round of every measurement rather than on all rounds of
// one. A cell is the ratio of two implementations' times, the other's over
// ours (above 1, ours is faster): the median of the rounds' own ratios,
// and in parentheses the ratio of their best rounds. The implementations:
//
//   - SHA-1: sha1.Sum against crypto/sha1.Sum (BenchmarkSum) in each CPU
//     class that GODEBUG selects for both packages, and against OpenSSL's
//     SHA-1 (`openssl speed -evp sha1`) with the same extensions masked
//     by OPENSSL_ia32cap;
//   - SumMany: a loop of sha1.Sum against each multi-lane kernel
//     (BenchmarkSumMany);
//   - GHASH: Key.SumGCM and the kernels' update loop (BenchmarkKeySumGCM,
//     BenchmarkUpdate) against `openssl speed ghash`, and the generic kernel
//     against crypto/cipher's portable GCM (BenchmarkStdlibGHASH) built by
//     the installed Go and by the newest (-newest), whose GHASH differs;
//   - GCM: gcm's Seal then Open against crypto/cipher's GCM over the same
//     AES block hidden in a plain cipher.Block (its generic code, as for
//     any cipher but crypto/aes's), and for a bare crypto/aes block (which
//     gcm hands to crypto/cipher), built by both Go versions
//     (BenchmarkSealOpen), with their allocations.
//
// Every side is timed by the wall clock (`openssl speed -elapsed`, and Go's
// ns/op). Rows whose kernel this CPU cannot run are left out. The caption
// names the CPU, the Go and OpenSSL versions and the date.
package main

import (
	"bytes"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"log"
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
	"github.com/simdhash/simdhash/internal/cpuid"
)

var (
	rounds    = flag.Int("rounds", 8, "interleaved rounds")
	benchtime = flag.String("benchtime", "100ms", "-test.benchtime of each Go benchmark")
	readme    = flag.String("readme", "../README.md", "the README to rewrite")
	newest    = flag.String("newest", cmp.Or(os.Getenv("NEWEST_GO"), "go1.27.3"), "the newest Go release (GOTOOLCHAIN), for the generic GHASH row")
	printOnly = flag.Bool("print", false, "print the block instead of rewriting the README")
)

const (
	begin = "<!-- BEGIN readme-tables -->"
	end   = "<!-- END readme-tables -->"
)

// The SHA-1 classes: a GODEBUG that both packages obey alike, our kernel
// in it (forced by the benchmark), and the OPENSSL_ia32cap mask that gives
// OpenSSL the same extensions (../shared/FACTS.md has the bits: CPUID.1
// ECX bit 28 is AVX, CPUID.7 EBX bit 5 AVX2 and bit 29 SHA).
var sha1Classes = []struct {
	label, godebug, kernel, opensslCap string
}{
	{"SHA-NI", "", "shani", ""},
	{"AVX2, no SHA-NI", "cpu.sha=off", "avx2", ":~0x20000000"},
	{"AVX", "cpu.sha=off,cpu.avx2=off", "avx", ":~0x20000020"},
	{"SSSE3", "cpu.sha=off,cpu.avx2=off", "ssse3", "~0x1000000000000000:~0x20000020"},
}

var (
	sha1Sizes  = []int{64, 1024, 8192}
	ghashSizes = []int{16, 64, 1024, 8192}
	manyWorks  = []string{"16x8KiB", "1000xrand16KiB", "gitblobs"}
	ghashNames = []string{"vpclmul512", "vpclmul256", "pclmul", "pclmul-sse"}
	gcmImpls   = []string{"ours", "stdlib", "ours-aes", "stdlib-aes"}
)

// times holds every measurement's time per operation in each round,
// NaN where a round has none, by key: "BINARY GODEBUG|benchmark name" or
// "openssl CAP|alg|bytes".
type times map[string][]float64

func (t times) add(key string, round int, ns float64) {
	v := t[key]
	for len(v) <= round {
		v = append(v, math.NaN())
	}
	v[round] = ns
	t[key] = v
}

// cell formats the median of the rounds' ratios other/ours and the ratio
// of the best rounds for a table, "—" where either side has no round.
func (t times) cell(other, ours string) string {
	s, best, ok := benchline.Ratio(t[other], t[ours])
	if !ok {
		return "—"
	}
	return fmt.Sprintf("%.2f (%.2f)", s.Med, best)
}

// has reports whether key was measured in every round.
func (t times) has(key string) bool {
	v := t[key]
	return len(v) == *rounds && !slices.ContainsFunc(v, math.IsNaN)
}

// A binary is a test binary built once.
type binary struct {
	name, pkg, toolchain string
	path, dir            string
}

func (b *binary) build(root, tmp string) error {
	b.path = filepath.Join(tmp, b.name+".test")
	b.dir = filepath.Join(root, b.pkg)
	cmd := exec.Command("go", "test", "-c", "-o", b.path, "./"+b.pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN="+b.toolchain)
	cmd.Stderr = os.Stderr
	return cmd.Run()
}

// bench runs the benchmarks of b that pattern matches, with GODEBUG, and
// records each result's ns/op (and, for the git workload, files/s as
// ns per file under the key with " files" appended) for round r.
func (b *binary) bench(t times, r int, godebug, pattern string) error {
	cmd := exec.Command(b.path, "-test.run", "^$", "-test.bench", pattern, "-test.benchtime", *benchtime, "-test.benchmem")
	cmd.Dir = b.dir
	cmd.Env = append(os.Environ(), "GODEBUG="+godebug)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s -test.bench %s (GODEBUG=%s): %v\n%s", b.name, pattern, godebug, err, out.String())
	}
	for line := range strings.Lines(out.String()) {
		res, ok := benchline.Parse(strings.TrimSpace(line))
		if !ok {
			continue
		}
		key := b.name + " " + godebug + "|" + res.Name
		if ns, ok := res.Metric("ns/op"); ok {
			t.add(key, r, ns)
		}
		if fps, ok := res.Metric("files/s"); ok {
			t.add(key+" files", r, 1e9/fps)
		}
		if allocs, ok := res.Metric("allocs/op"); ok {
			t.add(key+" allocs", r, allocs)
		}
	}
	return nil
}

// openssl runs `openssl speed` on one algorithm and size for round r.
func openssl(t times, r int, cap, alg string, n int) error {
	args := []string{"speed", "-elapsed", "-seconds", "1", "-bytes", strconv.Itoa(n)}
	if alg == "sha1" {
		args = append(args, "-evp")
	}
	cmd := exec.Command("openssl", append(args, alg)...)
	cmd.Env = os.Environ()
	if cap != "" {
		cmd.Env = append(cmd.Env, "OPENSSL_ia32cap="+cap)
	}
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("openssl %s: %v", strings.Join(args, " "), err)
	}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == alg && strings.HasSuffix(f[1], "k") {
			kbs, err := strconv.ParseFloat(strings.TrimSuffix(f[1], "k"), 64)
			if err != nil || kbs <= 0 {
				break
			}
			t.add(opensslKey(cap, alg, n), r, float64(n)/(kbs*1000)*1e9)
			return nil
		}
	}
	return fmt.Errorf("openssl %s: no result line for %s in\n%s", strings.Join(args, " "), alg, out)
}

func opensslKey(cap, alg string, n int) string {
	return "openssl " + cap + "|" + alg + "|" + strconv.Itoa(n)
}

func alternatives(names []string) string {
	return "^(" + strings.Join(names, "|") + ")$"
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("readmetables: ")
	flag.Parse()
	if runtime.GOARCH != "amd64" {
		log.Fatalf("the measured tables are of the amd64 kernels; this is %s", runtime.GOARCH)
	}
	if _, err := exec.LookPath("openssl"); err != nil {
		log.Fatal("no openssl command (Debian: apt-get install openssl)")
	}
	root, err := filepath.Abs(filepath.Dir(*readme))
	if err != nil {
		log.Fatal(err)
	}
	tmp, err := os.MkdirTemp("", "readmetables")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)

	sha1Bin := &binary{name: "sha1", pkg: "sha1", toolchain: "local"}
	ghashBin := &binary{name: "ghash", pkg: "ghash", toolchain: "local"}
	ghashNewest := &binary{name: "ghash-newest", pkg: "ghash", toolchain: *newest}
	gcmBin := &binary{name: "gcm", pkg: "gcm", toolchain: "local"}
	gcmNewest := &binary{name: "gcm-newest", pkg: "gcm", toolchain: *newest}
	for _, b := range []*binary{sha1Bin, ghashBin, ghashNewest, gcmBin, gcmNewest} {
		if err := b.build(root, tmp); err != nil {
			log.Fatalf("building %s's tests (GOTOOLCHAIN=%s): %v", b.pkg, b.toolchain, err)
		}
	}

	t := times{}
	start := time.Now()
	for r := range *rounds {
		steps := []func() error{}
		for _, c := range sha1Classes {
			steps = append(steps,
				func() error {
					return sha1Bin.bench(t, r, c.godebug, "^BenchmarkSum$/"+alternatives([]string{c.kernel, "crypto-sha1"})+"/"+alternatives(benchline.Map(sha1Sizes, strconv.Itoa)))
				},
				func() error { return openssl(t, r, c.opensslCap, "sha1", 8192) })
		}
		steps = append(steps, func() error {
			return sha1Bin.bench(t, r, "", "^BenchmarkSumMany$/"+alternatives(benchline.Map(manyWorks, func(w string) string { return "work=" + w }))+"/")
		})
		for _, b := range []*binary{ghashBin, ghashNewest} {
			steps = append(steps, func() error {
				return b.bench(t, r, "", "^(BenchmarkKeySumGCM|BenchmarkStdlibGHASH)$/^(generic|16|64|1024|8192)$")
			})
		}
		steps = append(steps,
			func() error {
				return ghashBin.bench(t, r, "", "^BenchmarkKeySumGCM$/"+alternatives(ghashNames)+"/"+alternatives(benchline.Map(ghashSizes, strconv.Itoa)))
			},
			func() error {
				return ghashBin.bench(t, r, "", "^BenchmarkUpdate$/"+alternatives(benchline.Map(ghashSizes, strconv.Itoa))+"/"+alternatives(ghashNames))
			})
		for _, n := range ghashSizes {
			steps = append(steps, func() error { return openssl(t, r, "", "ghash", n) })
		}
		for _, b := range []*binary{gcmBin, gcmNewest} {
			steps = append(steps, func() error { return b.bench(t, r, "", "^BenchmarkSealOpen$/"+alternatives(gcmImpls)+"/") })
		}
		// Alternate the order of the rounds, so that no measurement always
		// runs first or last.
		if r%2 == 1 {
			slices.Reverse(steps)
		}
		for _, s := range steps {
			if err := s(); err != nil {
				log.Fatal(err)
			}
		}
		log.Printf("round %d of %d done (%s)", r+1, *rounds, time.Since(start).Round(time.Second))
	}

	block := tables(t, caption(ghashNewest))
	if *printOnly {
		fmt.Print(block)
		return
	}
	if err := rewrite(*readme, block); err != nil {
		log.Fatal(err)
	}
	log.Printf("rewrote the tables of %s", *readme)
}

// caption names what the figures were measured on and how.
func caption(newest *binary) string {
	goVersion := strings.TrimPrefix(runtime.Version(), "go")
	if out, err := exec.Command("go", "env", "GOVERSION").Output(); err == nil {
		goVersion = strings.TrimPrefix(strings.TrimSpace(string(out)), "go")
	}
	ossl := "OpenSSL"
	if out, err := exec.Command("openssl", "version").Output(); err == nil {
		if f := strings.Fields(string(out)); len(f) >= 2 {
			ossl = f[0] + " " + f[1]
		}
	}
	return fmt.Sprintf("Measured on %s, Go %s (%s where named), %s, %s, by `make readme-tables`: "+
		"%d interleaved rounds, Go benchmarks of %s. Each cell is the other's time over ours (above 1, ours "+
		"is faster): the median of the rounds' own ratios, and in parentheses the ratio of the best rounds.",
		cpuid.Describe(runtime.NumCPU()), goVersion, newest.toolchain, ossl, time.Now().UTC().Format("2006-01-02"),
		*rounds, *benchtime)
}

// tables writes the block of tables from the measurements.
func tables(t times, caption string) string {
	var w strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&w, format+"\n", args...) }
	p("%s", begin)
	p("<!-- Written by gen/tools/readmetables (make readme-tables): edit the tool, not these lines. -->")
	p("")
	p("%s", caption)
	p("")
	p("**SHA-1**, in each CPU class that GODEBUG selects for both packages:")
	p("")
	p("| CPU class (GODEBUG) | ours | vs crypto/sha1 at 64 B / 1 KiB / 8 KiB | vs OpenSSL at 8 KiB | OpenSSL's OPENSSL_ia32cap |")
	p("|---|---|---|---|---|")
	for _, c := range sha1Classes {
		key := func(impl string, n int) string {
			return fmt.Sprintf("sha1 %s|BenchmarkSum/%s/%d", c.godebug, impl, n)
		}
		if !t.has(key(c.kernel, 8192)) {
			continue
		}
		std := benchline.Map(sha1Sizes, func(n int) string { return t.cell(key("crypto-sha1", n), key(c.kernel, n)) })
		godebug := ""
		if c.godebug != "" {
			godebug = " (`" + c.godebug + "`)"
		}
		capText := "(none)"
		if c.opensslCap != "" {
			capText = "`" + c.opensslCap + "`"
		}
		p("| %s%s | `%s` | %s | %s | %s |", c.label, godebug, c.kernel, strings.Join(std, " / "),
			t.cell(opensslKey(c.opensslCap, "sha1", 8192), key(c.kernel, 8192)), capText)
	}
	p("")
	p("crypto/sha1 runs its SHA-NI code in the first class, its AVX2 code from 256 bytes up in the")
	p("second, and portable Go in the others. OpenSSL's SHA-1 takes its AVX path only on Intel CPUs;")
	p("elsewhere the AVX mask gives its SSSE3 path.")
	p("")
	p("**SumMany**, a loop of `Sum` (with the kernel `Kernel` reports) over `SumMany` with each multi-lane kernel:")
	p("")
	p("| kernel | 16 x 8 KiB | 1000 messages of 0..16 KiB | the Go tree's files as git blobs (files per second) |")
	p("|---|---|---|---|")
	for _, k := range []string{"avx512x16", "avx2x8", "shanix4", "shanix3", "shanix2"} {
		key := func(work, impl string) string {
			return fmt.Sprintf("sha1 |BenchmarkSumMany/work=%s/impl=%s", work, impl)
		}
		if !t.has(key(manyWorks[0], k)) {
			continue
		}
		cells := benchline.Map(manyWorks[:2], func(work string) string { return t.cell(key(work, "Sum-loop"), key(work, k)) })
		blobs := t.cell(key("gitblobs", "Sum-loop"), key("gitblobs", k))
		if files, ok := best(t, key("gitblobs", k)+" files"); ok {
			loop, _ := best(t, key("gitblobs", "Sum-loop")+" files")
			blobs += fmt.Sprintf(": %.0fk against %.0fk", 1e6/files, 1e6/loop)
		}
		p("| `%s` | %s | %s | %s |", k, cells[0], cells[1], blobs)
	}
	p("")
	p("**GHASH**, on a key made once, against `openssl speed ghash` (which times updates on a key set")
	p("once) at 16 B / 64 B / 1 KiB / 8 KiB:")
	p("")
	p("| ours | `Key.SumGCM` (a GMAC: length block and result included) | the update loop alone |")
	p("|---|---|---|")
	for _, k := range ghashNames {
		if !t.has(fmt.Sprintf("ghash |BenchmarkKeySumGCM/%s/8192", k)) {
			continue
		}
		var sum, upd []string
		for _, n := range ghashSizes {
			o := opensslKey("", "ghash", n)
			sum = append(sum, t.cell(o, fmt.Sprintf("ghash |BenchmarkKeySumGCM/%s/%d", k, n)))
			upd = append(upd, t.cell(o, fmt.Sprintf("ghash |BenchmarkUpdate/%d/%s", n, k)))
		}
		p("| `%s` | %s | %s |", k, strings.Join(sum, " / "), strings.Join(upd, " / "))
	}
	p("")
	p("`generic` (constant-time Go, no tables) against crypto/cipher's portable GCM over a cipher that is")
	p("not crypto/aes's (BenchmarkStdlibGHASH: its GHASH, with the data as additional data), both built")
	p("by the same Go, at 16 B / 64 B / 1 KiB / 8 KiB:")
	p("")
	p("| built by | Go's portable GHASH | vs ours |")
	p("|---|---|---|")
	for _, b := range []struct{ name, label, what string }{
		{"ghash", "the installed Go", "a variable-time 4-bit table (Go 1.26 and earlier)"},
		{"ghash-newest", "`" + *newest + "`", "constant-time integer multiplies (from Go 1.27)"},
	} {
		cells := benchline.Map(ghashSizes, func(n int) string {
			return t.cell(fmt.Sprintf("%s |BenchmarkStdlibGHASH/%d", b.name, n),
				fmt.Sprintf("%s |BenchmarkKeySumGCM/generic/%d", b.name, n))
		})
		p("| %s | %s | %s |", b.label, b.what, strings.Join(cells, " / "))
	}
	p("")
	p("**GCM**, Seal then Open (ghash kernel `%s`, the one `ghash.Kernel` names here), crypto/cipher's", ghashKernel(t))
	p("time over `gcm`'s at 64 B / 1 KiB / 8 KiB: over AES hidden in a plain `cipher.Block`, where")
	p("crypto/cipher runs its generic GCM (as for SM4, ARIA, Camellia, ...), and over a bare crypto/aes")
	p("block, for which `gcm.New` returns crypto/cipher's own AES-GCM:")
	p("")
	p("| built by | plain block: generic GCM vs ours | allocations per Seal+Open (ours, crypto/cipher's) | bare AES block: crypto/cipher vs gcm.New |")
	p("|---|---|---|---|")
	for _, b := range []struct{ name, label string }{{"gcm", "the installed Go"}, {"gcm-newest", "`" + *newest + "`"}} {
		key := func(impl string, n int) string { return fmt.Sprintf("%s |BenchmarkSealOpen/%s/%d", b.name, impl, n) }
		var plain, bare []string
		for _, n := range gcmSizes {
			plain = append(plain, t.cell(key("stdlib", n), key("ours", n)))
			bare = append(bare, t.cell(key("stdlib-aes", n), key("ours-aes", n)))
		}
		ours, _ := best(t, key("ours", 8192)+" allocs")
		std, _ := best(t, key("stdlib", 8192)+" allocs")
		p("| %s | %s | %.0f, %.0f | %s |", b.label, strings.Join(plain, " / "), ours, std, strings.Join(bare, " / "))
	}
	p("%s", end)
	return w.String()
}

var gcmSizes = []int{64, 1024, 8192}

// ghashKernel names the kernel the ghash benchmarks' process chose: the
// fastest kernel of BenchmarkUpdate that ran, as ghash dispatches.
func ghashKernel(t times) string {
	for _, k := range ghashNames {
		if t.has(fmt.Sprintf("ghash |BenchmarkUpdate/8192/%s", k)) {
			return k
		}
	}
	return "generic"
}

// best returns the least time of key over the rounds.
func best(t times, key string) (float64, bool) {
	b := slices.Min(append(slices.DeleteFunc(slices.Clone(t[key]), math.IsNaN), math.Inf(1)))
	return b, !math.IsInf(b, 1)
}

// rewrite replaces the block between begin and end in the file.
func rewrite(path, block string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(b)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		return errors.New(path + ": no " + begin + " ... " + end + " block to rewrite")
	}
	s = s[:i] + strings.TrimSuffix(block, "\n") + s[j+len(end):]
	return os.WriteFile(path, []byte(s), 0o644)
}
