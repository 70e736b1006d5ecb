package sha1mb

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/emit/emittest"
	"github.com/simdhash/simdhash/gen/internal/knob"
	"golang.org/x/sys/cpu"
)

// runnable reports whether this CPU runs the kernels of backend name (the
// conditions of package sha1's registry).
func runnable(name string) bool {
	switch name {
	case "avx2x8":
		return cpu.X86.HasAVX && cpu.X86.HasAVX2
	case "avx512x16":
		return cpu.X86.HasAVX512 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512BW && cpu.X86.HasAVX2
	}
	panic("sweep: no CPU condition for kernel " + name)
}

// TestSweep generates every variant of the tests (variants: each knob
// varied alone from the defaults; SIMDHASH_SWEEP=full adds 12 random
// combinations) of each kernel this CPU runs into a scratch package under
// testdata/, assembled by Go's assembler, and runs each natively against
// internal/ref, with every lane's blocks between guard pages. (TestMachine
// runs the same variants on the model machine, for the kernels the CPU
// lacks.)
func TestSweep(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the scratch kernels are amd64 assembly: the sweep runs natively on amd64 only")
	}
	random := 2
	if os.Getenv("SIMDHASH_SWEEP") == "full" {
		random = 12
	}
	rng := rand.New(rand.NewSource(3))
	var vs []scratchVariant
	for _, nb := range backends {
		b := nb(nil)
		ps := variants(b, rng, random)
		if !runnable(b.Name()) {
			t.Logf("this CPU cannot run %s kernels: its %d variants run on the model machine only (TestMachine)", b.Name(), len(ps))
			continue
		}
		for _, p := range ps {
			vs = append(vs, scratchVariant{nb, p, b.Name() + " " + p.String(b)})
		}
	}
	if len(vs) == 0 {
		t.Skip("this CPU runs none of the kernels")
	}
	dir := scratchKernels(t, vs)
	out := emittest.Run(t, dir, nil, filepath.Join(runtime.GOROOT(), "bin", "go"), "test", "-count=1", "-run", "^TestVariants$", ".")
	t.Logf("%d kernels passed: %s", len(vs), strings.TrimSpace(string(out)))
}

// TestCompare times variants of the kernels against each other in one
// process, for choosing defaults on a shared, noisy machine. It runs only
// when SIMDHASH_COMPARE lists the variants, as kernel:flags separated by
// semicolons; the first is the baseline, and a variant may repeat (a
// repeat at another address shows what code placement alone does):
//
//	SIMDHASH_COMPARE='avx2x8:;avx2x8:-lookahead 4;avx2x8:' go -C gen test -run '^TestCompare$' -v ./internal/sha1mb
//
// The variants are checked against internal/ref (TestVariants), then every
// round times each variant once, in a rotating order, on 64 blocks of
// every lane, and the test logs each variant's minimum and median time per
// byte (of all lanes) over SIMDHASH_COMPARE_ROUNDS rounds (default 2000),
// and their ratios to the baseline's. The blocks stay in the cache unless
// SIMDHASH_COMPARE_MIB names a buffer of that many MiB to walk through. The minimum is what the code does
// when nothing else runs, which a loaded machine distorts least.
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
		var nb func(*build.Context) Backend
		for _, c := range backends {
			if c(nil).Name() == name {
				nb = c
			}
		}
		if nb == nil {
			t.Fatalf("no kernel %q", name)
		}
		if !runnable(name) {
			t.Skipf("this CPU cannot run %s kernels", name)
		}
		b := nb(nil)
		p := DefaultParams(b.Lanes())
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		knob.Register(fs, p.Knobs(b)...)
		if err := fs.Parse(strings.Fields(flags)); err != nil {
			t.Fatalf("%s:%s: %v", name, flags, err)
		}
		vs = append(vs, scratchVariant{nb, p, fmt.Sprintf("%d %s %s", n, name, flags)})
	}
	dir := scratchKernels(t, vs)
	emittest.WriteFile(t, filepath.Join(dir, "compare_amd64_test.go"), scratchCompare)
	out := emittest.Run(t, dir, nil, filepath.Join(runtime.GOROOT(), "bin", "go"), "test", "-count=1", "-v", "-run", "^(TestVariants|TestCompare)$", ".")
	for _, l := range strings.Split(string(out), "\n") {
		if _, result, ok := strings.Cut(l, "compare_amd64_test.go:"); ok && strings.Contains(l, "ns/B") {
			_, result, _ = strings.Cut(result, ": ")
			t.Log(result)
		}
	}
}

// A scratchVariant is one kernel generated into the scratch package.
type scratchVariant struct {
	backend func(*build.Context) Backend
	p       Params
	name    string
}

