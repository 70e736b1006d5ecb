package sha1x86

import (
	"fmt"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/gen/internal/gentest"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// TestTrace generates the one-block kernels with a trace (W and the states
// after 58 and 65 rounds of the last block) and the count of blocks as
// their result, with the default knobs and each placement and look-ahead
// that moves where the trace's stores fall, and runs them natively in a
// scratch package against internal/ref's SHA1Steps.
func TestTrace(t *testing.T) {
	gentest.NativeAMD64(t)
	c := sha1sched.Contract{Trace: []int{58, 65}, Result: sha1sched.Absorbed}
	vs := oneBlockVariants(t, func(v *scratchVariant, _ int) { v.c = c })
	dir := scratchKernels(t, "TestTrace", vs, traceTests("amd64", c))
	t.Logf("%d kernels passed: %s", len(vs), gentest.GoTest(t, dir))
}

// oneBlockVariants returns the ssse3 and avx kernels this CPU runs (it
// skips the test if none), as schedVariants does.
func oneBlockVariants(t *testing.T, set func(v *scratchVariant, i int)) []scratchVariant {
	var ks []Kernel
	for _, k := range []Kernel{SSSE3, AVX} {
		if !gentest.Runs(k.Name) {
			t.Logf("this CPU cannot run %s kernels", k.Name)
			continue
		}
		ks = append(ks, k)
	}
	if len(ks) == 0 {
		t.Skip("this CPU runs none of the kernels")
	}
	return schedVariants(ks, " ", set)
}

// schedVariants returns kernels ks with the defaults and with the
// look-ahead and placements that move the groups' steps among the rounds,
// labelled with the kernel's name, then in, then its schedule, each
// changed by set (given its index).
func schedVariants(ks []Kernel, in string, set func(v *scratchVariant, i int)) []scratchVariant {
	var vs []scratchVariant
	for _, k := range ks {
		for i, change := range []func(*Params){func(*Params) {}, func(p *Params) { p.Lookahead = 4 },
			func(p *Params) { p.Placement, p.Lookahead = sha1sched.Burst, 13 }, func(p *Params) { p.Placement = sha1sched.Front }} {
			v := scratchVariant{k: k, p: k.Defaults()}
			change(&v.p)
			v.label = k.Name + in + k.Schedule(v.p)
			set(&v, i)
			vs = append(vs, v)
		}
	}
	return vs
}

// traceTests returns the test file of a scratch package of trace kernels
// of contract c, for GOARCH goarch.
func traceTests(goarch string, c sha1sched.Contract) map[string]string {
	return map[string]string{"trace_test.go": strings.NewReplacer("GOARCH", goarch, "SIG", strings.TrimPrefix(c.Signature(), "func")).Replace(traceTest)}
}

// traceTest is the scratch package's test of the trace kernels.
const traceTest = `//go:build GOARCH

package sweep

import (
	"math/rand"
	"testing"

	"github.com/simdhash/simdhash/internal/ref"
)

type variant struct {
	name  string
	block func SIG
}

func TestVariants(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, v := range variants {
		for n := 1; n <= 4; n++ {
			p := make([]byte, 64*n+rng.Intn(64))
			rng.Read(p)
			h := [5]uint32{rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32()}
			start := h
			var w [80]uint32
			var s [2][5]uint32
			got := v.block(&h, p, &w, &s)
			want := start
			ref.SHA1Blocks(&want, p[:64*(n-1)])
			ww, states := ref.SHA1Steps(want, (*[64]byte)(p[64*(n-1):]))
			ref.SHA1Blocks(&want, p[64*(n-1):])
			if h != want || w != ww || s != [2][5]uint32{states[58], states[65]} || got != uint32(n) {
				t.Fatalf("%s, %d blocks: h %08x, returned %d, W %08x, states %08x;\nwant %08x, %d, W %08x, states %08x %08x",
					v.name, n, h, got, w, s, want, n, ww, states[58], states[65])
			}
		}
		var h [5]uint32
		if got := v.block(&h, make([]byte, 63), nil, nil); got != 0 || h != [5]uint32{} {
			t.Fatalf("%s: no whole block, returned %d and changed h to %08x", v.name, got, h)
		}
	}
}
`

// TestSpills generates the one-block kernels with 7 and 8 XMM registers
// for the description (386's budget: 8, one of them perhaps for the
// byte-swap indexes), whose groups it then spills and reloads, for the
// default knobs and the placements and look-aheads that move the reloads,
// and runs them natively in a scratch package against internal/ref
// (gentest.SHA1Tests).
func TestSpills(t *testing.T) {
	gentest.NativeAMD64(t)
	vs := oneBlockVariants(t, func(v *scratchVariant, i int) {
		v.p.Registers = sha1sched.SpillRegisters + i%2
		v.label += fmt.Sprintf(", %d XMM registers", v.p.Registers)
	})
	dir := scratchKernels(t, "TestSpills", vs, nil)
	t.Logf("%d kernels passed: %s", len(vs), gentest.GoTest(t, dir))
}
