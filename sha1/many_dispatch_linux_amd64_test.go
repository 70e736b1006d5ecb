//go:build linux && amd64 && !purego

package sha1

import (
	"os"
	"testing"

	"github.com/simdhash/simdhash/internal/cpuid"
)

// TestManyDispatchMatchesCPUInfo checks the kernel SumMany chose at init
// against /proc/cpuinfo's flags, with GODEBUG's cpu.<feature>=off keys
// applied, unless the emulated runs set SIMDHASH_SHA1_MANY_KERNEL (under
// qemu-user the file describes the host).
func TestManyDispatchMatchesCPUInfo(t *testing.T) {
	if os.Getenv("SIMDHASH_SHA1_MANY_KERNEL") != "" {
		t.Skip("SIMDHASH_SHA1_MANY_KERNEL is set: TestManyDispatch checks that case")
	}
	f := cpuFlags(t)
	env := os.Getenv("GODEBUG")
	has := func(flag string) bool { return f[flag] && !cpuid.GodebugOff(env, flag) }
	want := "single"
	switch {
	// cpu.avx512=off is golang.org/x/sys/cpu's key for AVX-512 as a whole,
	// which names no flag of the file.
	case !cpuid.GodebugOff(env, "avx512") && has("avx512f") && has("avx512vl") && has("avx512bw") && has("avx2") && has("avx"):
		want = "avx512x16"
	case has("avx2") && has("avx"):
		want = "avx2x8"
	}
	if got := ManyKernel(); got != want {
		t.Fatalf("ManyKernel() = %q, but /proc/cpuinfo's flags and GODEBUG %q call for %q", got, os.Getenv("GODEBUG"), want)
	}
	t.Logf("ManyKernel() = %q, as /proc/cpuinfo's flags and GODEBUG %q call for", want, os.Getenv("GODEBUG"))
}