// scratchKernels generates each variant into a scratch package under
// testdata/, with the correctness test of every variant (scratchTest),
// and returns its directory.
func scratchKernels(t *testing.T, vs []scratchVariant) string {
	dir := emittest.ScratchPackage(t)
	var decl, table bytes.Buffer
	decl.WriteString("// Code generated by TestSweep. DO NOT EDIT.\n\n//go:build amd64\n\npackage sweep\n\n")
	table.WriteString("var variants = []variant{\n")
	for n, v := range vs {
		ctx := build.NewContext()
		ctx.ConstraintExpr("amd64")
		b := v.backend(ctx)
		name := fmt.Sprintf("kernel%d", n)
		if err := Generate(ctx, b, v.p, name); err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		out := filepath.Join(dir, fmt.Sprintf("v%d_amd64.s", n))
		if err := avogen.Write(ctx, out, "sweep", []string{"TestSweep", v.name}); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&decl, "//go:noescape\nfunc %s%s\n\n", name, strings.TrimPrefix(Signature, "func"))
		fmt.Fprintf(&table, "\t{%q, %d, %s},\n", v.name, b.Lanes(), name)
	}
	table.WriteString("}\n")
	decl.Write(table.Bytes())
	emittest.WriteFile(t, filepath.Join(dir, "decl_amd64.go"), decl.String())
	emittest.WriteFile(t, filepath.Join(dir, "sweep_linux_amd64_test.go"), scratchTest)
	return dir
}

// scratchTest runs each variant on 1..5 blocks, every lane absorbing all
// of them or some (0..5), in one segment or two (the switch anywhere),
// each segment in a mapping of its own that ends at a guard page (or
// starts right after one), with random states, and checks h against the
// FIPS 180-4 reference.
const scratchTest = `//go:build amd64 && linux

package sweep

import (
	"math/rand"
	"os"
	"testing"

	"github.com/simdhash/simdhash/internal/guardpage"
	"github.com/simdhash/simdhash/internal/ref"
)

type variant struct {
	name  string
	lanes int
	f     func(h *[5][16]uint32, p *[4][16]*byte, c *[2][16]int32, n int)
}

func TestVariants(t *testing.T) {
	page := os.Getpagesize()
	var mems [16][2][]byte
	for l := range mems {
		mems[l] = [2][]byte{guardpage.Page(t), guardpage.Page(t)}
	}
	rng := rand.New(rand.NewSource(1))
	for _, v := range variants {
		for n := 1; n <= 5; n++ {
			for _, all := range []uint32{1<<16 - 1, rng.Uint32() | 1} {
				var h, want [5][16]uint32
				var p [4][16]*byte
				var c [2][16]int32
				for l := range mems {
					c[0][l] = int32(rng.Intn(n+2) - 1)
					c[1][l] = int32(n)
					if all>>l&1 == 0 {
						c[1][l] = int32(rng.Intn(n + 1))
					}
					r := n
					if c[0][l] > 0 && int(c[0][l]) < n {
						r = int(c[0][l])
					}
					var blocks []byte
					for i, size := range []int{r, n - r} {
						m := mems[l][i]
						rng.Read(m)
						d := m[page-64*size:]
						if (l+n+i)%2 == 0 {
							d = m[:64*size]
						}
						p[i][l] = &m[0]
						if size > 0 {
							p[i][l] = &d[0]
						}
						blocks = append(blocks, d...)
					}
					for w := range h {
						h[w][l] = rng.Uint32()
						want[w][l] = h[w][l]
					}
					if l >= v.lanes {
						continue
					}
					s := [5]uint32{h[0][l], h[1][l], h[2][l], h[3][l], h[4][l]}
					for i := 0; i < int(c[1][l]); i++ {
						ref.SHA1Block(&s, (*[64]byte)(blocks[64*i:]))
					}
					for w := range s {
						want[w][l] = s[w]
					}
				}
				counts, rems := c[1], c[0]
				v.f(&h, &p, &c, n)
				if h != want {
					t.Fatalf("%s, %d blocks, counts %v, rem %v:\n got %08x\nwant %08x", v.name, n, counts, rems, h, want)
				}
			}
		}
	}
}
`

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
	const blocks, reps = 64, 4
	rounds, mib := 2000, 0
	fmt.Sscan(os.Getenv("SIMDHASH_COMPARE_ROUNDS"), &rounds)
	fmt.Sscan(os.Getenv("SIMDHASH_COMPARE_MIB"), &mib)
	const window = 16 * 64 * blocks
	buf := make([]byte, max(window, mib<<20))
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	times := make([][]float64, len(variants))
	var h [5][16]uint32
	next := 0
	for r := 0; r < rounds; r++ {
		for j := range variants {
			i := (j + r) % len(variants)
			v := variants[i]
			var p [reps][4][16]*byte
			var c [reps][2][16]int32
			for k := range p {
				if next+window > len(buf) {
					next = 0
				}
				for l := range p[k][0] {
					p[k][0][l] = &buf[next+64*blocks*l]
					c[k][1][l] = blocks
				}
				next += window
			}
			start := time.Now()
			for k := 0; k < reps; k++ {
				v.f(&h, &p[k], &c[k], blocks)
			}
			times[i] = append(times[i], float64(time.Since(start).Nanoseconds())/float64(reps*64*blocks*v.lanes))
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
