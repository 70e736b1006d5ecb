// Package gentest holds what the generators' tests share: running the Go
// toolchain and GNU binutils, reading machine words from their disassembly
// (the arm64 and arm32 encoding tests), the scratch packages of the knob
// sweeps and of the kernel timings (Compare), and the x86 UBC checks run
// on the emulator (EmulatedMasks).
package gentest

import (
	"fmt"
	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/armemit"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/cpu"
)

// Run runs name with args in dir (the current directory if empty), with
// env added to the environment, and returns its combined output; it fails
// the test, showing the output, if the command fails.
func Run(t *testing.T, dir string, env []string, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

// GoTest runs go test -count=1 with args on the scratch package dir,
// natively, and returns its output, trimmed; it fails the test, showing
// the output, if the tests fail.
func GoTest(t *testing.T, dir string, args ...string) string {
	t.Helper()
	args = append(append([]string{"test", "-count=1"}, args...), ".")
	return strings.TrimSpace(string(Run(t, dir, nil, filepath.Join(runtime.GOROOT(), "bin", "go"), args...)))
}

// Words returns the first submatch of re on each line of out that matches
// it: the machine words of a disassembly, in order.
func Words(out []byte, re *regexp.Regexp) []string {
	var ws []string
	for _, l := range strings.Split(string(out), "\n") {
		if m := re.FindStringSubmatch(l); m != nil {
			ws = append(ws, m[1])
		}
	}
	return ws
}

// An Encoding is one instruction of an encoding test: its Go assembler
// text and the GNU text it claims to be.
type Encoding struct{ Go, GNU string }

var (
	goObjdumpLine  = regexp.MustCompile(`^\s+\S+:\d+\s+0x[0-9a-f]+\s+([0-9a-f]{8})\s`)
	gnuObjdumpLine = regexp.MustCompile(`^\s+[0-9a-f]+:\s+([0-9a-f]{8})\s`)
)

// CompareEncodings assembles goSrc with Go's assembler for goarch and
// gnuSrc with GNU as (binutils named prefix+"as", prefix+"objdump"),
// disassembles both, and reports every instruction of insts, the
// instructions both sources hold in order, whose machine words differ.
// Without those binutils the test is skipped, or fails under CI, where
// make deps installs them. prologue is the number of words Go's assembler
// puts before the first instruction (a function with a frame saves its
// link register there).
func CompareEncodings(t *testing.T, goarch, prefix string, goSrc, gnuSrc []byte, prologue int, insts []Encoding) {
	t.Helper()
	gas, objdump := Binutil(t, prefix+"as"), Binutil(t, prefix+"objdump")
	goBin, goroot := GoTool(t)
	dir := t.TempDir()
	WriteFile(t, filepath.Join(dir, "go.s"), string(goSrc))
	WriteFile(t, filepath.Join(dir, "gnu.s"), string(gnuSrc))
	env := []string{"GOARCH=" + goarch, "GOOS=linux"}
	Run(t, dir, env, goBin, "tool", "asm", "-p", "enc", "-I", filepath.Join(goroot, "pkg", "include"), "-o", "go.o", "go.s")
	goWords := Words(Run(t, dir, env, goBin, "tool", "objdump", "go.o"), goObjdumpLine)
	Run(t, dir, nil, gas, "-o", "gnu.o", "gnu.s")
	gnuWords := Words(Run(t, dir, nil, objdump, "-d", "gnu.o"), gnuObjdumpLine)

	// Go's object file may pad the function.
	if len(goWords) < prologue {
		t.Fatalf("Go's assembler gave %d words, fewer than the %d of the prologue", len(goWords), prologue)
	}
	goWords = goWords[prologue:]
	if len(goWords) > len(insts) {
		goWords = goWords[:len(insts)]
	}
	if len(goWords) != len(insts) || len(gnuWords) != len(insts) {
		t.Fatalf("%d instructions, Go's assembler gave %d words, GNU as %d", len(insts), len(goWords), len(gnuWords))
	}
	for k, in := range insts {
		if goWords[k] != gnuWords[k] {
			t.Errorf("%-50s = %s, but GNU as assembles %q as %s", in.Go, goWords[k], in.GNU, gnuWords[k])
		}
	}
}

// Binutil returns the path of the GNU tool name. Without it the test is
// skipped, or fails when CI is set: make deps installs binutils for arm64
// and arm, and CI must run what needs them.
func Binutil(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	pkg := "binutils-" + strings.TrimSuffix(strings.TrimSuffix(name, "objdump"), "as")
	pkg = strings.TrimSuffix(pkg, "-")
	msg := fmt.Sprintf("%s not found: install %s (make deps, or apt-get install %s) to check the encodings against GNU as", name, pkg, pkg)
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// GoTool returns the go command of the toolchain on PATH and its GOROOT,
// skipping the test if there is none.
func GoTool(t *testing.T) (goBin, goroot string) {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("go env GOROOT: %v", err)
	}
	goroot = strings.TrimSpace(string(out))
	return filepath.Join(goroot, "bin", "go"), goroot
}

// ScratchPackage returns a new directory under testdata/ of the test's
// package, for a scratch package that imports the module's internal
// packages: its own, so that two runs at once do not clash. It is removed
// (and testdata/ with it when empty) after the test, unless
// SIMDHASH_SWEEP_KEEP is set, in which case the test logs where it is.
func ScratchPackage(t *testing.T) string {
	t.Helper()
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("testdata", "sweep-")
	if err != nil {
		t.Fatal(err)
	}
	if dir, err = filepath.Abs(dir); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("SIMDHASH_SWEEP_KEEP") != "" {
		t.Logf("SIMDHASH_SWEEP_KEEP: the scratch package stays in %s", dir)
		return dir
	}
	t.Cleanup(func() {
		os.RemoveAll(dir)
		os.Remove("testdata") // fails, harmlessly, while another run's scratch package is there
	})
	return dir
}

// An AvoKernel is a kernel of a scratch package of avo kernels
// (AvoScratch): its Go declaration, the command its file's header names,
// and what emits it.
type AvoKernel struct {
	Decl     string
	Argv     []string
	Generate func(ctx *build.Context) error
}

// AvoScratch generates the kernels ks for target into a new scratch
// package (ScratchPackage), kernel i into v<i>_<target>.s, declares them
// in decl_<target>.go, headed as generated by test and ending with tables,
// writes the test files tests (by name) beside them, and returns its
// directory.
func AvoScratch(t *testing.T, test string, target avogen.Target, ks []AvoKernel, tables string, tests map[string]string) string {
	t.Helper()
	dir := ScratchPackage(t)
	decl := fmt.Sprintf("// Code generated by %s. DO NOT EDIT.\n\n//go:build %s\n\npackage sweep\n\n", test, target)
	for i, k := range ks {
		ctx := build.NewContext()
		ctx.ConstraintExpr(string(target))
		if err := k.Generate(ctx); err != nil {
			t.Fatalf("%s: %v", strings.Join(k.Argv[1:], " "), err)
		}
		if err := target.Write(ctx, filepath.Join(dir, fmt.Sprintf("v%d_%s.s", i, target)), "sweep", k.Argv); err != nil {
			t.Fatal(err)
		}
		decl += "//go:noescape\n" + k.Decl + "\n\n"
	}
	WriteFile(t, filepath.Join(dir, "decl_"+string(target)+".go"), decl+tables)
	for name, src := range tests {
		WriteFile(t, filepath.Join(dir, name), src)
	}
	return dir
}

// QemuArches are the architectures of the knob sweeps: each GOARCH and
// the qemu user-mode emulator that runs its binaries.
var QemuArches = []struct{ GOARCH, Qemu string }{{"arm64", "qemu-aarch64"}, {"arm", "qemu-arm"}}

// NeedQemu skips the test unless every emulator of QemuArches is
// installed; under CI, where make deps installs qemu-user, it fails
// instead.
func NeedQemu(t *testing.T) {
	t.Helper()
	for _, a := range QemuArches {
		if _, err := exec.LookPath(a.Qemu); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s not found, and CI must run the sweep (make deps installs qemu-user)", a.Qemu)
			}
			t.Skipf("%s not found: the sweep runs the arm64 and arm kernels under qemu user-mode emulation (make deps installs qemu-user)", a.Qemu)
		}
	}
}

