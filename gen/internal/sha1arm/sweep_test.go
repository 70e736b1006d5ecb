package sha1arm

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/simdhash/simdhash/gen/internal/gentest"
	"github.com/simdhash/simdhash/gen/internal/knob"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// TestSweep generates, for arm64 and arm, a kernel for every value of
// every knob the architecture honours, varied one at a time from its
// defaults, plus three random combinations of knobs (SIMDHASH_SWEEP=full:
// 24), into a scratch package under testdata/ (gentest.Sweep), and runs
// each there against internal/ref under qemu user-mode emulation, on
// inputs around a guard page too. 32-bit arm runs on a Cortex-A15, which
// has NEON but not the SHA-1 instructions, so that a stray one faults.
// SIMDHASH_SWEEP_KEEP=1 leaves the scratch package behind.
func TestSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the sweep cross-compiles and runs every knob's kernel under qemu; run it without -short (make test) or with make sweep")
	}
	gentest.NeedQemu(t)
	combos := gentest.Sweeps(3, 24)
	files := gentest.SHA1Tests("arm64 || arm", "hasNEON")
	sw := gentest.NewSweep(t, files["sweep_test.go"])
	sw.File("guard_linux_test.go", files["guard_linux_test.go"])
	sw.CPU("arm", "cortex-a15")
	for _, a := range Arches {
		sw.Head(a.String(), fmt.Sprintf("import \"golang.org/x/sys/cpu\"\n\nvar hasNEON = %s\n\n",
			map[Arch]string{ARM64: "cpu.ARM64.HasASIMD", ARM: "cpu.ARM.HasNEON"}[a]))
		base := a.Defaults()
		variants := append(append([]Params{base}, a.Variants(base)...), randomParams(a, rand.New(rand.NewSource(1)), combos)...)
		for _, p := range variants {
			file, _, err := a.Generate(p, "", a.String())
			if err != nil {
				t.Fatalf("%s %s: %v", a, a.Schedule(p), err)
			}
			label := a.String() + " " + a.Schedule(p)
			sw.Add(a.String(), file, label, []string{Function}, sha1sched.Contract{}.Signature(), func(names []string) string {
				return fmt.Sprintf("\t{%q, %s},\n", label, names[0])
			})
		}
	}
	t.Logf("%d kernels passed", sw.Run())
}

// randomParams returns n combinations of the knobs architecture a
// honours, each drawn from rng and valid for a.
func randomParams(a Arch, rng *rand.Rand, n int) []Params {
	return knob.Random(rng.Intn, n, a.Defaults(), a.Knobs, a.Validate)
}
