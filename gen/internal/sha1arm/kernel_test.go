package sha1arm

import (
	"strings"
	"testing"

	"github.com/simdhash/simdhash/gen/internal/armemit/armtest"
	"github.com/simdhash/simdhash/gen/internal/gentest"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// generated returns the assembly of architecture a with p, and its loop in
// GNU syntax.
func generated(t *testing.T, a Arch, p Params) (asm, loop string) {
	t.Helper()
	file, loop, err := a.Generate(p, "", a.String())
	if err != nil {
		t.Fatalf("%s %s: %v", a, a.Schedule(p), err)
	}
	b := armtest.Must(file.Bytes([]string{"test"}))(t)
	return string(b), loop
}

// Every knob an architecture registers changes the code it generates (the
// knobs are honest), and the schedule line names the value; the schedule
// line itself is left out of the comparison. The loop exports in GNU
// syntax.
func TestEveryKnobChangesCode(t *testing.T) {
	for _, a := range Arches {
		base := a.Defaults()
		_, loop := generated(t, a, base)
		if !strings.HasPrefix(loop, "loop:\n") || !strings.Contains(loop, "\tb loop\n") {
			t.Errorf("%s: the GNU loop does not run from loop: to its branch back:\n%.200s", a, loop)
		}
		gentest.KnobsChangeCode(t, a.String(), base, a.Variants(base), a.Schedule,
			func(p Params) string { asm, _ := generated(t, a, p); return asm })
	}
}

// Each architecture registers exactly the knobs it honours: 32-bit ARM
// adds rol5(a) with a rotated operand and loads one W+K word a round, so
// -rol5 and -wk are arm64's.
func TestKnobLists(t *testing.T) {
	want := map[Arch]string{
		ARM64: "lookahead placement ch maj vrotate rol5 rol30 wk order",
		ARM:   "lookahead placement ch maj vrotate rol30 order",
	}
	for _, a := range Arches {
		p := a.Defaults()
		if got := gentest.KnobFlags(a.Knobs(&p)); got != want[a] {
			t.Errorf("%s registers %v, want %s", a, got, want[a])
		}
	}
}

// Validate rejects what an architecture cannot generate, naming the knob:
// a value outside the choices, a rotate through the zero register on
// 32-bit ARM, a schedule the ring cannot hold, a placement that the list
// scheduler would undo.
func TestValidate(t *testing.T) {
	for _, c := range []struct {
		a    Arch
		bad  func(*Params)
		want string
	}{
		{ARM, func(p *Params) { p.Rol30 = Rol30Orr }, "-rol30=orr"},
		{ARM64, func(p *Params) { p.Loads = 9 }, "-wk"},
		{ARM64, func(p *Params) { p.Order = -1 }, "-order"},
		{ARM, func(p *Params) { p.VRotate = 2 }, "-vrotate"},
		{ARM64, func(p *Params) { p.Lookahead = 17 }, "-lookahead=17"},
		{ARM, func(p *Params) { p.Placement, p.Lookahead = sha1sched.Burst, 16 }, "burst"},
		{ARM64, func(p *Params) { p.Placement, p.Order = sha1sched.Front, OrderA55 }, "-placement=front with -order=a55"},
	} {
		p := c.a.Defaults()
		c.bad(&p)
		if err := c.a.Validate(p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Validate said %v, want an error naming %s", c.a, err, c.want)
		}
		if _, _, err := c.a.Generate(p, "", c.a.String()); err == nil {
			t.Errorf("%s: Generate accepted what Validate rejects (%s)", c.a, c.want)
		}
	}
	var a Arch
	if err := a.Set("x86"); err == nil {
		t.Error("Arch.Set(x86) accepted it")
	}
}

// Every look-ahead that Validate accepts passes the ring model on both
// architectures, with each way of loading W+K on arm64.
func TestLookaheadRange(t *testing.T) {
	for _, a := range Arches {
		for l := 4; l <= sha1sched.RingWords; l++ {
			for _, loads := range []Loads{LoadsW, LoadsPair, LoadsX, LoadsPairX, LoadsFmov} {
				if a == ARM && loads != LoadsW {
					continue
				}
				p := a.Defaults()
				p.Lookahead, p.Loads = sha1sched.Lookahead(l), loads
				if _, _, err := a.Generate(p, "", a.String()); err != nil {
					t.Errorf("%s lookahead %d, -wk %v: %v", a, l, loads, err)
				}
			}
		}
	}
}
