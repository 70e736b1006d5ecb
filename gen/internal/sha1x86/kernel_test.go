package sha1x86

import (
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/gentest"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// generated returns the assembly of kernel k with p, without its first
// line (the command, which names the flags).
func generated(t *testing.T, k Kernel, p Params) string {
	t.Helper()
	ctx := build.NewContext()
	ctx.ConstraintExpr(string(k.Target()))
	if err := k.Generate(ctx, p, "", sha1sched.Contract{}); err != nil {
		t.Fatalf("%s %s: %v", k.Name, k.Schedule(p), err)
	}
	b, err := k.Target().Print(ctx, "sha1", []string{"test"})
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(b), "\n")
	return body
}

// Every look-ahead that Validate accepts passes the ring model, for both
// one-block instruction sets.
func TestLookaheadRange(t *testing.T) {
	for _, k := range []Kernel{SSSE3, AVX} {
		for l := 4; l <= sha1sched.RingWords; l++ {
			p := k.Defaults()
			p.Lookahead = sha1sched.Lookahead(l)
			if err := k.Generate(build.NewContext(), p, "", sha1sched.Contract{}); err != nil {
				t.Errorf("%s lookahead %d: %v", k.Name, l, err)
			}
		}
	}
}

// Every knob a kernel registers changes the code it generates (the knobs
// are honest), and the schedule line names the value. The schedule line
// itself is left out of the comparison.
func TestEveryKnobChangesCode(t *testing.T) {
	for _, k := range Kernels {
		base := k.Defaults()
		gentest.KnobsChangeCode(t, k.Name, base, k.Variants(base), k.Schedule,
			func(p Params) string { return generated(t, k, p) })
	}
}

// Each kernel registers exactly the knobs it honours: avx2 has no
// look-ahead or rotate knob, the one-block kernels have all six.
func TestKnobLists(t *testing.T) {
	want := map[string]string{
		"ssse3": "lookahead placement ch maj rotate align",
		"avx":   "lookahead placement ch maj rotate align",
		"avx2":  "placement ch maj align rounds",
	}
	for _, k := range Kernels {
		p := k.Defaults()
		if got := gentest.KnobFlags(k.Knobs(&p)); got != want[k.Name] {
			t.Errorf("%s registers %v, want %s", k.Name, got, want[k.Name])
		}
	}
}

// Every variant is valid; a knob value outside its choices is rejected,
// naming the flag; Set rejects a name that is not a choice.
func TestValidateKnobs(t *testing.T) {
	for _, k := range Kernels {
		for _, p := range k.Variants(k.Defaults()) {
			if err := k.Validate(p); err != nil {
				t.Errorf("%s %s: %v", k.Name, k.Schedule(p), err)
			}
		}
	}
	for _, bad := range []func(*Params){
		func(p *Params) { p.Placement = 3 },
		func(p *Params) { p.Maj = -1 },
		func(p *Params) { p.Rotate = 7 },
		func(p *Params) { p.Align = 2 },
	} {
		p := AVX.Defaults()
		bad(&p)
		if err := AVX.Validate(p); err == nil || !strings.Contains(err.Error(), "want one of") {
			t.Errorf("%s: Validate said %v", AVX.Schedule(p), err)
		}
	}
	p := AVX.Defaults()
	for _, set := range []struct{ knob, value string }{{"placement", "middle"}, {"maj", "nand"}, {"rotate", "ror"}, {"align", ""}} {
		for _, kn := range AVX.Knobs(&p) {
			if kn.Spec().Flag == set.knob {
				if err := kn.Set(set.value); err == nil || !strings.Contains(err.Error(), "want one of") {
					t.Errorf("-%s=%q: Set said %v", set.knob, set.value, err)
				}
			}
		}
	}
	if p != AVX.Defaults() {
		t.Errorf("a rejected Set changed the params: %s", AVX.Schedule(p))
	}
}

// A burst placement with the longest look-ahead is rejected with the
// reason; the longest it allows generates.
func TestBurstNeedsShorterLookahead(t *testing.T) {
	p := AVX.Defaults()
	p.Placement = sha1sched.Burst
	p.Lookahead = sha1sched.RingWords
	if err := AVX.Generate(build.NewContext(), p, "", sha1sched.Contract{}); err == nil || !strings.Contains(err.Error(), "burst") {
		t.Errorf("%s: Generate said %v", AVX.Schedule(p), err)
	}
	p.Fit()
	if err := AVX.Generate(build.NewContext(), p, "", sha1sched.Contract{}); err != nil {
		t.Errorf("%s: %v", AVX.Schedule(p), err)
	}
}
