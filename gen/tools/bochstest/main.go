// Bochstest runs a package's Go tests on an emulated CPU that this machine
// does not have (AVX-512, VPCLMULQDQ on ZMM, VAES, SHA on a Tiger Lake),
// under bochs, a full-system x86 emulator: it builds the package's test
// binary (static, linux/amd64), packs it with the module's files and a
// small /init (./guest) into an initramfs, boots a Linux kernel with it
// from an ISO image under bochs, reads the serial console, and reports.
//
// Run it through scripts/bochs-test.sh, which installs bochs, builds and
// caches the kernel (scripts/bochs-kernel.sh) and the guest /init:
//
//	bash scripts/bochs-test.sh [flags] PKG [TESTFLAG...] [-- NAME=VALUE...]
//
// TESTFLAGs go to the test binary (default -test.short; -test.v is always
// added). NAME=VALUE pairs after "--" are the tests' environment (GODEBUG,
// SIMDHASH_SHA1_KERNEL, ...); a SIMDHASH_*_KERNEL=NAME pair also makes the
// guest run the test that checks it first, alone, which must pass: the
// dispatcher chose NAME on this CPU model (TestDispatch, or TestManyDispatch
// for SIMDHASH_SHA1_MANY_KERNEL, as scripts/ci/qemu-test.sh has it). It exits 0 when every run passed, 1 with the
// reason otherwise: the guest did not boot, the run timed out, a test
// failed or crashed (SIGILL named), no PASS line, no test ran.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/simdhash/simdhash/gen/tools/bochstest/internal/guestrun"
)

// kernelCmdline is the guest kernel's command line. Beside the console,
// each item works around a bochs 2.7 defect met with its Tiger Lake model:
//   - clearcpuid=pku: CPUID leaf 0xD lists the PKRU state in XCR0's
//     supported bits but gives it no size or offset (sub-leaf 9 is zero),
//     and Linux then turns XSAVE off altogether, and AVX with it.
//   - clearcpuid=xsaves,xsavec: CPUID 0xD.1 gives the standard-format size
//     where the compacted one is due, and Linux again turns XSAVE off; the
//     standard format (XSAVEOPT) still saves the ZMM and opmask state.
//   - clearcpuid=fsrm: with FSRM the kernel copies with REP MOVSB, and the
//     boot dies in a loop of page faults inside the kernel.
//   - reboot=t: the guest's final restart becomes a triple fault, which
//     ends bochs (reset_on_triple_fault=0); the kernel has no ACPI to
//     power off with.
//   - panic=-1: a kernel panic restarts at once, and so ends bochs too.
const kernelCmdline = "console=ttyS0,115200 quiet panic=-1 reboot=t clearcpuid=pku,xsaves,xsavec,fsrm"

type options struct {
	cpu, kernel, init, isolinux, ldlinux string
	timeout                              time.Duration
	ips, megs                            int
	keep, verbose                        bool
}

func main() {
	var o options
	flag.StringVar(&o.cpu, "cpu", "tigerlake", "bochs CPU `model` (bochs --help cpu lists them)")
	flag.StringVar(&o.kernel, "kernel", "", "the guest kernel, a bzImage (scripts/bochs-kernel.sh)")
	flag.StringVar(&o.init, "init", "", "the guest /init, ./guest built for linux/amd64")
	flag.StringVar(&o.isolinux, "isolinux", "/usr/lib/ISOLINUX/isolinux.bin", "ISOLINUX boot image (Debian package isolinux)")
	flag.StringVar(&o.ldlinux, "ldlinux", "/usr/lib/syslinux/modules/bios/ldlinux.c32", "ISOLINUX's ldlinux.c32 (Debian package syslinux-common)")
	flag.DurationVar(&o.timeout, "timeout", 30*time.Minute, "wall-clock limit for the whole emulation")
	flag.IntVar(&o.ips, "ips", 50_000_000, "emulated instructions per second of guest time (bochs cpu: ips=)")
	flag.IntVar(&o.megs, "megs", 512, "guest memory in MiB")
	flag.BoolVar(&o.keep, "keep", false, "keep the work directory (ISO, bochsrc, logs) and say where")
	flag.BoolVar(&o.verbose, "v", false, "copy the guest's console to stdout as it comes")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: bochstest [flags] PKG [TESTFLAG...] [-- NAME=VALUE...]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 1 || o.kernel == "" || o.init == "" {
		flag.Usage()
		os.Exit(2)
	}
	pkg, testflags, env, err := splitArgs(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "bochstest:", err)
		os.Exit(2)
	}
	if err := run(o, pkg, testflags, env); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// splitArgs splits PKG [TESTFLAG...] [-- NAME=VALUE...].
