package sha1arm

import (
	"fmt"

	"github.com/simdhash/simdhash/gen/internal/knob"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// Arch is the instruction set a kernel is generated for.
type Arch int

// The architectures.
const (
	ARM64 Arch = iota // AArch64: gen/internal/arm64
	ARM               // 32-bit ARM with NEON: gen/internal/arm32
)

// Arches lists every architecture, for the sweeps.
var Arches = []Arch{ARM64, ARM}

// String is the architecture's GOARCH.
func (a Arch) String() string { return [...]string{"arm64", "arm"}[a] }

// Set parses a GOARCH: arm64 or arm (flag.Value, for -arch).
func (a *Arch) Set(s string) error {
	for _, b := range Arches {
		if s == b.String() {
			*a = b
			return nil
		}
	}
	return fmt.Errorf("%q is not supported: use arm64 or arm", s)
}

// Params are the choices of one generated kernel: the schedule every
// target shares (sha1sched.Schedule) and the ARM backend's own knobs. A
// kernel honours the knobs its architecture's Knobs method lists, and only
// those.
type Params struct {
	sha1sched.Schedule
	VRotate VRotate
	Rol5    Rol5
	Rol30   Rol30
	Loads   Loads
	Order   Order
}

// VRotate is how NEON, which has no vector rotate, rotates the 32-bit
// lanes of the schedule: a shift left into a fresh register, then the
// bits shifted out inserted or added back.
type VRotate int

// The vector rotate forms.
const (
	VRotateSRI  VRotate = iota // SHL, then SRI (shift right and insert)
	VRotateUSRA                // SHL, then USRA (unsigned shift right and accumulate)
)

var vrotateSpec = &knob.Spec{Flag: "vrotate", What: "how the schedule's vector lanes are rotated (NEON has no vector rotate):",
	Choices: []knob.Choice{
		VRotateSRI:  {Name: "sri", Help: "SHL into a fresh register, then SRI inserts the bits shifted out"},
		VRotateUSRA: {Name: "usra", Help: "SHL into a fresh register, then USRA adds them (the halves share no bit)"},
	}}

func (v VRotate) String() string      { return vrotateSpec.Name(int(v)) }
func (v *VRotate) Set(s string) error { return knob.SetEnum(v, vrotateSpec, s) }
func (*VRotate) Spec() *knob.Spec     { return vrotateSpec }

// Rol5 is how arm64 adds rol5(a) into e: its ADD takes no rotated operand
// (32-bit ARM folds it: ADD Ra@>27, Re, Re).
type Rol5 int

// The rol5 forms.
const (
	Rol5Orr    Rol5 = iota // ORRW Ra@>27, ZR, Rt (a logical instruction's rotated operand), then ADDW
	Rol5Ror                // RORW $27, Ra, Rt (EXTR), then ADDW
	Rol5Shifts             // ADDW Ra<<5 and ADDW Ra>>27: the two halves of the rotation, which share no bit
)

var rol5Spec = &knob.Spec{Flag: "rol5", What: "how rol5(a) is added into e (arm64's ADD takes no rotated operand):",
	Choices: []knob.Choice{
		Rol5Orr:    {Name: "orr", Help: "rotated into a temporary as the rotated operand of ORRW with ZR, then added"},
		Rol5Ror:    {Name: "ror", Help: "rotated into a temporary by RORW (EXTR), then added"},
		Rol5Shifts: {Name: "shifts", Help: "added as its two halves, a<<5 and a>>27, by two shifted ADDWs"},
	}}

func (r Rol5) String() string      { return rol5Spec.Name(int(r)) }
func (r *Rol5) Set(s string) error { return knob.SetEnum(r, rol5Spec, s) }
func (*Rol5) Spec() *knob.Spec     { return rol5Spec }

// Rol30 is how b = rol30(b) is done each round.
type Rol30 int

// The rol30 forms.
const (
	// Rol30Fold leaves b unrotated: the registers of c, d and e hold their
	// values rotated left by 2, and each use rotates them back in its
	// operand (ROR #2 in a logical instruction, in a 32-bit ARM ADD, or
	// into e at the start of its round on arm64).
	Rol30Fold Rol30 = iota
	// Rol30Ror rotates b in place: RORW $2 on arm64, MOVW Rb@>2, Rb on arm.
	Rol30Ror
	// Rol30Orr rotates b in place as the rotated operand of ORRW with ZR (arm64).
	Rol30Orr
)

var rol30Spec = &knob.Spec{Flag: "rol30", What: "how b = rol30(b) is done:",
	Choices: []knob.Choice{
		Rol30Fold: {Name: "fold", Help: "b is left unrotated; the rotation is folded into the ROR-shifted operands that read c, d and e"},
		Rol30Ror:  {Name: "ror", Help: "b is rotated in place (arm64 RORW, arm MOVW Rb@>2)"},
		Rol30Orr:  {Name: "orr", Help: "b is rotated in place by ORRW with ZR and a rotated operand (arm64)"},
	}}

func (r Rol30) String() string      { return rol30Spec.Name(int(r)) }
func (r *Rol30) Set(s string) error { return knob.SetEnum(r, rol30Spec, s) }
func (*Rol30) Spec() *knob.Spec     { return rol30Spec }

// Loads is where the ring of W+K is, on the stack or in vector
// registers, and how many rounds' words one scalar load (or move) brings
// from it (sha1sched.Round.Ahead).
type Loads int

// The load forms.
const (
	LoadsW     Loads = iota // one word per round: LDRW
	LoadsPair               // two words, into two registers: LDPW
	LoadsX                  // two words in one 64-bit register (LDR), the second added from its high half (ADD Rx>>32)
	LoadsPairX              // four words in two 64-bit registers (LDP), as LoadsX
	// LoadsFmov keeps the ring in four vector registers instead of the
	// stack: a group's W+K is added into its slot's register, and the
	// rounds move two words at a time to a 64-bit register with FMOV
	// (the low or the high half), as LoadsX.
	LoadsFmov
)

var loadsSpec = &knob.Spec{Flag: "wk", What: "where the ring of W+K is and how the rounds load from it (arm64):",
	Choices: []knob.Choice{
		LoadsW:     {Name: "ldrw", Help: "one word per round (LDRW)"},
		LoadsPair:  {Name: "ldpw", Help: "two rounds' words into two registers (LDPW)"},
		LoadsX:     {Name: "ldrx", Help: "two rounds' words in one 64-bit register (LDR); the second round adds the high word (ADD Rx>>32)"},
		LoadsPairX: {Name: "ldpx", Help: "four rounds' words in two 64-bit registers (LDP), as ldrx"},
		LoadsFmov:  {Name: "fmov", Help: "the ring in four vector registers, not on the stack: two rounds' words moved to a 64-bit register (FMOV), as ldrx"},
	}}

func (l Loads) String() string      { return loadsSpec.Name(int(l)) }
func (l *Loads) Set(s string) error { return knob.SetEnum(l, loadsSpec, s) }
func (*Loads) Spec() *knob.Spec     { return loadsSpec }

// words is the number of W+K words one load brings.
func (l Loads) words() int { return [...]int{1, 2, 2, 4, 2}[l] }

// Order is the order in which the generated instructions are written.
type Order int

// The orders.
const (
	// OrderA55 reorders each straight stretch of code with a list
	// scheduler (armemit.Func.ScheduleInOrder) for LLVM's model of the
	// in-order Cortex-A55, which places the vector steps by their
	// dependences: -placement, which would only break its ties, is
	// rejected (Validate).
	OrderA55 Order = iota
	// OrderA53 is OrderA55 for LLVM's model of the Cortex-A53.
	OrderA53
	// OrderBoth is OrderA55, then improved for the Cortex-A53 where the
	// A55 loses nothing (armemit.Func.RefineInOrder): each instruction that
	// the A53 holds back (NEON, and FMOV) is moved, one at a time, to the
	// place near it where the A53's model takes the fewest cycles, if
	// that is fewer and the A55's no more.
	OrderBoth
	// OrderDescription keeps the order of the description: the rounds,
	// with the vector steps placed among them by -placement.
	OrderDescription
)

var orderSpec = &knob.Spec{Flag: "order", What: "the order of the generated instructions:",
	Choices: []knob.Choice{
		OrderA55:         {Name: "a55", Help: "each straight stretch reordered by a list scheduler for the in-order Cortex-A55 (LLVM's model): NEON results after four cycles, a NEON instruction alone in its issue cycle"},
		OrderA53:         {Name: "a53", Help: "the same for the Cortex-A53: NEON results after six cycles, and an integer instruction after a NEON one waits three"},
		OrderBoth:        {Name: "both", Help: "as a55, then each NEON instruction (and FMOV) moved to where the A53 takes fewer cycles and the A55 no more"},
		OrderDescription: {Name: "description", Help: "the description's order: the rounds, with the vector steps placed among them by -placement (the one order that -placement applies to)"},
	}}

func (o Order) String() string      { return orderSpec.Name(int(o)) }
func (o *Order) Set(s string) error { return knob.SetEnum(o, orderSpec, s) }
func (*Order) Spec() *knob.Spec     { return orderSpec }

// Defaults returns the architecture's checked-in choices (docs/sha1-schedule.md
// says how they were chosen).
func (a Arch) Defaults() Params {
	p := Params{Schedule: sha1sched.Schedule{Lookahead: 16, Placement: sha1sched.Spread, Ch: sha1sched.ChXor, Maj: sha1sched.MajAdd}}
	if a == ARM64 {
		p.Lookahead, p.Rol30, p.Loads, p.Order = 7, Rol30Ror, LoadsFmov, OrderBoth
	} else {
		p.VRotate, p.Rol30, p.Order = VRotateUSRA, Rol30Ror, OrderDescription
	}
	return p
}

// Knobs returns the knobs of p that architecture a honours, in the order of
// its schedule line: the shared schedule, then the vector rotate and the
// scalar rotates; arm64 also chooses how rol5(a) is added and how W+K is
// loaded.
func (a Arch) Knobs(p *Params) []knob.Knob {
	if a == ARM64 {
		return append(p.Schedule.Knobs(), &p.VRotate, &p.Rol5, &p.Rol30, &p.Loads, &p.Order)
	}
	return append(p.Schedule.Knobs(), &p.VRotate, &p.Rol30, &p.Order)
}

// Validate reports choices architecture a cannot generate.
func (a Arch) Validate(p Params) error {
	if err := p.Schedule.Validate(); err != nil {
		return err
	}
	if err := knob.Check(a.Knobs(&p)...); err != nil {
		return err
	}
	if p.Order != OrderDescription && p.Placement != sha1sched.Spread {
		return fmt.Errorf("-placement=%v with -order=%v: the list scheduler places the vector steps by their dependences, whatever the description's placement; -placement applies with -order=description", p.Placement, p.Order)
	}
	if a == ARM && p.Rol30 == Rol30Orr {
		return fmt.Errorf("-rol30=orr: 32-bit ARM has no zero register; its rotate (-rol30=ror) is already a MOVW of a rotated operand")
	}
	return nil
}

// Schedule is the kernel's schedule line, printed in the generated file:
// the values of the knobs it honours.
func (a Arch) Schedule(p Params) string { return knob.Format(a.Knobs(&p)...) }

// Variants lists, for the correctness sweep, every value of every knob a
// honours, varied one at a time from base, leaving out the values a
// rejects. A value that needs a shorter look-ahead than base's (a burst
// placement) comes with the longest it allows.
func (a Arch) Variants(base Params) []Params {
	return knob.Variants(base, a.Knobs, func(p *Params) { p.Fit() }, a.Validate)
}
