//go:build linux && amd64 && !purego

package sha1

import (
	"os"
	"testing"

	"github.com/simdhash/simdhash/internal/cpuid"
)

// cpuFlags returns the feature flags the Linux kernel reports for the first
// CPU in /proc/cpuinfo: an oracle for the dispatcher that does not go
// through golang.org/x/sys/cpu or our CPUID code.
func cpuFlags(t *testing.T) map[string]bool {
	flags, err := cpuid.CPUInfoFlags()
	if err != nil {
		t.Skip(err)
	}
	return flags
}

// TestDispatchMatchesCPUInfo checks the kernel chosen at init against the
// one the kernel's own view of the CPU calls for. It runs when neither
// GODEBUG nor SIMDHASH_SHA1_KERNEL is set (the emulated runs set the latter:
// under qemu-user /proc/cpuinfo describes the host, not the emulated CPU).
func TestDispatchMatchesCPUInfo(t *testing.T) {
	if os.Getenv("GODEBUG") != "" || os.Getenv("SIMDHASH_SHA1_KERNEL") != "" {
		t.Skip("GODEBUG or SIMDHASH_SHA1_KERNEL is set: TestDispatch checks that case")
	}
	f := cpuFlags(t)
	want := "generic"
	switch {
	case f["sha_ni"] && f["sse4_1"] && f["ssse3"]:
		want = "shani"
	case f["avx2"] && f["bmi1"] && f["bmi2"] && f["avx"]:
		want = "avx2"
	case f["avx"]:
		want = "avx"
	case f["ssse3"]:
		want = "ssse3"
	}
	if got := Kernel(); got != want {
		t.Fatalf("Kernel() = %q, but /proc/cpuinfo's flags call for %q", got, want)
	}
}
