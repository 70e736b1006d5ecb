//go:build linux && amd64 && !purego

package sha1

import (
	"os"
	"testing"
)

// TestManyDispatchMatchesCPUInfo checks the kernel SumMany chose at init
// against /proc/cpuinfo's flags, when neither GODEBUG nor the emulated
// runs' SIMDHASH_SHA1_MANY_KERNEL is set. The 16-lane kernel is expected
// only while the registry lets dispatch choose it.
func TestManyDispatchMatchesCPUInfo(t *testing.T) {
	if os.Getenv("GODEBUG") != "" || os.Getenv("SIMDHASH_SHA1_MANY_KERNEL") != "" {
		t.Skip("GODEBUG or SIMDHASH_SHA1_MANY_KERNEL is set: TestManyDispatch checks that case")
	}
	f := cpuFlags(t)
	dispatch512 := false
	for _, k := range manyKernels {
		if k.id == manyAVX512x16 {
			dispatch512 = k.dispatch
		}
	}
	want := "single"
	switch {
	case dispatch512 && f["avx512f"] && f["avx512vl"] && f["avx512bw"] && f["avx2"]:
		want = "avx512x16"
	case f["avx2"] && f["avx"]:
		want = "avx2x8"
	}
	if got := ManyKernel(); got != want {
		t.Fatalf("ManyKernel() = %q, but /proc/cpuinfo's flags call for %q", got, want)
	}
}
