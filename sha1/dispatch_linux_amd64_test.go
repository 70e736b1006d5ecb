//go:build linux && amd64 && !purego

package sha1

import (
	"os"
	"testing"

	"github.com/simdhash/simdhash/internal/cpuid"
	"github.com/simdhash/simdhash/internal/oracle"
)

// cpuChoice returns the kernels that the feature flags the Linux kernel
// reports in /proc/cpuinfo and GODEBUG call for, by the rule of
// internal/oracle: an oracle for the dispatcher that does not go through
// golang.org/x/sys/cpu or our CPUID code.
func cpuChoice(t *testing.T) oracle.Choice {
	flags, err := cpuid.CPUInfoFlags()
	if err != nil {
		t.Skip(err)
	}
	return oracle.X86(flags, os.Getenv("GODEBUG"))
}

// TestDispatchMatchesCPUInfo checks the kernel chosen at init against the
// one the kernel's own view of the CPU calls for. It runs unless
// SIMDHASH_SHA1_KERNEL is set (the emulated runs set it: under qemu-user
// /proc/cpuinfo describes the host, not the emulated CPU).
func TestDispatchMatchesCPUInfo(t *testing.T) {
	if os.Getenv("SIMDHASH_SHA1_KERNEL") != "" {
		t.Skip("SIMDHASH_SHA1_KERNEL is set: TestDispatch checks that case")
	}
	want := cpuChoice(t).SHA1
	if got := Kernel(); got != want {
		t.Fatalf("Kernel() = %q, but /proc/cpuinfo's flags and GODEBUG %q call for %q", got, os.Getenv("GODEBUG"), want)
	}
	t.Logf("Kernel() = %q, as /proc/cpuinfo's flags and GODEBUG %q call for", want, os.Getenv("GODEBUG"))
}
