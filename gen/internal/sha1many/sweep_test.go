package sha1many

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/gentest"
)

// TestSweep generates every variant of the tests (variants: each knob
// varied alone from the defaults; SIMDHASH_SWEEP=full adds 12 random
// combinations) of each kernel this CPU runs into a scratch package under
// testdata/, assembled by Go's assembler, and runs each natively against
// internal/ref, with every lane's blocks between guard pages. (TestEmulated
// runs the same variants on the emulator, for the kernels the CPU
// lacks.)
func TestSweep(t *testing.T) {
	gentest.NativeAMD64(t)
	random := gentest.Sweeps(2, 12)
	rng := rand.New(rand.NewSource(3))
	var vs []scratchVariant
	for _, nb := range backends {
		b := nb(nil)
		ps := variants(b, rng, random)
		if !gentest.Runs(b.Name()) {
			t.Logf("this CPU cannot run %s kernels: its %d variants run on the emulator only (TestEmulated)", b.Name(), len(ps))
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
	t.Logf("%d kernels passed: %s", len(vs), gentest.GoTest(t, dir, "-run", "^TestVariants$"))
}

// TestCompare times variants of the kernels against each other in one
// process, for choosing defaults on a shared, noisy machine. It runs only
// when SIMDHASH_COMPARE lists the variants, as kernel:flags separated by
// semicolons; the first is the baseline, and a variant may repeat (a
// repeat at another address shows what code placement alone does):
//
//	SIMDHASH_COMPARE='avx2x8:;avx2x8:-lookahead 4;avx2x8:' go -C gen test -run '^TestCompare$' -v ./internal/sha1many
//
// The variants are checked against internal/ref (TestVariants), then every
// round times each variant once, in a rotating order, on 64 blocks of
// every lane, and the test logs each variant's minimum and median time per
// byte (of all lanes) over SIMDHASH_COMPARE_ROUNDS rounds (default 2000),
// and their ratios to the baseline's. The blocks stay in the cache unless
// SIMDHASH_COMPARE_MIB names a buffer of that many MiB to walk through. The minimum is what the code does
// when nothing else runs, which a loaded machine distorts least.
func TestCompare(t *testing.T) {
	variant := func(name, flags, label string) scratchVariant {
		i := slices.IndexFunc(backends, func(nb func(*build.Context) Backend) bool { return nb(nil).Name() == name })
		if i < 0 {
			t.Fatalf("no kernel %q", name)
		}
		if !gentest.Runs(name) {
			t.Skipf("this CPU cannot run %s kernels", name)
		}
		b := backends[i](nil)
		p := DefaultParams(b.Lanes())
		gentest.SetKnobs(t, name, flags, p.Knobs(b))
		return scratchVariant{backends[i], p, label}
	}
	scratch := func(vs []scratchVariant) string { return scratchKernels(t, vs) }
	gentest.Compare(t, variant, scratch, scratchCompare)
}

// A scratchVariant is one kernel generated into the scratch package.
type scratchVariant struct {
	backend func(*build.Context) Backend
	p       Params
	name    string
}

// scratchKernels generates each variant into a scratch package
// (gentest.AvoScratch), with the correctness test of every variant (scratchTest),
// and returns its directory.
func scratchKernels(t *testing.T, vs []scratchVariant) string {
	var ks []gentest.AvoKernel
	table := "var variants = []variant{\n"
	for n, v := range vs {
		name := fmt.Sprintf("kernel%d", n)
		ks = append(ks, gentest.AvoKernel{Decl: contract.Decl(name), Argv: []string{"TestSweep", v.name},
			Generate: func(ctx *build.Context) error { return Generate(v.backend(ctx), v.p, name) }})
		table += fmt.Sprintf("\t{%q, %d, %s},\n", v.name, v.backend(nil).Lanes(), name)
	}
	return gentest.AvoScratch(t, "TestSweep", avogen.AMD64, ks, table+"}\n", map[string]string{"sweep_linux_amd64_test.go": scratchTest})
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
// package (gentest.Compare, which adds the package clause and imports).
const scratchCompare = `func TestCompare(t *testing.T) {
	const blocks, reps = 64, 4
	rounds, mib := 2000, 0
	fmt.Sscan(os.Getenv("SIMDHASH_COMPARE_ROUNDS"), &rounds)
	fmt.Sscan(os.Getenv("SIMDHASH_COMPARE_MIB"), &mib)
	const window = 16 * 64 * blocks
	buf := make([]byte, max(window, mib<<20))
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	var h [5][16]uint32
	next := 0
	logTimes(t, timeRounds(rounds, func(i int) float64 {
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
		return float64(time.Since(start).Nanoseconds()) / float64(reps*64*blocks*v.lanes)
	}))
}
`