// TestUnderQemu runs the tests of the scratch package dir for goarch
// (GOARM=7 on arm) under its emulator qemu with QEMU_CPU=max, which has
// every extension the kernels use, and logs go test's summary; it fails
// the test, with the output, if they fail.
func TestUnderQemu(t *testing.T, dir, goarch, qemu string) {
	testUnderQemu(t, dir, goarch, qemu, "max")
}

// testUnderQemu is TestUnderQemu on the CPU model cpu.
func testUnderQemu(t *testing.T, dir, goarch, qemu, cpu string) {
	t.Helper()
	start := time.Now()
	goBin, _ := GoTool(t)
	out := Run(t, dir, []string{"GOOS=linux", "GOARCH=" + goarch, "GOARM=7", "CGO_ENABLED=0", "QEMU_CPU=" + cpu},
		goBin, "test", "-count=1", "-exec", qemu, ".")
	t.Logf("%s under %s -cpu %s (%.1fs): %s", goarch, qemu, cpu, time.Since(start).Seconds(), strings.TrimSpace(string(out)))
}

// Run386 vets the scratch package dir for GOARCH=386, so that asmdecl
// checks its assembly's frames against 386's layout, and runs its tests
// under qemu-i386 -cpu cpu, on one thread and without asynchronous
// preemption, without which qemu-i386 7.2 crashes Go binaries at random
// (scripts/ci/qemu-test.sh runs 386 binaries so too). Without qemu-i386
// the test is skipped, or fails under CI, where make deps installs it.
func Run386(t *testing.T, dir, cpu string) {
	t.Helper()
	if _, err := exec.LookPath("qemu-i386"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("qemu-i386 not found, and CI must run the 386 kernels (make deps installs qemu-user)")
		}
		t.Skip("qemu-i386 not found: the 386 kernels run under qemu user-mode emulation (make deps installs qemu-user)")
	}
	goBin, _ := GoTool(t)
	env := []string{"GOOS=linux", "GOARCH=386", "CGO_ENABLED=0"}
	Run(t, dir, env, goBin, "vet", ".")
	start := time.Now()
	out := Run(t, dir, append(env, "QEMU_CPU="+cpu, "GOMAXPROCS=1", "GODEBUG=asyncpreemptoff=1"), goBin, "test", "-count=1", "-exec", "qemu-i386", ".")
	t.Logf("386 under qemu-i386 -cpu %s (%.1fs, vetted): %s", cpu, time.Since(start).Seconds(), strings.TrimSpace(string(out)))
}

