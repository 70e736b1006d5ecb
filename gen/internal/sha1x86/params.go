package sha1x86

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/knob"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// Params are the choices of one generated kernel: the schedule that every
// target shares (sha1sched.Schedule) and the x86 backend's own knobs. A
// kernel honours the knobs its Knobs method lists, and only those.
type Params struct {
	sha1sched.Schedule
	Rotate Rotate
	Align  Align
	Rounds Rounds // avx2 only
	// Registers, if not 0, is the number of XMM registers the one-block
	// kernels may use for the description (Backend.Registers), besides the
	// byte-swap indexes: from 7 it spills, as the 386 kernels, with their
	// 8 XMM registers, always do. It is not a knob; the tests set it on
	// amd64, and the 386 kernels refuse it.
	Registers int
}

// Rotate is how the scalar rounds compute rol5(a) and rol30(b).
type Rotate int

// The rotate forms.
const (
	RotateRol   Rotate = iota // ROLL $5 and RORL $7 (RORL $2 in round 0)
	RotateShld                // SHLDL of a register with itself
	RotateShift               // r<<n | r>>(32-n) through a scratch register
)

var rotateSpec = &knob.Spec{Flag: "rotate", What: "how rol5(a) and rol30(b) are computed:",
	Choices: []knob.Choice{
		RotateRol:   {Name: "rol", Help: "ROLL $5 / RORL $7 (RORL $2 in round 0)"},
		RotateShld:  {Name: "shld", Help: "SHLDL of a register with itself (double-precision shift)"},
		RotateShift: {Name: "shift", Help: "a copy-and-shift pair: r<<n | r>>(32-n) through a scratch register"},
	}}

func (r Rotate) String() string      { return rotateSpec.Name(int(r)) }
func (r *Rotate) Set(s string) error { return knob.SetEnum(r, rotateSpec, s) }
func (*Rotate) Spec() *knob.Spec     { return rotateSpec }

// Align is how the four words straddling two schedule registers
// (sha1sched.Straddle: W[t-14..t-11] and W[t-6..t-3]) are formed.
type Align int

// The align forms.
const (
	AlignPalignr Align = iota // one PALIGNR $8
	AlignUnpack               // PSHUFD then PUNPCKLQDQ
)

var alignSpec = &knob.Spec{Flag: "align", What: "how W[t-14..t-11] and W[t-6..t-3], which straddle two registers, are formed:",
	Choices: []knob.Choice{
		AlignPalignr: {Name: "palignr", Help: "one PALIGNR $8 of the two registers"},
		AlignUnpack:  {Name: "unpack", Help: "PSHUFD swaps the halves of the low register, PUNPCKLQDQ appends the high register's low half"},
	}}

func (a Align) String() string      { return alignSpec.Name(int(a)) }
func (a *Align) Set(s string) error { return knob.SetEnum(a, alignSpec, s) }
func (*Align) Spec() *knob.Spec     { return alignSpec }

// Rounds is how the avx2 kernel's BMI rounds compute f.
type Rounds int

// The BMI round forms.
const (
	RoundsCopy  Rounds = iota // f_t from copies of b, c, d in round t; b = rol30(b) in place
	RoundsAhead               // f_{t+1} in round t, in a's register, once RORX has copied rol5(a) and rol30(a) out of it
)

var roundsSpec = &knob.Spec{Flag: "rounds", What: "how the BMI rounds compute f:",
	Choices: []knob.Choice{
		RoundsCopy:  {Name: "copy", Help: "f_t in round t, from copies of b, c and d; rol30(b) rotated in place"},
		RoundsAhead: {Name: "ahead", Help: "f_{t+1} in round t, in a's register once RORX has taken rol5(a) and rol30(a) out of it: no copies; the ADD forms of Ch and Maj add their halves into f, not e"},
	}}

func (r Rounds) String() string      { return roundsSpec.Name(int(r)) }
func (r *Rounds) Set(s string) error { return knob.SetEnum(r, roundsSpec, s) }
func (*Rounds) Spec() *knob.Spec     { return roundsSpec }

// Kernel is one of the x86 kernels this package generates.
type Kernel struct {
	// Name is the kernel's name, as sha1.Kernel reports it; its
	// generator is gen/sha1_<Name> and its function block<NAME>.
	Name string
	isa  func(*build.Context) ISA
	// pair: two blocks per vector pass (GeneratePair), not one (sha1sched.Generate).
	pair bool
	// target is the GOARCH the kernel is generated for (For).
	target avogen.Target
}

// The kernels.
var (
	// SSSE3 has SSE2 and SSSE3 (PSHUFB, PALIGNR) in two-operand encodings.
	SSSE3 = Kernel{Name: "ssse3", isa: newSSE, target: avogen.AMD64}
	// AVX has the same operations in three-operand VEX encodings.
	AVX = Kernel{Name: "avx", isa: newAVX, target: avogen.AMD64}
	// AVX2 runs the schedule on YMM registers for two blocks at once, with
	// BMI1 and BMI2 rounds (avx2.go).
	AVX2 = Kernel{Name: "avx2", isa: newAVX2, pair: true, target: avogen.AMD64}
)