func splitArgs(args []string) (pkg string, testflags, env []string, err error) {
	pkg, testflags = args[0], args[1:]
	if i := slices.Index(testflags, "--"); i >= 0 {
		testflags, env = testflags[:i], testflags[i+1:]
	}
	for _, e := range env {
		if name, _, ok := strings.Cut(e, "="); !ok || name == "" {
			return "", nil, nil, fmt.Errorf("after --, NAME=VALUE pairs only, not %q", e)
		}
	}
	if len(testflags) == 0 {
		testflags = []string{"-test.short"}
	}
	return pkg, testflags, env, nil
}

// expectVar matches the variables with which the tests check the kernel
// the dispatcher chose.
var expectVar = regexp.MustCompile(`^SIMDHASH_[A-Z0-9_]+_KERNEL=.`)

// dispatchTests returns the tests that check the kernels named by the
// SIMDHASH_*_KERNEL pairs of env: TestManyDispatch for sha1.SumMany's,
// TestDispatch for the others.
func dispatchTests(env []string) []string {
	var tests []string
	for _, e := range env {
		if !expectVar.MatchString(e) {
			continue
		}
		test := "TestDispatch"
		if strings.HasPrefix(e, "SIMDHASH_SHA1_MANY_KERNEL=") {
			test = "TestManyDispatch"
		}
		if !slices.Contains(tests, test) {
			tests = append(tests, test)
		}
	}
	return tests
}

// A planned run, with what its verdict needs.
type planned struct {
	guestrun.Run
	label    string
	mustPass []string // tests that must have run and passed
}

func run(o options, pkg string, testflags, env []string) error {
	label := fmt.Sprintf("bochs %s %s", o.cpu, pkg)
	if len(env) > 0 {
		label += " " + strings.Join(env, " ")
	}
	fail := func(format string, a ...any) error {
		return fmt.Errorf("FAIL %s: %s", label, fmt.Sprintf(format, a...))
	}

	work, err := os.MkdirTemp("", "bochstest-")
	if err != nil {
		return fail("%v", err)
	}
	keep := o.keep
	defer func() {
		if keep {
			fmt.Fprintf(os.Stderr, "bochstest: the ISO, bochsrc and logs are in %s\n", work)
		} else {
			os.RemoveAll(work)
		}
	}()

	// The test binary, and where its package and module live.
	var list struct {
		Dir, ImportPath string
		Module          struct{ Dir string }
	}
	out, err := goCmd("list", "-json=Dir,ImportPath,Module", pkg).Output()
	if err != nil {
		return fail("go list %s: %v", pkg, stderrOf(err))
	}
	if err := json.Unmarshal(out, &list); err != nil || list.Module.Dir == "" {
		return fail("go list %s: no module directory (%v)", pkg, err)
	}
	name := path.Base(list.ImportPath) + ".test"
	bin := filepath.Join(work, name)
	build := goCmd("test", "-c", "-o", bin, pkg)
	// Go's Green Tea garbage collector scans spans with AVX-512 code
	// (VPERMB, VGF2P8AFFINEQB, VPCOMPRESSQ, ... in internal/runtime/gc/scan)
	// when the CPU has GFNI and AVX512VBMI; under bochs 2.7's Tiger Lake
	// that code corrupts the heap ("found bad pointer in Go heap"), so the
	// test binary gets the previous collector.
	exp := "nogreenteagc"
	if e := os.Getenv("GOEXPERIMENT"); e != "" {
		exp = e + "," + exp
	}
	build.Env = append(os.Environ(), "GOOS=linux", "GOARCH=amd64", "CGO_ENABLED=0", "GOEXPERIMENT="+exp)
	if out, err := build.CombinedOutput(); err != nil {
		return fail("go test -c: %v\n%s", err, out)
	}
	if _, err := os.Stat(bin); err != nil {
		return fail("go test -c wrote no binary: %s has no tests", pkg)
	}
	rel, err := filepath.Rel(list.Module.Dir, list.Dir)
	if err != nil {
		return fail("%v", err)
	}

	var runs []planned
	args := append([]string{"-test.v", "-test.timeout", "20m"}, testflags...)
	gdir, gbin := path.Join("/src", filepath.ToSlash(rel)), "/bin/"+name
	if tests := dispatchTests(env); len(tests) > 0 {
		runs = append(runs, planned{
			Run:      guestrun.Run{Dir: gdir, Path: gbin, Args: []string{"-test.v", "-test.run", "^(" + strings.Join(tests, "|") + ")$"}, Env: env},
			label:    strings.Join(tests, " "),
			mustPass: tests,
		})
	}
	runs = append(runs, planned{Run: guestrun.Run{Dir: gdir, Path: gbin, Args: args, Env: env}, label: strings.Join(testflags, " ")})

	initrd := filepath.Join(work, "initrd")
	if err := writeInitramfs(initrd, o.init, bin, gbin, list.Module.Dir, runs); err != nil {
		return fail("initramfs: %v", err)
	}
	iso := filepath.Join(work, "boot.iso")
	if err := writeISO(o, work, iso, initrd); err != nil {
		return fail("ISO image: %v", err)
	}

	res, err := emulate(o, work, iso)
	if err != nil {
		keep = true
		return fail("%v", err)
	}
	if err := verdict(o, runs, res); err != nil {
		keep = true
		return fail("%v\n  full console log: %s", err, res.serial)
	}
	return nil
}

