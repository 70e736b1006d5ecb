package sha1many

import (
	"github.com/simdhash/simdhash/gen/internal/knob"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// Params are the choices of one generated multi-lane kernel.
//
// The look-ahead and the forms of Ch and Maj are the one-stream
// description's own knobs (sha1sched.Schedule): the same flags, values,
// help and checks. Its placement describes where a group's steps sit among
// scalar rounds; here every step is a vector one, dealt evenly (Spread),
// so it is neither registered nor printed.
type Params struct {
	// Stream holds the shared knobs; Lookahead, Ch and Maj apply.
	//
	// Lookahead: how many rounds before round t the vector steps that
	// produce W[t] start (for the message words, the steps of the group of
	// four that holds it).
	// Ch, Maj: the forms of the rounds' boolean functions, on instruction
	// sets without a three-input logic instruction.
	Stream sha1sched.Schedule

	// Load is how the message words are moved into lanes.
	Load Load
}

// Load is how a block's 16 message words are transposed into lanes:
// vector t of the result holds word t of every lane's block.
type Load int

// The ways to load.
const (
	// LoadUnpack loads 16 bytes (four words) of each lane, with a plain
	// load for the register's low 128 bits and inserts for the others, and
	// transposes the 4x4 blocks of words with unpack instructions.
	LoadUnpack Load = iota
	// LoadGather fetches one word of every lane per gather instruction,
	// from the lanes' block pointers.
	LoadGather
)

var loadSpec = &knob.Spec{Flag: "load", What: "how the message words are transposed into lanes:",
	Choices: []knob.Choice{
		LoadUnpack: {Name: "unpack", Help: "16-byte loads and inserts of four words per lane, then 4x4 transposes with VPUNPCK{L,H}{DQ,QDQ}"},
		LoadGather: {Name: "gather", Help: "one VPGATHERQD per word and half of the lanes, from the lanes' block pointers"},
	}}

func (l Load) String() string      { return loadSpec.Name(int(l)) }
func (l *Load) Set(s string) error { return knob.SetEnum(l, loadSpec, s) }
func (*Load) Spec() *knob.Spec     { return loadSpec }

// DefaultParams returns the choices checked into the repository for the
// kernel with the given number of lanes (docs/sha1-many.md, "Knobs,
// measured", says how they were chosen).
func DefaultParams(lanes int) Params {
	return Params{
		Stream: sha1sched.Schedule{Lookahead: 8, Placement: sha1sched.Spread, Ch: sha1sched.ChXor, Maj: sha1sched.MajOr},
		Load:   LoadUnpack,
	}
}

// Knobs returns the knobs of p that a kernel of backend b honours, in the
// order of its schedule line: the look-ahead, the forms of Ch and Maj
// unless b has a three-input logic instruction (which computes every form
// in one), and the load.
func (p *Params) Knobs(b Backend) []knob.Knob {
	ks := []knob.Knob{&p.Stream.Lookahead}
	if !b.Ternary() {
		ks = append(ks, &p.Stream.Ch, &p.Stream.Maj)
	}
	return append(ks, &p.Load)
}

// Validate reports a choice that cannot work, naming its flag.
func (p Params) Validate() error {
	if err := p.Stream.Validate(); err != nil {
		return err
	}
	return knob.Check(&p.Load)
}

// String is the schedule line of a generated file: the knobs b honours.
func (p Params) String(b Backend) string { return knob.Format(p.Knobs(b)...) }
