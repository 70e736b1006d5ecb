//go:build linux && amd64 && !purego

package sha1dc

import (
	"os"
	"testing"

	"github.com/simdhash/simdhash/internal/cpuid"
	"github.com/simdhash/simdhash/internal/oracle"
)

// TestDispatchMatchesCPUInfo checks the kernels chosen at init, Kernel's
// and ManyKernel's, against those that the feature flags Linux reports in
// /proc/cpuinfo and GODEBUG call for by internal/oracle's rule, which does
// not go through golang.org/x/sys/cpu or our CPUID code. It runs unless
// the expected-kernel variables are set (the emulated runs set them: under
// qemu-user /proc/cpuinfo describes the host, not the emulated CPU).
func TestDispatchMatchesCPUInfo(t *testing.T) {
	if os.Getenv("SIMDHASH_SHA1DC_KERNEL") != "" || os.Getenv("SIMDHASH_SHA1DC_MANY_KERNEL") != "" {
		t.Skip("an expected kernel is set: TestDispatch and TestManyDispatch check that case")
	}
	flags, err := cpuid.CPUInfoFlags()
	if err != nil {
		t.Skip(err)
	}
	want := oracle.X86(flags, os.Getenv("GODEBUG"))
	if got := Kernel(); got != want.SHA1DC {
		t.Errorf("Kernel() = %q, but /proc/cpuinfo's flags and GODEBUG %q call for %q", got, os.Getenv("GODEBUG"), want.SHA1DC)
	}
	if got := ManyKernel(); got != want.SHA1DCMany {
		t.Errorf("ManyKernel() = %q, but /proc/cpuinfo's flags and GODEBUG %q call for %q", got, os.Getenv("GODEBUG"), want.SHA1DCMany)
	}
}
