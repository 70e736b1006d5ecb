package ghash

import (
	"os"
	"testing"

	"github.com/simdhash/simdhash/internal/cpuid"
)

// TestDispatch checks the kernel chosen at init against an expectation
// that does not come from the dispatcher: SIMDHASH_GHASH_KERNEL when it is
// set (the emulated runs of make test set it, from the CPU model they give
// qemu), and otherwise this platform's oracle (dispatchOracle: the CPU
// flags as /proc reports them, with GODEBUG's cpu.*=off keys applied, or
// "generic" in a build without assembly). Where neither exists it skips,
// saying so.
func TestDispatch(t *testing.T) {
	if len(kernels) == 0 || kernels[len(kernels)-1].name != genericName || !kernels[len(kernels)-1].available {
		t.Fatal("the last registered kernel must be the always-available generic one")
	}
	names := map[string]bool{}
	for _, k := range kernels {
		if names[k.name] {
			t.Fatalf("two kernels are named %q", k.name)
		}
		names[k.name] = true
	}
	want, source := os.Getenv("SIMDHASH_GHASH_KERNEL"), "SIMDHASH_GHASH_KERNEL"
	if want == "" {
		want, source = dispatchOracle(t)
	}
	if want == "" {
		t.Skipf("no expected kernel: SIMDHASH_GHASH_KERNEL is not set and %s", source)
	}
	if !names[want] {
		t.Fatalf("%s expects kernel %q, which this build does not register", source, want)
	}
	if got := Kernel(); got != want {
		t.Fatalf("Kernel() = %q, but %s calls for %q", got, source, want)
	}
	t.Logf("Kernel() = %q, as %s calls for", want, source)
}

// has reports whether feature is present and GODEBUG does not turn it off
// (read by cpuid.GodebugOff, as golang.org/x/sys/cpu reads it).
func has(features map[string]bool, feature string) bool {
	return features[feature] && !cpuid.GodebugOff(os.Getenv("GODEBUG"), feature)
}
