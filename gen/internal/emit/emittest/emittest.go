// Package emittest holds what the generators' tests share: running the Go
// toolchain and GNU binutils, reading machine words from their disassembly
// (the arm64 and arm32 encoding tests), and the scratch packages of the
// knob sweeps.
package emittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
