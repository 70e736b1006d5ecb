// Ghashmca models the amd64 GHASH kernels' main loops, and OpenSSL's
// gcm_ghash_avx loop beside them, with llvm-mca, and derives each loop's
// floor on each model: the cycles per group that the ports' throughput
// alone allows.
//
// Each kernel's widest loop (one iteration absorbs one group) is taken
// from the ghash test binary with objdump, from the label the generated
// file names to the jump back to it, and OpenSSL's from the system's
// libcrypto: the one loop there of 8 VPSHUFB and 26 VPCLMULQDQ on XMM
// registers and no AES instruction (gcm_ghash_avx's 8-block loop; the
// library's symbols are stripped). llvm-mca runs each loop for
// -iterations on each model.
//
// The floor: every distinct instruction of a loop is run alone by
// llvm-mca on the model (four copies, so that it spreads over every port
// it may use), which gives the ports it may issue to and the cycles it
// takes of them. The loop's demand on a set S of ports is the cycles of
// its instructions that can issue only within S; S's bound is that
// demand over the number of ports in S, and the floor is the largest
// bound over every S (and the dispatch width's bound on the loop's
// micro-ops, if larger). A loop at its floor is as fast as its
// instructions allow on that model; to go lower it needs other
// instructions.
//
//	go test -c -o /tmp/ghash.test ./ghash
//	go -C gen run ./tools/ghashmca -test /tmp/ghash.test -dir ghash
//
// scripts/mca-ghash.sh does both.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"log"
	"maps"
	"math/bits"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/simdhash/simdhash/gen/internal/ghashloop"
)

var (
	testBin    = flag.String("test", "", "the ghash package's test binary (go test -c ./ghash)")
	dir        = flag.String("dir", "ghash", "the ghash package directory, whose generated files name the loops")
	libcrypto  = flag.String("libcrypto", "", "OpenSSL's libcrypto, for gcm_ghash_avx's loop (default: the one ldconfig -p names; none: leave it out)")
	mca        = flag.String("mca", "llvm-mca", "the llvm-mca command")
	iterations = flag.Int("iterations", 200, "llvm-mca -iterations")
	modelsFlag = flag.String("models", "skylake,icelake-server,znver3", "llvm-mca -mcpu models, comma-separated")
	kernelsArg = flag.String("kernels", "", "kernels to model, comma-separated (default: all)")
	detail     = flag.Bool("ports", true, "print each loop's cycles per set of ports on each model")
	keep       = flag.String("keep", "", "write each loop's instructions to this directory")
)

// A model runs a loop if the CPU it models has the loop's instructions:
// the 512-bit kernel needs AVX-512 (of these, icelake-server), the 256-bit
// one VPCLMULQDQ (icelake-server, znver3). llvm-mca 14 schedules the
// 256-bit VPCLMULQDQ on its skylake model all the same.
var runsOn = map[string][]string{
	"vpclmul256": {"icelake-server", "znver3"},
	"vpclmul512": {"icelake-server"},
}

// loop is one loop to model: its instructions in AT&T syntax and the
// bytes one iteration absorbs.
type loop struct {
	name   string
	insts  []string
	bytes  int
	models []string
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("ghashmca: ")
	flag.Parse()
	if *testBin == "" {
		log.Fatal("-test is required (go test -c -o /tmp/ghash.test ./ghash)")
	}
	models := strings.Split(*modelsFlag, ",")
	var loops []loop
	for _, k := range ghashloop.Kernels {
		if *kernelsArg != "" && !slices.Contains(strings.Split(*kernelsArg, ","), k.Name) {
			continue
		}
		gl, err := ghashloop.Read(*dir, k)
		if err != nil {
			log.Fatal(err)
		}
		insts, err := binaryLoop(*testBin, "github.com/simdhash/simdhash/ghash."+k.Text+".abi0")
		if err != nil {
			log.Fatal(err)
		}
		if len(insts) != len(gl.Body) {
			log.Fatalf("%s: %d instructions in the binary's loop, %d in %s's", k.Name, len(insts), len(gl.Body), k.File)
		}
		lp := loop{name: k.Name, insts: insts, bytes: gl.Bytes(), models: models}
		if on, ok := runsOn[k.Name]; ok {
			lp.models = slices.DeleteFunc(slices.Clone(models), func(m string) bool { return !slices.Contains(on, m) })
		}
		loops = append(loops, lp)
	}
	if lib := libcryptoPath(); lib != "" {
		insts, at, err := opensslLoop(lib)
		if err != nil {
			fmt.Fprintf(os.Stderr, "ghashmca: OpenSSL's loop left out: %v\n", err)
		} else {
			fmt.Fprintf(os.Stderr, "ghashmca: OpenSSL's gcm_ghash_avx loop: %d instructions at %s+%#x\n", len(insts), lib, at)
			loops = append(loops, loop{name: "openssl", insts: insts, bytes: 128, models: models})
		}
	}
	if *keep != "" {
		for _, l := range loops {
			if err := os.WriteFile(fmt.Sprintf("%s/%s.s", *keep, l.name), []byte(strings.Join(l.insts, "\n")+"\n"), 0o644); err != nil {
				log.Fatal(err)
			}
		}
	}
	report(loops, models)
}

