// Package emittest holds what the encoding tests of the arm64 and arm32
// emitters share: running the Go toolchain and GNU binutils, and reading
// machine words from their disassembly.
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
