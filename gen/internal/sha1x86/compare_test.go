package sha1x86

import (
	"testing"

	"github.com/simdhash/simdhash/gen/internal/gentest"
)

// TestCompare times variants of the kernels against each other in one
// process, for choosing defaults on a shared, noisy machine where make
// tune's benchstat cannot tell a few percent from the noise. It runs only
// when SIMDHASH_COMPARE lists the variants, as kernel:flags separated by
// semicolons; the first is the baseline, and a variant may repeat (a
// repeat at another address shows what code placement alone does):
//
//	SIMDHASH_COMPARE='avx2:;avx2:-align unpack;avx2:' go -C gen test -run '^TestCompare$' -v ./internal/sha1x86
//
// Each variant is generated into a scratch package and checked against
// internal/ref; then every round times each variant once, in a rotating
// order, on SIMDHASH_COMPARE_BLOCKS blocks (default 64), and the test logs
// each variant's minimum and median time per byte over
// SIMDHASH_COMPARE_ROUNDS rounds (default 4000), and their ratios to the
// baseline's. The minimum is what the code does when nothing else runs,
// which is what a loaded machine lets through least distorted.
func TestCompare(t *testing.T) {
	variant := func(name, flags, label string) scratchVariant {
		k, p := compareVariant(t, name, flags)
		if !gentest.Runs(k.Name) {
			t.Skipf("this CPU cannot run %s kernels", k.Name)
		}
		return scratchVariant{k: k, p: p, label: label}
	}
	scratch := func(vs []scratchVariant) string { return scratchKernels(t, "TestCompare", vs, nil) }
	gentest.Compare(t, variant, scratch, scratchCompare)
}

// compareVariant returns the kernel named name with its defaults changed by
// flags, parsed as its generator parses them.
func compareVariant(t *testing.T, name, flags string) (Kernel, Params) {
	for _, k := range Kernels {
		if k.Name == name {
			p := k.Defaults()
			gentest.SetKnobs(t, name, flags, k.Knobs(&p))
			return k, p
		}
	}
	t.Fatalf("no kernel %q", name)
	panic("unreachable")
}

// scratchCompare is the timing loop of TestCompare, run in the scratch
// package (gentest.Compare, which adds the package clause and imports).
const scratchCompare = `func TestCompare(t *testing.T) {
	blocks, rounds, reps := 64, 4000, 20
	fmt.Sscan(os.Getenv("SIMDHASH_COMPARE_BLOCKS"), &blocks)
	fmt.Sscan(os.Getenv("SIMDHASH_COMPARE_ROUNDS"), &rounds)
	buf := make([]byte, 64*blocks)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	var h [5]uint32
	logTimes(t, timeRounds(rounds, func(i int) float64 {
		start := time.Now()
		for k := 0; k < reps; k++ {
			variants[i].block(&h, buf)
		}
		return float64(time.Since(start).Nanoseconds()) / float64(reps*len(buf))
	}))
}
`