// WriteFile writes s to path, failing the test if it cannot.
func WriteFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A Sweep is the scratch package of a knob sweep: for each GOARCH of
// QemuArches, the variants of the generated assembly, their functions
// renamed apart, and a Go file that declares them and lists them in a
// table, var variants = []variant{...}, for the package's test to run.
type Sweep struct {
	t     *testing.T
	dir   string
	head  map[string]string
	decls map[string]*strings.Builder // per GOARCH: the declarations, then the table
	table map[string]*strings.Builder
	// streams is, per GOARCH, the table of kernels of the Streams
	// contract (StreamTests), if it has any.
	streams map[string]*strings.Builder
	cpu     map[string]string // per GOARCH, the qemu CPU model, if not max
	n       int
}

// NewSweep starts a sweep in a new scratch package (ScratchPackage) whose
// test file is test.
func NewSweep(t *testing.T, test string) *Sweep {
	s := &Sweep{t: t, dir: ScratchPackage(t), head: map[string]string{},
		decls: map[string]*strings.Builder{}, table: map[string]*strings.Builder{}, streams: map[string]*strings.Builder{}}
	WriteFile(t, filepath.Join(s.dir, "sweep_test.go"), test)
	for _, a := range QemuArches {
		s.decls[a.GOARCH], s.table[a.GOARCH], s.streams[a.GOARCH] = &strings.Builder{}, &strings.Builder{}, &strings.Builder{}
	}
	return s
}

// Head sets what goarch's Go file holds after its package clause: the
// imports and variables its declarations and the test need.
func (s *Sweep) Head(goarch, text string) { s.head[goarch] = text }

// File adds a file to the scratch package.
func (s *Sweep) File(name, text string) { WriteFile(s.t, filepath.Join(s.dir, name), text) }

// CPU sets the qemu CPU model that runs goarch's variants (max if not
// set): one that lacks an extension the variants must not use makes a
// stray instruction fault.
func (s *Sweep) CPU(goarch, model string) {
	if s.cpu == nil {
		s.cpu = map[string]string{}
	}
	s.cpu[goarch] = model
}

