//go:build linux && amd64 && !purego

package ghash

import (
	"os"
	"strings"
	"testing"
)

// TestDispatchMatchesCPUInfo checks the kernel chosen at init against the
// feature flags in /proc/cpuinfo, an oracle independent of
// golang.org/x/sys/cpu. It runs when neither GODEBUG nor
// SIMDHASH_GHASH_KERNEL is set (under qemu-user /proc/cpuinfo describes the
// host, and the emulated runs set the latter).
func TestDispatchMatchesCPUInfo(t *testing.T) {
	if os.Getenv("GODEBUG") != "" || os.Getenv("SIMDHASH_GHASH_KERNEL") != "" {
		t.Skip("GODEBUG or SIMDHASH_GHASH_KERNEL is set: TestDispatch checks that case")
	}
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("no /proc/cpuinfo: %v", err)
	}
	f := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "flags" {
			for _, x := range strings.Fields(v) {
				f[x] = true
			}
			break
		}
	}
	want := "generic"
	switch {
	case f["pclmulqdq"] && f["avx"]:
		want = "pclmul"
	case f["pclmulqdq"] && f["ssse3"]:
		want = "pclmul-sse"
	}
	if got := Kernel(); got != want {
		t.Fatalf("Kernel() = %q, but /proc/cpuinfo's flags call for %q", got, want)
	}
}
