package sha1x86

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/gen/internal/emit/emittest"
	"github.com/simdhash/simdhash/gen/internal/knob"
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
	spec := os.Getenv("SIMDHASH_COMPARE")
	if spec == "" {
		t.Skip("SIMDHASH_COMPARE lists no variants to time")
	}
	if runtime.GOARCH != "amd64" {
		t.Skip("the variants are amd64 assembly")
	}
	var vs []scratchVariant
	for n, v := range strings.Split(spec, ";") {
		name, flags, _ := strings.Cut(strings.TrimSpace(v), ":")
		k, p := compareVariant(t, name, flags)
		if !runnable(k.Name) {
			t.Skipf("this CPU cannot run %s kernels", k.Name)
		}
		vs = append(vs, scratchVariant{k, p, fmt.Sprintf("%d %s %s", n, k.Name, flags)})
	}
	dir := scratchKernels(t, "TestCompare", vs)
	emittest.WriteFile(t, filepath.Join(dir, "compare_amd64_test.go"), scratchCompare)
	out := emittest.Run(t, dir, nil, filepath.Join(runtime.GOROOT(), "bin", "go"), "test", "-count=1", "-v", "-run", "^(TestVariants|TestCompare)$", ".")
	for _, l := range strings.Split(string(out), "\n") {
		if _, result, ok := strings.Cut(l, "compare_amd64_test.go:"); ok && strings.Contains(l, "ns/B") {
			_, result, _ = strings.Cut(result, ": ") // after the line number
			t.Log(result)
		}
	}
}

// compareVariant returns the kernel named name with its defaults changed by
// flags, parsed as its generator parses them.
func compareVariant(t *testing.T, name, flags string) (Kernel, Params) {
	for _, k := range Kernels {
		if k.Name == name {
			p := k.Defaults()
			fs := flag.NewFlagSet(name, flag.ContinueOnError)
			knob.Register(fs, k.Knobs(&p)...)
			if err := fs.Parse(strings.Fields(flags)); err != nil {
				t.Fatalf("%s:%s: %v", name, flags, err)
			}
			return k, p
		}
	}
	t.Fatalf("no kernel %q", name)
	panic("unreachable")
}

// scratchCompare is the timing loop of TestCompare, run in the scratch
// package.
const scratchCompare = `//go:build amd64

package sweep

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"
)

func TestCompare(t *testing.T) {
	blocks, rounds, reps := 64, 4000, 20
	fmt.Sscan(os.Getenv("SIMDHASH_COMPARE_BLOCKS"), &blocks)
	fmt.Sscan(os.Getenv("SIMDHASH_COMPARE_ROUNDS"), &rounds)
	buf := make([]byte, 64*blocks)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	times := make([][]float64, len(variants))
	var h [5]uint32
	for r := 0; r < rounds; r++ {
		for j := range variants {
			i := (j + r) % len(variants)
			start := time.Now()
			for k := 0; k < reps; k++ {
				variants[i].block(&h, buf)
			}
			times[i] = append(times[i], float64(time.Since(start).Nanoseconds())/float64(reps*len(buf)))
		}
	}
	var min0, med0 float64
	for i, v := range variants {
		slices.Sort(times[i])
		min, med := times[i][0], times[i][len(times[i])/2]
		if i == 0 {
			min0, med0 = min, med
		}
		t.Logf("%-50s min %.4f ns/B (%.3f)  median %.4f ns/B (%.3f)", v.name, min, min/min0, med, med/med0)
	}
}
`
