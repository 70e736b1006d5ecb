package sha1x86

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/gentest"
	"github.com/simdhash/simdhash/gen/internal/knob"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// TestSweep generates a kernel for every value of every knob each kernel
// honours, varied one at a time from its defaults, for the ssse3, avx and
// avx2 kernels, into a scratch package under testdata/, and runs each there
// against internal/ref, plus three random combinations of knobs per
// kernel; SIMDHASH_SWEEP=full makes that 24 (make sweep).
// SIMDHASH_SWEEP_KEEP=1 leaves the scratch package behind for inspection.
func TestSweep(t *testing.T) {
	gentest.NativeAMD64(t)
	combos := gentest.Sweeps(3, 24)
	var vs []scratchVariant
	for _, k := range Kernels {
		variants := sweepParams(k, combos)
		if !gentest.Runs(k.Name) {
			t.Logf("this CPU cannot run %s kernels: its %d variants are not swept here", k.Name, len(variants))
			continue
		}
		for _, p := range variants {
			vs = append(vs, scratchVariant{k: k, p: p, label: k.Name + " " + k.Schedule(p)})
		}
	}
	dir := scratchKernels(t, "TestSweep", vs, nil)

	t.Logf("%d kernels passed: %s", len(vs), gentest.GoTest(t, dir))
}

// scratchVariant is one kernel of a scratch package: kernel k with p and
// contract c, named label in the package's table.
type scratchVariant struct {
	k     Kernel
	p     Params
	label string
	c     sha1sched.Contract
}

// scratchKernels generates vs, kernels of one target, into a new scratch
// package (gentest.AvoScratch) as block0, block1, ..., with the
// table "variants" of their labels and functions and the test files tests
// (by name; gentest.SHA1Tests if nil), which define the table's type, and
// returns its directory. test names the generating test in the files'
// headers.
func scratchKernels(t *testing.T, test string, vs []scratchVariant, tests map[string]string) string {
	t.Helper()
	target := vs[0].k.Target()
	var ks []gentest.AvoKernel
	table := "var variants = []variant{\n"
	for n, v := range vs {
		if v.k.Target() != target {
			t.Fatalf("%s: a scratch package for %s and %s", v.label, target, v.k.Target())
		}
		name := fmt.Sprintf("block%d", n)
		ks = append(ks, gentest.AvoKernel{Decl: v.c.Decl(name), Argv: []string{test, v.k.Name, v.k.Schedule(v.p)},
			Generate: func(ctx *build.Context) error { return v.k.Generate(ctx, v.p, name, v.c) }})
		table += fmt.Sprintf("\t{%q, %s},\n", v.label, name)
	}
	if tests == nil {
		tests = gentest.SHA1Tests(string(target), "")
	}
	return gentest.AvoScratch(t, test, target, ks, table+"}\n", tests)
}

// sweepParams returns the schedules a sweep of kernel k tries: the
// defaults, every other knob value alone, and n random combinations of the
// knobs k honours (a fixed seed), each valid for k.
func sweepParams(k Kernel, n int) []Params {
	base := k.Defaults()
	random := knob.Random(rand.New(rand.NewSource(1)).Intn, n, base, k.Knobs, k.Validate)
	return append(append([]Params{base}, k.Variants(base)...), random...)
}