// Targets lists the GOARCHes kernel k is generated for: amd64 and, for
// the one-block kernels, 386 (x386.go).
func (k Kernel) Targets() []avogen.Target {
	if k.pair {
		return []avogen.Target{avogen.AMD64}
	}
	return []avogen.Target{avogen.AMD64, avogen.I386}
}

// For returns kernel k as generated for target t, one of k.Targets.
func (k Kernel) For(t avogen.Target) (Kernel, error) {
	if slices.Contains(k.Targets(), t) {
		k.target = t
		return k, nil
	}
	return Kernel{}, fmt.Errorf("%s: no kernel for %s (only %v)", k.Name, t, k.Targets())
}

// Target is the GOARCH kernel k is generated for.
func (k Kernel) Target() avogen.Target { return k.target }

// Kernels lists every kernel, for the sweep.
var Kernels = []Kernel{SSSE3, AVX, AVX2}

// Defaults returns the kernel's checked-in choices, each the fastest
// measured or within the noise of it (docs/sha1-schedule.md), with one
// exception: ssse3 takes the XOR form of Maj, one instruction a round
// shorter and one dependency deeper than the ADD form, for the narrow
// cores without AVX that are limited by instruction count rather than by
// latency. The avx2 kernel's BMI rounds take the ADD form of Ch (ANDN),
// and its straddling words are formed by PSHUFD and PUNPCKLQDQ.
func (k Kernel) Defaults() Params {
	p := Params{Schedule: sha1sched.Schedule{Lookahead: 16, Placement: sha1sched.Spread, Ch: sha1sched.ChXor, Maj: sha1sched.MajAdd}}
	switch k.Name {
	case "ssse3":
		p.Maj = sha1sched.MajXor
	case "avx2":
		p.Ch = sha1sched.ChAdd
		p.Align = AlignUnpack
	}
	return p
}

// Knobs returns the knobs of p that kernel k honours, in the order of its
// schedule line: for the one-block kernels all of them; for avx2, whose
// look-ahead is a whole pair and whose rounds rotate with RORX, the
// placement, the forms of Ch and Maj, the align, and the form of its
// rounds.
func (k Kernel) Knobs(p *Params) []knob.Knob {
	if k.pair {
		return []knob.Knob{&p.Placement, &p.Ch, &p.Maj, &p.Align, &p.Rounds}
	}
	return append(p.Schedule.Knobs(), &p.Rotate, &p.Align)
}

// Validate reports choices kernel k cannot generate.
func (k Kernel) Validate(p Params) error {
	if k.target == avogen.I386 && p.Registers != 0 {
		return fmt.Errorf("%s for 386: the description has 7 XMM registers there, not a choice of %d", k.Name, p.Registers)
	}
	if k.pair {
		return knob.Check(k.Knobs(&p)...)
	}
	if err := p.Schedule.Validate(); err != nil {
		return err
	}
	return knob.Check(&p.Rotate, &p.Align)
}

// Schedule is the kernel's schedule line, printed in the generated file:
// the values of the knobs it honours, and for avx2 what it fixes.
func (k Kernel) Schedule(p Params) string {
	s := knob.Format(k.Knobs(&p)...)
	if k.pair {
		s += "; W+K a whole pair ahead in two buffers, BMI rounds (RORX, ANDN)"
	}
	return s
}

// Generate emits the kernel's function name with contract c (of the
// Blocks form) into ctx (block<NAME> if name is empty): it absorbs
// len(p)/64 whole blocks of p into h. The pair kernel keeps no trace, and
// returns nothing or a Checked contract's result.
func (k Kernel) Generate(ctx *build.Context, p Params, name string, c sha1sched.Contract) error {
	if name == "" {
		name = "block" + strings.ToUpper(k.Name)
	}
	if err := k.Validate(p); err != nil {
		return err
	}
	if k.pair {
		if !c.Plain() && (c.Result != sha1sched.Checked || c.Trace != nil) {
			return fmt.Errorf("%s: the pair kernel keeps no trace and returns nothing but a Checked contract's result", k.Name)
		}
		return generatePair(ctx, k, p, name, c)
	}
	if k.target == avogen.I386 {
		b, err := new386(ctx, k, p, c)
		if err != nil {
			return err
		}
		return sha1sched.Generate(b, p.Schedule, name, c)
	}
	return sha1sched.Generate(newBackend(ctx, k, p), p.Schedule, name, c)
}

// Variants lists, for the correctness sweep, every value of every knob k
// honours, varied one at a time from base. A value that needs a shorter
// look-ahead than base's (a burst placement) comes with the longest it
// allows.
func (k Kernel) Variants(base Params) []Params {
	fit := func(p *Params) { p.Fit() }
	if k.pair {
		fit = nil
	}
	return knob.Variants(base, k.Knobs, fit, nil) // TestValidateKnobs checks that every one is valid
}
