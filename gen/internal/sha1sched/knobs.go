package sha1sched

import (
	"fmt"
	"strconv"

	"github.com/simdhash/simdhash/gen/internal/knob"
)

// Schedule holds the choices of the description that every target has:
// how far ahead the vector unit runs, where its steps sit among the
// rounds, and the forms of Ch and Maj. Each field is a knob (a flag.Value
// with its choices); a target's own choices (how it rotates, how it joins
// two registers) are knobs of its backend.
type Schedule struct {
	Lookahead Lookahead
	Placement Placement
	Ch        Ch
	Maj       Maj
}

// Knobs returns the knobs of s, in the order the schedule line prints them.
func (s *Schedule) Knobs() []knob.Knob {
	return []knob.Knob{&s.Lookahead, &s.Placement, &s.Ch, &s.Maj}
}

// Lookahead is how many rounds before round t the vector steps of the
// group holding W[t]+K start (see Generate).
type Lookahead int

var lookaheadSpec = func() *knob.Spec {
	s := &knob.Spec{Flag: "lookahead",
		What: fmt.Sprintf("rounds between the start of a W+K group's precalculation and the first round that reads it (%d..%d)", wordsPerGroup, RingWords)}
	for l := wordsPerGroup; l <= RingWords; l++ {
		s.Choices = append(s.Choices, knob.Choice{Name: strconv.Itoa(l)})
	}
	return s
}()

func (l Lookahead) String() string { return strconv.Itoa(int(l)) }
func (l *Lookahead) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("%q is not a number of rounds", s)
	}
	*l = Lookahead(n)
	return nil
}
func (*Lookahead) Spec() *knob.Spec { return lookaheadSpec }

// Placement is where a group's vector steps sit among the scalar
// instructions of the rounds that host them (see Deal and Merge).
type Placement int

// The placements.
const (
	Spread Placement = iota
	Front
	Burst
)

var placementSpec = &knob.Spec{Flag: "placement", What: "where a W+K group's vector steps sit among the scalar rounds:",
	Choices: []knob.Choice{
		Spread: {Name: "spread", Help: "the group's steps dealt evenly over its rounds, and evenly between each round's scalar instructions"},
		Front:  {Name: "front", Help: "dealt evenly over the rounds, each round's share right after its W+K read"},
		Burst:  {Name: "burst", Help: "all of the group's steps in the first of its rounds, spread between its scalar instructions"},
	}}

func (p Placement) String() string      { return placementSpec.Name(int(p)) }
func (p *Placement) Set(s string) error { return knob.SetEnum(p, placementSpec, s) }
func (*Placement) Spec() *knob.Spec     { return placementSpec }

// Ch is the form of Ch(b, c, d) = (b & c) | (~b & d), the function of
// rounds 0..19.
type Ch int

// The forms of Ch.
const (
	// ChXor is ((c ^ d) & b) ^ d: three operations, c three deep.
	ChXor Ch = iota
	// ChAdd is (~b & d) + (b & c): the two halves share no bit, so each
	// is added into e on its own; c is one deep.
	ChAdd
)

var chSpec = &knob.Spec{Flag: "ch", What: "form of the rounds 0..19 function:",
	Choices: []knob.Choice{
		ChXor: {Name: "xor", Help: "Ch(b,c,d) = ((c ^ d) & b) ^ d: c three deep"},
		ChAdd: {Name: "add", Help: "Ch(b,c,d) = (~b & d) + (b & c): the disjoint halves added into e separately; c one deep"},
	}}

func (c Ch) String() string      { return chSpec.Name(int(c)) }
func (c *Ch) Set(s string) error { return knob.SetEnum(c, chSpec, s) }
func (*Ch) Spec() *knob.Spec     { return chSpec }

// Maj is the form of Maj(b, c, d), the function of rounds 40..59.
type Maj int

// The forms of Maj.
const (
	// MajXor is ((b ^ c) & (c ^ d)) ^ c. A target may compute b ^ c in
	// the round before, off the critical path.
	MajXor Maj = iota
	// MajOr is (b & c) | (d & (b | c)).
	MajOr
	// MajAdd is (c & d) + (b & (c ^ d)): the two halves share no bit, so
	// each is added into e on its own.
	MajAdd
)

var majSpec = &knob.Spec{Flag: "maj", What: "form of the rounds 40..59 function:",
	Choices: []knob.Choice{
		MajXor: {Name: "xor", Help: "Maj(b,c,d) = ((b ^ c) & (c ^ d)) ^ c, with b ^ c left by the round before where the target can"},
		MajOr:  {Name: "or", Help: "Maj(b,c,d) = (b & c) | (d & (b | c))"},
		MajAdd: {Name: "add", Help: "Maj(b,c,d) = (c & d) + (b & (c ^ d)): the two disjoint halves added into e separately"},
	}}

func (m Maj) String() string      { return majSpec.Name(int(m)) }
func (m *Maj) Set(s string) error { return knob.SetEnum(m, majSpec, s) }
func (*Maj) Spec() *knob.Spec     { return majSpec }

// Validate reports a schedule that cannot work, with the plain reason. The
// ring model (Generate) catches any ordering mistake as well; Validate
// names the common ones.
func (s Schedule) Validate() error {
	if s.Lookahead < wordsPerGroup {
		return fmt.Errorf("-lookahead=%d: a group's steps take %d rounds, so its words are not ready for round t unless the look-ahead is at least %d", s.Lookahead, wordsPerGroup, wordsPerGroup)
	}
	if s.Lookahead > RingWords {
		return fmt.Errorf("-lookahead=%d: the W+K ring holds %d words, so a look-ahead over %d would overwrite words before their round reads them", s.Lookahead, RingWords, RingWords)
	}
	if s.Placement == Burst && s.Lookahead > maxBurstLookahead {
		return fmt.Errorf("-placement=burst with -lookahead=%d: a burst stores a group's W+K %d rounds earlier than its last round, so the %d-word ring holds a look-ahead of at most %d", s.Lookahead, wordsPerGroup-1, RingWords, maxBurstLookahead)
	}
	return knob.Check(s.Knobs()...)
}

// maxBurstLookahead is the longest look-ahead the ring holds with a burst
// placement, which stores a group's W+K in the first of its four rounds.
const maxBurstLookahead = RingWords - (wordsPerGroup - 1)

// Fit shortens the look-ahead to the longest the placement allows, for
// the sweeps, which vary one knob at a time.
func (s *Schedule) Fit() {
	if s.Placement == Burst && s.Lookahead > maxBurstLookahead {
		s.Lookahead = maxBurstLookahead
	}
}

func (s Schedule) String() string { return knob.Format(s.Knobs()...) }

// Schedules returns every valid schedule, in the order of the knobs: every
// look-ahead, placement and form, for the tests that try them all.
func Schedules() []Schedule {
	var out []Schedule
	for l := wordsPerGroup; l <= RingWords; l++ {
		for p := range len(placementSpec.Choices) {
			for c := range len(chSpec.Choices) {
				for m := range len(majSpec.Choices) {
					s := Schedule{Lookahead(l), Placement(p), Ch(c), Maj(m)}
					if s.Validate() == nil {
						out = append(out, s)
					}
				}
			}
		}
	}
	return out
}