// libcryptoPath returns -libcrypto, or the x86-64 libcrypto.so.3 that
// ldconfig knows, or "".
func libcryptoPath() string {
	if *libcrypto != "" {
		if *libcrypto == "none" {
			return ""
		}
		return *libcrypto
	}
	out, err := exec.Command("ldconfig", "-p").Output()
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "libcrypto.so.3 ") && strings.Contains(line, "x86-64") {
			if _, p, ok := strings.Cut(line, "=> "); ok {
				return strings.TrimSpace(p)
			}
		}
	}
	return ""
}

// inst is one disassembled instruction.
type inst struct {
	addr uint64
	text string // AT&T, as objdump prints it, without its comment
}

var objdumpLine = regexp.MustCompile(`^\s*([0-9a-f]+):\t(.*)$`)

// disassemble runs objdump -d on file (args select what) and returns the
// instructions in address order.
func disassemble(file string, args ...string) ([]inst, error) {
	out, err := exec.Command("objdump", append(append([]string{"-d", "--no-show-raw-insn"}, args...), file)...).Output()
	if err != nil {
		return nil, fmt.Errorf("objdump %s: %v", file, err)
	}
	var is []inst
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		m := objdumpLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		a, _ := strconv.ParseUint(m[1], 16, 64)
		text, _, _ := strings.Cut(m[2], "#")
		is = append(is, inst{a, strings.TrimSpace(text)})
	}
	return is, nil
}

// branchBack returns the target of instruction i if it is a conditional
// jump to an earlier address.
func branchBack(i inst) (uint64, bool) {
	f := strings.Fields(i.text)
	if len(f) < 2 || !strings.HasPrefix(f[0], "j") || f[0] == "jmp" {
		return 0, false
	}
	t, err := strconv.ParseUint(f[1], 16, 64)
	if err != nil || t >= i.addr {
		return 0, false
	}
	return t, true
}

// body returns the instructions from the one at target up to (without)
// is[end], jumps left out, for llvm-mca: RIP-relative operands become
// (%r15), since llvm-mca does not model the address.
func body(is []inst, target uint64, end int) []string {
	var out []string
	for j := end - 1; j >= 0 && is[j].addr >= target; j-- {
		if strings.HasPrefix(is[j].text, "j") {
			continue
		}
		out = append(out, ripRel.ReplaceAllString(is[j].text, "(%r15)"))
	}
	slices.Reverse(out)
	return out
}

var ripRel = regexp.MustCompile(`-?0x[0-9a-f]+\(%rip\)`)

// binaryLoop returns the first loop of symbol sym in the binary: the
// instructions from the target of its first backward conditional jump to
// that jump. A kernel's widest loop comes first in its function.
func binaryLoop(bin, sym string) ([]string, error) {
	is, err := disassemble(bin, "--disassemble="+sym)
	if err != nil {
		return nil, err
	}
	for i, in := range is {
		if t, ok := branchBack(in); ok {
			return body(is, t, i), nil
		}
	}
	return nil, fmt.Errorf("%s: no loop in %s", bin, sym)
}

// opensslLoop returns gcm_ghash_avx's 8-block loop from lib, and where it
// starts.
func opensslLoop(lib string) ([]string, uint64, error) {
	is, err := disassemble(lib, "-j", ".text")
	if err != nil {
		return nil, 0, err
	}
	var found [][]string
	var at uint64
	for i, in := range is {
		t, ok := branchBack(in)
		if !ok || in.addr-t > 4096 {
			continue
		}
		b := body(is, t, i)
		var clmul, shufb int
		ok = true
		for _, s := range b {
			m := strings.Fields(s)[0]
			switch {
			case strings.HasPrefix(m, "vpclmul"):
				clmul++
			case m == "vpshufb":
				shufb++
			case strings.Contains(m, "aes"):
				ok = false
			}
			if strings.Contains(s, "%ymm") || strings.Contains(s, "%zmm") {
				ok = false
			}
		}
		if ok && clmul == 26 && shufb == 8 {
			found, at = append(found, b), t
		}
	}
	if len(found) != 1 {
		return nil, 0, fmt.Errorf("%d loops of 26 VPCLMULQDQ and 8 VPSHUFB on XMM in %s, want one", len(found), lib)
	}
	return found[0], at, nil
}

// mcaResult is what llvm-mca says of one loop on one model.
type mcaResult struct {
	cycles   float64 // per iteration
	uops     float64 // per iteration
	dispatch int
}