func goCmd(args ...string) *exec.Cmd {
	return exec.Command(cmp.Or(os.Getenv("GO"), "go"), args...)
}

func stderrOf(err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return fmt.Errorf("%v: %s", err, bytes.TrimSpace(ee.Stderr))
	}
	return err
}

// writeInitramfs packs /init, the test binary, the run list and the files
// of the package's module (the tests read testdata/ and their own sources)
// under /src, less .git and nested modules (gen/).
func writeInitramfs(file, initBin, testBin, guestBin, moduleDir string, runs []planned) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	w := newCPIOWriter(bw)
	w.CharDev("/dev/console", 0o600, 5, 1) // the kernel opens it for /init's stdio
	for _, d := range []string{"/proc", "/sys", "/tmp"} {
		w.Dir(d, 0o755)
	}
	for _, x := range []struct{ src, dst string }{{initBin, "/init"}, {testBin, guestBin}} {
		b, err := os.ReadFile(x.src)
		if err != nil {
			return err
		}
		w.File(x.dst, 0o755, b)
	}
	var c guestrun.Config
	for _, r := range runs {
		c.Runs = append(c.Runs, r.Run)
	}
	js, err := json.Marshal(c)
	if err != nil {
		return err
	}
	w.File(guestrun.ConfigPath, 0o644, js)
	err = filepath.WalkDir(moduleDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(moduleDir, p)
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			if rel != "." {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !d.Type().IsRegular() || strings.HasSuffix(p, ".test") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w.File(path.Join("/src", filepath.ToSlash(rel)), 0o644, b)
		return nil
	})
	// The first error of the walk, the trailer, the flush and the close,
	// made in that order.
	return cmp.Or(err, w.Close(), bw.Flush(), f.Close())
}

// writeISO makes an El Torito CD image on which ISOLINUX boots the kernel
// with the initramfs.
func writeISO(o options, work, iso, initrd string) error {
	cfg := filepath.Join(work, "isolinux.cfg")
	text := "default test\nprompt 0\ntimeout 0\nlabel test\n  kernel /vmlinuz\n  append initrd=/initrd " + kernelCmdline + "\n"
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		return err
	}
	cmd := exec.Command("xorriso", "-as", "mkisofs", "-quiet", "-o", iso,
		"-b", "isolinux/isolinux.bin", "-c", "isolinux/boot.cat",
		"-no-emul-boot", "-boot-load-size", "4", "-boot-info-table",
		"-graft-points",
		"isolinux/isolinux.bin="+o.isolinux, "isolinux/ldlinux.c32="+o.ldlinux,
		"isolinux/isolinux.cfg="+cfg, "vmlinuz="+o.kernel, "initrd="+initrd)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("xorriso: %v\n%s", err, out)
	}
	return nil
}

// emulation is what a bochs run left: the console log, and when the guest
// got to each marker, in host wall-clock time since bochs started.
type emulation struct {
	serial, bochsLog string
	console          []string
	at               map[string]time.Duration // by markerKey
	total            time.Duration
	timedOut         bool
	exitErr          error
}

