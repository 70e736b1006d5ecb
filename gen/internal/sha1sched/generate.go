package sha1sched

import "fmt"

// A Step emits one operation of the target: an instruction, or the few
// instructions that one operation of the description becomes there.
// Steps are what the placement deals out among the rounds.
type Step func()

// Backend emits the description for one target. The description decides
// what is computed where: which W+K group each round hosts, in which
// order, and which form each round function takes. The backend decides
// how: its registers, its instructions, its own knobs (how it rotates, how
// it joins two registers), and the frame of the function.
type Backend interface {
	// Rotate is how the target rotates vector lanes; Group shapes its
	// operations to it.
	Rotate() RotateShape
	// Registers is the number of vector registers the description may
	// use: 10 or more hold the whole plan, and from 7 (SpillRegisters)
	// to 9 the description spills (Group), in Spill and Reload
	// operations, each of which calls op.WK.Record.
	Registers() int
	// Vector returns the steps that emit op. A Store's step calls
	// op.WK.Record.
	Vector(op VOp) []Step
	// Round returns the scalar steps of round r. The first step reads
	// W[t]+K (calling r.WK.Record) and adds it into e: a vector step
	// placed after it in the same round may then overwrite that slot.
	Round(r Round) []Step

	// Begin starts the function name with contract c (of the Blocks
	// form): it loads the arguments, jumps to the end (Finish) when p
	// holds no whole block, sets the working variables a..e from h, keeps
	// h where NextBlock and Finish find it, points at p's first block,
	// sets up the constants and a ring of RingWords W+K words, and names
	// the generated schedule in a comment. NextBlock and Finish count the
	// blocks for c's Result.
	Begin(name string, c Contract)
	// KeepState stores the working variables after the first t rounds of
	// the block as the trace's state i (Contract.Trace[i] = t); Generate
	// calls it only for a contract with a Trace. KeepW operations store
	// the trace's W.
	KeepState(i, t int)
	// Control: Advance jumps to label if the next block would start past
	// the last whole block of p; NextBlock adds a..e into h, and sets a..e
	// from h for the next block's round 0; Finish adds a..e into h,
	// stores h, and returns, and is also where Begin's early exit lands.
	Control
}

// Control is the control flow of a description's loop (Loop).
type Control interface {
	// Comment emits a comment line.
	Comment(format string, args ...any)
	// Label places a branch target.
	Label(name string)
	// Jump jumps to label.
	Jump(label string)
	// Advance points at the next block, or jumps to label after the last.
	Advance(label string)
	// NextBlock ends a block that has a next one.
	NextBlock()
	// Finish ends the last block, and the function.
	Finish()
}

// Generate describes the one-block kernel name with schedule s and
// contract c (of the Blocks form) to b, and replays its W+K accesses (see
// Model) before it returns: an error means the schedule cannot work, and
// the emitted code must be discarded.
func Generate(b Backend, s Schedule, name string, c Contract) error {
	if err := s.Validate(); err != nil {
		return err
	}
	if c.Form != Blocks {
		return fmt.Errorf("%s: the one-stream description takes the Blocks form", name)
	}
	for _, t := range c.Trace {
		if t < 1 || t > 80 {
			return fmt.Errorf("%s: a trace of the state after %d rounds: want 1..80", name, t)
		}
	}
	if r := b.Registers(); r < SpillRegisters {
		return fmt.Errorf("%s: %d vector registers: the description needs %d, spilling all but the last %d groups of the window", name, r, SpillRegisters, SpillWindow)
	}
	return generate(b, s, name, c)
}

// generate is Generate without the up-front checks, so that tests can
// show the ring model rejecting what Validate would have.
func generate(b Backend, s Schedule, name string, c Contract) error {
	d := &driver{b: b, s: s, c: c, ring: &Model{}}
	b.Begin(name, c)
	prologue, head, next, last := Loop{
		Lookahead: int(s.Lookahead), Ring: d.ring,
		Prologue: "Prologue: W+K for rounds 0..%d of the first block.",
		Advance:  "Advance to the next block, or finish the last one without the look-ahead.",
		Vector:   d.precalc, Round: d.merge, Backend: b,
	}.Emit()
	// Every round reads its word once, in the loop and in the last block.
	for _, tail := range []Trace{next, last} {
		if err := readsOnce(append(append(Trace{}, head...), tail...)); err != nil {
			return fmt.Errorf("%s with %s: %w", name, s, err)
		}
	}
	if err := CheckBlocks(prologue, head, next, last); err != nil {
		return fmt.Errorf("%s with %s: %w", name, s, err)
	}
	return nil
}

// Loop is the block loop of the descriptions (this package's and
// gen/internal/sha1many's), whose vector work for each word runs Lookahead
// rounds before the round that reads it. From round 80-Lookahead on, the
// rounds host the look-ahead's steps for the next block, which load from
// it. There the loop advances to that block; after the last block it
// branches to a copy of the remaining rounds without the look-ahead, so
// that nothing past the input is read and no block pointer has to be
// chosen without a branch.
type Loop struct {
	Lookahead int
	Ring      *Model // where the steps record their accesses
	// Prologue (given the last word it computes) and Advance are the
	// comments before the prologue and the branch.
	Prologue, Advance string
	// Vector returns the look-ahead's steps for word w (80 and up: the
	// next block's); Round emits round t with those that it hosts.
	Vector  func(w int) []Step
	Round   func(t int, vector []Step)
	Backend Control
}