// run runs llvm-mca on insts for model, with extra arguments, and returns
// its report.
func run(model string, insts []string, iters int, extra ...string) (string, error) {
	args := append([]string{"-mtriple=x86_64", "-mcpu=" + model, fmt.Sprintf("-iterations=%d", iters)}, extra...)
	cmd := exec.Command(*mca, args...)
	cmd.Stdin = strings.NewReader(strings.Join(insts, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		first, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return "", fmt.Errorf("llvm-mca -mcpu=%s: %v: %s", model, err, first)
	}
	return string(out), nil
}

// field returns the number after "name:" in an llvm-mca report.
func field(report, name string) float64 {
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `:\s+([0-9.]+)`).FindStringSubmatch(report)
	if m == nil {
		return 0
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

func simulate(model string, insts []string) (mcaResult, error) {
	rep, err := run(model, insts, *iterations, "-resource-pressure=0", "-instruction-info=0")
	if err != nil {
		return mcaResult{}, err
	}
	n := float64(*iterations)
	return mcaResult{cycles: field(rep, "Total Cycles") / n, uops: field(rep, "Total uOps") / n, dispatch: int(field(rep, "Dispatch Width"))}, nil
}

// usage is an instruction's cycles on each resource of a model.
type usage map[string]float64

var probes = map[string]usage{} // model + "\x00" + instruction

// probe returns the cycles instruction s takes of each resource when run
// alone on model: four copies, pressure per iteration over four.
func probe(model, s string) (usage, error) {
	key := model + "\x00" + s
	if u, ok := probes[key]; ok {
		return u, nil
	}
	const copies = 4
	rep, err := run(model, slices.Repeat([]string{s}, copies), 100, "-instruction-info=0")
	if err != nil {
		return nil, err
	}
	names, press, err := pressure(rep)
	if err != nil {
		return nil, fmt.Errorf("%s on %s: %v", s, model, err)
	}
	u := usage{}
	for i, p := range press {
		if p > 0.005 {
			u[names[i]] = p / copies
		}
	}
	probes[key] = u
	return u, nil
}

// pressure parses the resource names and the pressure per iteration of
// an llvm-mca report.
func pressure(rep string) (names []string, press []float64, err error) {
	lines := strings.Split(rep, "\n")
	res := regexp.MustCompile(`^\[(\d+(?:\.\d+)?)\]\s+-\s+(\S+)`)
	byIndex := map[string]string{}
	var order []string
	for i, l := range lines {
		if m := res.FindStringSubmatch(l); m != nil {
			byIndex[m[1]] = m[2]
		}
		if strings.HasPrefix(l, "Resource pressure per iteration:") && i+2 < len(lines) {
			for _, h := range strings.Fields(lines[i+1]) {
				order = append(order, strings.Trim(h, "[]"))
			}
			for j, v := range strings.Fields(lines[i+2]) {
				if j >= len(order) {
					break
				}
				p, _ := strconv.ParseFloat(v, 64) // "-", none, is 0
				names = append(names, byIndex[order[j]])
				press = append(press, p)
			}
			return names, press, nil
		}
	}
	return nil, nil, fmt.Errorf("no resource pressure in llvm-mca's report")
}

// short names a resource as a port: SKLPort5 and ICXPort5 are p5; Zen's
// Zn3FPP0 is FP0 (and so on).
func short(r string) string {
	for _, p := range []string{"SKLPort", "ICXPort", "SKXPort"} {
		if strings.HasPrefix(r, p) {
			return "p" + strings.TrimPrefix(r, p)
		}
	}
	r = strings.TrimPrefix(r, "Zn3")
	return strings.Replace(r, "FPP", "FP", 1)
}

// kind returns the kind of an llvm-mca resource: on Intel's cores the
// load ports (2, 3), the store-data (4, 9) and store-address ports (7, 8)
// and the others, which execute; on Zen the families of units by name
// (ALU0..3, AGU0..2, FPP0..3, FPP45 that moves vectors to and from memory,
// Load, Store, LSU).
func kind(r string) string {
	for _, p := range []string{"SKLPort", "ICXPort", "SKXPort"} {
		if n, ok := strings.CutPrefix(r, p); ok {
			ports := map[string]string{"2": "load", "3": "load", "4": "store-data", "9": "store-data", "7": "store-address", "8": "store-address"}
			return cmp.Or(ports[n], "exec")
		}
	}
	if r == "Zn3FPP45" {
		return r
	}
	return strings.TrimRight(r, "0123456789")
}

// floor is a loop's bound from its ports on a model.
type floor struct {
	cycles  float64
	binding string             // the set of ports that bounds it, or "dispatch"
	bySet   map[string]float64 // demand by the set of ports an instruction may use
}

func portFloor(model string, insts []string, r mcaResult) (floor, error) {
	// Each instruction's resources, as a set (bits over the resources the
	// loop uses) and its cycles.
	index := map[string]int{}
	var names []string
	demand := map[uint64]float64{}
	for _, s := range insts {
		u, err := probe(model, s)
		if err != nil {
			return floor{}, err
		}
		// The resources of each kind an instruction uses are alternatives
		// (the ports a micro-op may issue to); those of different kinds
		// are used together (a load and the operation on what it loads).
		sets, totals := map[string]uint64{}, map[string]float64{}
		for r, c := range u {
			i, ok := index[r]
			if !ok {
				i = len(names)
				index[r], names = i, append(names, r)
				if i >= 64 {
					return floor{}, fmt.Errorf("more than 64 resources")
				}
			}
			k := kind(r)
			sets[k] |= 1 << i
			totals[k] += c
		}
		for k, set := range sets {
			demand[set] += totals[k]
		}
	}
	f := floor{bySet: map[string]float64{}}
	setName := func(set uint64) string {
		var ps []string
		for i := range names {
			if set&(1<<i) != 0 {
				ps = append(ps, short(names[i]))
			}
		}
		sort.Strings(ps)
		return strings.Join(ps, "")
	}
	for set, c := range demand {
		f.bySet[setName(set)] += c
	}
	// The largest bound over every union of the instructions' sets (a set
	// of ports that is no such union bounds no more than one that is).
	unions := map[uint64]bool{}
	for set := range demand {
		add := []uint64{set}
		for u := range unions {
			add = append(add, u|set)
		}
		for _, u := range add {
			unions[u] = true
		}
	}
	// In a fixed order, so that of sets that bound alike the smallest (and
	// then the first by name) is named.
	us := slices.Collect(maps.Keys(unions))
	sort.Slice(us, func(i, j int) bool {
		if a, b := bits.OnesCount64(us[i]), bits.OnesCount64(us[j]); a != b {
			return a < b
		}
		return setName(us[i]) < setName(us[j])
	})
	for _, u := range us {
		c := 0.0
		for set, d := range demand {
			if set&^u == 0 {
				c += d
			}
		}
		if b := c / float64(bits.OnesCount64(u)); b > f.cycles+1e-9 {
			f.cycles, f.binding = b, setName(u)
		}
	}
	if r.dispatch > 0 {
		if b := r.uops / float64(r.dispatch); b > f.cycles {
			f.cycles, f.binding = b, "dispatch"
		}
	}
	return f, nil
}

func report(loops []loop, models []string) {
	ver := "llvm-mca"
	if out, err := exec.Command(*mca, "--version").Output(); err == nil {
		if m := regexp.MustCompile(`LLVM version (\S+)`).FindSubmatch(out); m != nil {
			ver += " " + string(m[1])
		}
	}
	fmt.Printf("%s, %d iterations of each loop (one group per iteration). The floor: the most loaded set of\n", ver, *iterations)
	fmt.Println("ports' cycles per group over their number (each instruction's ports from llvm-mca running it alone).")
	fmt.Println()
	fmt.Println("| loop | bytes | model | cycles | cycles/byte | floor | floor c/B | bound by | cycles/floor |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	type key struct{ loop, model string }
	floors := map[key]floor{}
	for _, l := range loops {
		for _, m := range models {
			if !slices.Contains(l.models, m) {
				fmt.Printf("| %s | %d | %s | - | - | - | - | (no such CPU) | - |\n", l.name, l.bytes, m)
				continue
			}
			r, err := simulate(m, l.insts)
			if err != nil {
				log.Fatal(err)
			}
			f, err := portFloor(m, l.insts, r)
			if err != nil {
				log.Fatal(err)
			}
			floors[key{l.name, m}] = f
			b := float64(l.bytes)
			fmt.Printf("| %s | %d | %s | %.1f | %.3f | %.1f | %.3f | %s | %.2f |\n", l.name, l.bytes, m, r.cycles, r.cycles/b, f.cycles, f.cycles/b, f.binding, r.cycles/f.cycles)
		}
	}
	if !*detail {
		return
	}
	fmt.Println()
	fmt.Println("Cycles per group by the ports an instruction may use (FP: Zen's vector pipes):")
	fmt.Println()
	for _, l := range loops {
		for _, m := range models {
			f, ok := floors[key{l.name, m}]
			if !ok {
				continue
			}
			sets := slices.Collect(maps.Keys(f.bySet))
			sort.Slice(sets, func(i, j int) bool { return f.bySet[sets[i]] > f.bySet[sets[j]] })
			var parts []string
			for _, s := range sets {
				parts = append(parts, fmt.Sprintf("%s %.1f", s, f.bySet[s]))
			}
			fmt.Printf("- %s, %s: %s\n", l.name, m, strings.Join(parts, ", "))
		}
	}
}