// Add adds a variant for goarch: the generated file, made with the knobs
// flags, in which each function of fns, with Go signature sig, is renamed
// fn_i (i counting the variants); entry returns the variant's lines of the
// table, given the new names. The data sections are file-local (name<>)
// and keep their names.
func (s *Sweep) Add(goarch string, file *armemit.File, flags string, fns []string, sig string, entry func(names []string) string) {
	s.t.Helper()
	src, err := file.Bytes([]string{s.t.Name(), flags})
	if err != nil {
		s.t.Fatalf("%s: %v", flags, err)
	}
	text := string(src)
	var names []string
	for _, fn := range fns {
		name, old := fmt.Sprintf("%s_%d", fn, s.n), "TEXT ·"+fn+"(SB)"
		if strings.Count(text, old) != 1 || strings.Count(text, "·"+fn) != 1 {
			s.t.Fatalf("%s: want exactly one reference to ·%s, in its TEXT line", flags, fn)
		}
		text = strings.Replace(text, old, "TEXT ·"+name+"(SB)", 1)
		fmt.Fprintf(s.decls[goarch], "//go:noescape\nfunc %s%s\n\n", name, strings.TrimPrefix(sig, "func"))
		names = append(names, name)
	}
	s.table[goarch].WriteString(entry(names))
	WriteFile(s.t, filepath.Join(s.dir, fmt.Sprintf("v%d_%s.s", s.n, goarch)), text)
	s.n++
}

// AddStreams adds a variant of the Streams contract for goarch, as Add
// does, to the table streamVariants of StreamTests: the kernel fn of
// file, which absorbs streams streams.
func (s *Sweep) AddStreams(goarch string, file *armemit.File, flags, fn, sig string, streams int) {
	s.t.Helper()
	table := s.table[goarch]
	s.table[goarch] = s.streams[goarch]
	s.Add(goarch, file, flags, []string{fn}, sig, func(names []string) string {
		return fmt.Sprintf("\t{%q, %d, %s},\n", flags, streams, names[0])
	})
	s.table[goarch] = table
}

// Run writes the Go files and runs the scratch package's tests under each
// emulator (TestUnderQemu). It returns the number of variants.
func (s *Sweep) Run() int {
	s.t.Helper()
	for _, a := range QemuArches {
		text := fmt.Sprintf("// Code generated by %s. DO NOT EDIT.\n\n//go:build %s\n\npackage sweep\n\n%s%svar variants = []variant{\n%s}\n",
			s.t.Name(), a.GOARCH, s.head[a.GOARCH], s.decls[a.GOARCH], s.table[a.GOARCH])
		if st := s.streams[a.GOARCH].String(); st != "" {
			text += "\nvar streamVariants = []streamVariant{\n" + st + "}\n"
		}
		WriteFile(s.t, filepath.Join(s.dir, "variants_"+a.GOARCH+".go"), text)
	}
	for _, a := range QemuArches {
		cpu := "max"
		if c, ok := s.cpu[a.GOARCH]; ok {
			cpu = c
		}
		testUnderQemu(s.t, s.dir, a.GOARCH, a.Qemu, cpu)
	}
	return s.n
}

// NativeAMD64 skips the test unless it runs on amd64, whose scratch
// kernels it assembles and runs natively.
func NativeAMD64(t *testing.T) {
	t.Helper()
	if runtime.GOARCH != "amd64" {
		t.Skip("the scratch kernels are amd64 assembly: they run natively on amd64 only")
	}
}

// Sweeps is n, or full when SIMDHASH_SWEEP=full (make sweep): how many
// random combinations of knobs a sweep tries.
func Sweeps(n, full int) int {
	if os.Getenv("SIMDHASH_SWEEP") == "full" {
		return full
	}
	return n
}

// Runs reports whether this CPU has every extension that the x86 SHA-1
// kernel name uses (the conditions of package sha1's registry): the
// one-block ssse3, avx and avx2, and SumMany's avx2x8 and avx512x16.
func Runs(name string) bool {
	x := cpu.X86
	switch name {
	case "ssse3":
		return x.HasSSE2 && x.HasSSSE3
	case "avx":
		return x.HasAVX
	case "avx2":
		return x.HasAVX2 && x.HasBMI1 && x.HasBMI2
	case "avx2x8":
		return x.HasAVX && x.HasAVX2
	case "avx512x16":
		return x.HasAVX512 && x.HasAVX512F && x.HasAVX512VL && x.HasAVX512BW && x.HasAVX2
	}
	panic("gentest: no CPU condition for kernel " + name)
}
