package ghash

import (
	"os"
	"strings"
	"testing"
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

// godebugOff returns the CPU features that GODEBUG turns off with
// cpu.<name>=off keys, as golang.org/x/sys/cpu reads them; "all" stands
// for cpu.all=off.
func godebugOff() map[string]bool {
	off := map[string]bool{}
	for _, f := range strings.Split(os.Getenv("GODEBUG"), ",") {
		if name, ok := strings.CutPrefix(f, "cpu."); ok {
			if n, v, ok := strings.Cut(name, "="); ok && v == "off" {
				off[n] = true
			}
		}
	}
	return off
}

// has reports whether feature is present and not turned off by GODEBUG.
func has(features, off map[string]bool, feature string) bool {
	return features[feature] && !off[feature] && !off["all"]
}