func emulate(o options, work, iso string) (*emulation, error) {
	res := &emulation{
		serial:   filepath.Join(work, "console.log"),
		bochsLog: filepath.Join(work, "bochs.log"),
		at:       map[string]time.Duration{},
	}
	rc := filepath.Join(work, "bochsrc")
	text := strings.Join([]string{
		// Debian's bochs has no "nogui" display; "term" draws the VGA text
		// screen with curses into a file nobody reads, and needs no X or socket.
		"display_library: term",
		"romimage: file=/usr/share/bochs/BIOS-bochs-latest, options=fastboot",
		"vgaromimage: file=/usr/share/vgabios/vgabios.bin",
		fmt.Sprintf("cpu: model=%s, count=1, ips=%d, reset_on_triple_fault=0", o.cpu, o.ips),
		fmt.Sprintf("memory: guest=%d, host=%d", o.megs, o.megs),
		"ata0-master: type=cdrom, path=" + iso + ", status=inserted",
		"boot: cdrom",
		// The guest clock follows the instruction count, not the host's;
		// time0 is a number because time0=local crashes Debian's bochs 2.7.
		fmt.Sprintf("clock: sync=none, time0=%d", time.Now().Unix()),
		"com1: enabled=1, mode=file, dev=" + res.serial,
		"log: " + res.bochsLog,
		"panic: action=fatal",
		"error: action=report",
		"info: action=report",
		"debug: action=ignore",
		"plugin_ctrl: speaker=0, gameport=0, parallel=0, iodebug=0",
	}, "\n") + "\n"
	if err := os.WriteFile(rc, []byte(text), 0o644); err != nil {
		return nil, err
	}
	// Debian builds bochs with its debugger, which stops before the first
	// instruction: the command file tells it to continue, then to quit.
	dbg := filepath.Join(work, "debugger.rc")
	if err := os.WriteFile(dbg, []byte("continue\nquit\n"), 0o644); err != nil {
		return nil, err
	}
	out, err := os.Create(filepath.Join(work, "bochs.out"))
	if err != nil {
		return nil, err
	}
	defer out.Close()

	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bochs", "-q", "-f", rc, "-rc", dbg)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "TERM=vt100")
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("bochs: %v (run scripts/bochs-deps.sh)", err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

	// Follow the console file as bochs writes it.
	var (
		partial []byte
		offset  int64
	)
	readNew := func() {
		f, err := os.Open(res.serial)
		if err != nil {
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(io.NewSectionReader(f, offset, 1<<40))
		offset += int64(len(b))
		partial = append(partial, b...)
		for {
			i := bytes.IndexByte(partial, '\n')
			if i < 0 {
				break
			}
			line := strings.TrimRight(string(partial[:i]), "\r")
			partial = partial[i+1:]
			res.console = append(res.console, line)
			if m, ok := guestrun.Parse(line); ok {
				res.at[markerKey(m)] = time.Since(start)
			}
			if o.verbose {
				fmt.Println(line)
			}
		}
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for done := false; !done; {
		select {
		case res.exitErr = <-waited:
			done = true
		case <-tick.C:
		}
		readNew()
	}
	if len(partial) > 0 {
		res.console = append(res.console, string(partial))
	}
	res.total = time.Since(start)
	res.timedOut = ctx.Err() != nil
	return res, nil
}

// verdict checks every planned run against the console, prints one line
// per run, and returns the first failure.
func verdict(o options, runs []planned, res *emulation) error {
	secs := func(d time.Duration) string { return fmt.Sprintf("%.1fs", d.Seconds()) }
	why := func() string {
		var w []string
		if res.timedOut {
			w = append(w, fmt.Sprintf("timed out after %s (-timeout)", o.timeout))
		}
		if i := slices.IndexFunc(res.console, func(l string) bool { return strings.Contains(l, "Kernel panic") }); i >= 0 {
			w = append(w, "the guest kernel panicked: "+strings.TrimSpace(res.console[i]))
		}
		if len(w) == 0 {
			w = append(w, fmt.Sprintf("bochs exited (%v) after %s", res.exitErr, secs(res.total)))
		}
		return strings.Join(w, "; ")
	}
	if !slices.Contains(res.console, guestrun.Started()) {
		return fmt.Errorf("the guest never started /init (boot failure): %s\n%s\n  bochs's own log: %s",
			why(), tail(res.console, 40), res.bochsLog)
	}
	fmt.Printf("bochs: booted to /init in %s (%s, %s)\n", secs(res.at["started"]), o.cpu, kernelCmdline)

	// Cut the console into the runs' outputs.
	outputs := make([][]string, len(runs))
	ended := make([]*guestrun.Marker, len(runs))
	cur := -1
	for _, l := range res.console {
		if m, ok := guestrun.Parse(l); ok {
			switch m.Kind {
			case "begin":
				cur = m.Run
			case "end":
				if m.Run >= 0 && m.Run < len(runs) {
					ended[m.Run] = &m
				}
				cur = -1
			}
			continue
		}
		if cur >= 0 && cur < len(runs) {
			outputs[cur] = append(outputs[cur], l)
		}
	}
	var firstErr error
	for i, r := range runs {
		err := checkRun(r, outputs[i], ended[i], why)
		took := ""
		b, okb := res.at[fmt.Sprintf("begin %d", i)]
		if e, oke := res.at[fmt.Sprintf("end %d", i)]; okb && oke {
			took = "; " + secs(e-b)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, failureContext(outputs[i]))
			fmt.Printf("FAIL %s: %v%s\n", strings.TrimSpace(r.label+" "+strings.Join(r.Env, " ")), err, took)
			if firstErr == nil {
				firstErr = fmt.Errorf("run %q: %v", r.label, err)
			}
			continue
		}
		fmt.Printf("ok   %s (%s%s)\n", strings.TrimSpace(r.label+" "+strings.Join(r.Env, " ")), summary(outputs[i]), took)
		for _, l := range outputs[i] {
			if strings.Contains(l, "Kernel() = ") {
				fmt.Printf("       %s\n", strings.TrimSpace(l))
			}
		}
	}
	if firstErr == nil {
		fmt.Printf("bochs: %d run(s) passed; %s in all\n", len(runs), secs(res.total))
	}
	return firstErr
}

// markerKey names a marker by its kind and run: "started", "begin 0", ...
func markerKey(m guestrun.Marker) string {
	if m.Kind == "begin" || m.Kind == "end" {
		return fmt.Sprintf("%s %d", m.Kind, m.Run)
	}
	return m.Kind
}

var (
	passLine = regexp.MustCompile(`^ *--- PASS: `)
	skipLine = regexp.MustCompile(`^ *--- SKIP: `)
	failLine = regexp.MustCompile(`^ *--- FAIL: `)
	// A benchmark's result line: name, iterations, then figures.
	benchLine = regexp.MustCompile(`^Benchmark\S*\s+\d+\s+\S+ ns/op`)
)

func checkRun(r planned, out []string, end *guestrun.Marker, why func() string) error {
	sigill := slices.ContainsFunc(out, func(l string) bool { return strings.Contains(l, "SIGILL") })
	if end == nil {
		return fmt.Errorf("did not finish: %s", why())
	}
	if end.Status != 0 {
		msg := fmt.Sprintf("%s (exit status %d)", end.How, end.Status)
		if sigill {
			msg += "; SIGILL: the code used an instruction the CPU model lacks"
		}
		return errors.New(msg)
	}
	passed, pass, failed := 0, false, 0
	for _, l := range out {
		switch {
		case passLine.MatchString(l), benchLine.MatchString(l):
			passed++
		case failLine.MatchString(l):
			failed++
		case l == "PASS":
			pass = true
		}
	}
	switch {
	case failed > 0:
		return fmt.Errorf("%d test(s) failed, yet exit status 0", failed)
	case !pass:
		return errors.New("no PASS line in the output")
	case passed == 0:
		return errors.New("no test or benchmark ran")
	}
	for _, test := range r.mustPass {
		if !slices.ContainsFunc(out, func(l string) bool { return strings.HasPrefix(l, "--- PASS: "+test+" ") }) {
			return fmt.Errorf("%s did not run and pass, so the kernel chosen was not checked", test)
		}
	}
	return nil
}

// summary counts passed and skipped tests, and names the skipped subtests
// by their last element (the kernel the CPU model lacks), as
// scripts/ci/qemu-test.sh does.
func summary(out []string) string {
	passed, skipped := 0, map[string]int{}
	var order []string
	nskip := 0
	for _, l := range out {
		switch {
		case passLine.MatchString(l):
			passed++
		case skipLine.MatchString(l):
			nskip++
			f := strings.Fields(strings.TrimSpace(l))
			if len(f) >= 3 {
				k := path.Base(f[2])
				if skipped[k] == 0 {
					order = append(order, k)
				}
				skipped[k]++
			}
		}
	}
	s := fmt.Sprintf("%d passed, %d skipped", passed, nskip)
	for i, k := range order {
		sep := ", "
		if i == 0 {
			sep = ": "
		}
		s += fmt.Sprintf("%s%s x%d", sep, k, skipped[k])
	}
	return s
}

// failureContext is the output less the lines of passing and skipped
// tests: for a crash, its first lines and the first goroutine.
func failureContext(out []string) string {
	quiet := regexp.MustCompile(`^ *(=== (RUN|PAUSE|CONT|NAME)|--- (PASS|SKIP))`)
	var keep []string
	goroutines := 0
	for _, l := range out {
		if strings.HasPrefix(l, "goroutine ") {
			goroutines++
		}
		if goroutines > 1 {
			break
		}
		if !quiet.MatchString(l) {
			keep = append(keep, l)
		}
	}
	return tail(keep, 120)
}

func tail(lines []string, n int) string {
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