// Emit emits the loop and returns the ring's accesses of its parts, for
// CheckBlocks.
func (l Loop) Emit() (prologue, head, next, last Trace) {
	b, L := l.Backend, l.Lookahead
	b.Comment(l.Prologue, L-1)
	for w := 0; w < L; w++ {
		for _, st := range l.Vector(w) {
			st()
		}
	}
	prologue = l.Ring.Cut()
	b.Label("loop")
	first := 80 - L
	for t := 0; t < first; t++ {
		l.Round(t, l.Vector(t+L))
	}
	head = l.Ring.Cut()
	b.Comment(l.Advance)
	b.Advance("last")
	for t := first; t < 80; t++ {
		l.Round(t, l.Vector(t+L))
	}
	next = l.Ring.Cut()
	b.NextBlock()
	b.Jump("loop")
	b.Label("last")
	for t := first; t < 80; t++ {
		l.Round(t, nil)
	}
	last = l.Ring.Cut()
	b.Finish()
	return prologue, head, next, last
}

type driver struct {
	b    Backend
	s    Schedule
	c    Contract
	ring *Model
}

// merge emits round t with the vector steps it hosts, then what the trace
// keeps of the state after it.
func (d *driver) merge(t int, vector []Step) {
	d.s.Placement.Merge(d.round(t), vector)
	for i, after := range d.c.Trace {
		if after == t+1 {
			d.b.KeepState(i, after)
		}
	}
}

// precalc returns the vector steps of word w: one quarter of the steps of
// its group, dealt to the round Lookahead rounds earlier. Rounds
// 80-Lookahead..79 host the first groups of the next block, after Advance;
// words below Lookahead are the prologue.
func (d *driver) precalc(w int) []Step {
	return d.s.Placement.Deal(d.groupSteps(w/wordsPerGroup), w%wordsPerGroup, wordsPerGroup)
}

// groupSteps lowers group g to the backend's steps, its Store recorded in
// the ring at RingSlot.
func (d *driver) groupSteps(g int) []Step {
	var steps []Step
	for _, op := range Group(g, d.b.Rotate(), d.b.Registers() < planRegisters) {
		switch {
		case op.Kind == Store:
			op.WK = d.ring.Write(op.Word, RingSlot(op.Word))
		case op.Kind == Spill:
			op.WK = d.ring.Write(op.Word, SpillSlot(op.Group))
		case op.Kind == Reload:
			op.WK = d.ring.Read(op.Word, SpillSlot(op.Word/wordsPerGroup))
		case op.Kind == AddK && d.c.Trace != nil: // op.A holds the group's W
			steps = append(steps, d.b.Vector(VOp{Kind: KeepW, A: op.A, Word: op.Word, Group: op.Group})...)
		}
		steps = append(steps, Commented(d.b, op.Comment, d.b.Vector(op))...)
	}
	return steps
}

// maxAhead is the number of later rounds whose W+K reads a round is
// offered (Round.Ahead).
const maxAhead = 3

// round returns the steps of round t, the first preceded by a comment.
func (d *driver) round(t int) []Step {
	r := Round{T: t, F: F(t), Ch: d.s.Ch, Maj: d.s.Maj, WK: d.ring.Read(t, RingSlot(t))}
	for u := t + 1; u <= min(t+maxAhead, 79); u++ {
		r.Ahead = append(r.Ahead, d.ring.Read(u, RingSlot(u)))
	}
	return Commented(d.b, fmt.Sprintf("Round %d", t), d.b.Round(r))
}

// Commented returns steps with the comment emitted by b just before the
// first of them (steps itself if the comment is empty).
func Commented(b interface{ Comment(string, ...any) }, comment string, steps []Step) []Step {
	if comment == "" || len(steps) == 0 {
		return steps
	}
	first := steps[0]
	out := append([]Step{func() {
		b.Comment("%s", comment)
		first()
	}}, steps[1:]...)
	return out
}

// Deal returns the part of a group's steps that the c-th of the n rounds
// hosting the group runs: dealt out evenly, in order, or all in the first
// round with Burst.
func (p Placement) Deal(steps []Step, c, n int) []Step {
	if p == Burst {
		if c == 0 {
			return steps
		}
		return nil
	}
	k := len(steps)
	return steps[c*k/n : (c+1)*k/n]
}

// Merge emits a round's scalar steps with its vector steps after the first
// scalar step (the W+K read): all together with Front, else spread evenly
// between the scalar steps.
func (p Placement) Merge(scalar, vector []Step) {
	n, m := len(scalar), len(vector)
	k := 0
	for i, s := range scalar {
		s()
		for ; k < m && (p == Front || k*(n-1)/m <= i); k++ {
			vector[k]()
		}
	}
}
