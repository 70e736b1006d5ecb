//go:build linux && amd64 && !purego

package sha1

import (
	"os"
	"testing"
)

// TestManyDispatchMatchesCPUInfo checks the kernel SumMany chose at init
// against /proc/cpuinfo's flags and GODEBUG (cpuChoice), unless the
// emulated runs set SIMDHASH_SHA1_MANY_KERNEL (under qemu-user the file
// describes the host).
func TestManyDispatchMatchesCPUInfo(t *testing.T) {
	if os.Getenv("SIMDHASH_SHA1_MANY_KERNEL") != "" {
		t.Skip("SIMDHASH_SHA1_MANY_KERNEL is set: TestManyDispatch checks that case")
	}
	want := cpuChoice(t).SHA1Many
	if got := ManyKernel(); got != want {
		t.Fatalf("ManyKernel() = %q, but /proc/cpuinfo's flags and GODEBUG %q call for %q", got, os.Getenv("GODEBUG"), want)
	}
	t.Logf("ManyKernel() = %q, as /proc/cpuinfo's flags and GODEBUG %q call for", want, os.Getenv("GODEBUG"))
}
