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
	// Comment emits a comment line.
	Comment(format string, args ...any)
	// Label places a branch target.
	Label(name string)
	// Jump jumps to label.
	Jump(label string)
	// Advance points at the next block, and jumps to label if there is
	// none: if that block would start past the last whole block of p.
	Advance(label string)
	// NextBlock adds a..e into h, and sets a..e from h for the next
	// block's round 0.
	NextBlock()
	// Finish adds a..e into h, stores h, and returns; it is also where
	// Begin's early exit lands.
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
	L := int(s.Lookahead)
	b.Begin(name, c)
	b.Comment("Prologue: W+K for rounds 0..%d of the first block.", L-1)
	for r := -L; r < 0; r++ {
		for _, st := range d.precalc(r) {
			st()
		}
	}
	prologue := d.ring.Cut()

	b.Label("loop")
	// From round first on, the rounds host the look-ahead's steps for the
	// next block (its groups 0..3), which load from it. There the loop
	// advances to that block; after the last block it branches to a copy of
	// the remaining rounds without the look-ahead, so nothing past the input
	// is read and no block pointer has to be chosen without a branch.
	first := 80 - L
	for t := 0; t < first; t++ {
		d.merge(t, d.precalc(t))
	}
	head := d.ring.Cut()
	b.Comment("Advance to the next block, or finish the last one without the look-ahead.")
	b.Advance("last")
	for t := first; t < 80; t++ {
		d.merge(t, d.precalc(t))
	}
	next := d.ring.Cut()
	b.NextBlock()
	b.Jump("loop")

	b.Label("last")
	for t := first; t < 80; t++ {
		d.merge(t, nil)
	}
	last := d.ring.Cut()
	// Every round reads its word once, in the loop and in the last block.
	for _, tail := range []Trace{next, last} {
		if err := readsOnce(append(append(Trace{}, head...), tail...)); err != nil {
			return fmt.Errorf("%s with %s: %w", name, s, err)
		}
	}
	// Whole inputs of one, two and three blocks: one covers the block the
	// prologue filled, two and three the blocks the loop itself filled.
	for blocks := 1; blocks <= 3; blocks++ {
		runs := []Run{{prologue, 0}}
		for i := 0; i < blocks; i++ {
			tail := next
			if i == blocks-1 {
				tail = last
			}
			runs = append(runs, Run{head, 80 * i}, Run{tail, 80 * i})
		}
		if err := Check(runs); err != nil {
			return fmt.Errorf("%s with %s: %w", name, s, err)
		}
	}
	b.Finish()
	return nil
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

// precalc returns the vector steps that round r hosts: one quarter of the
// group holding word r+Lookahead. Rounds 80-Lookahead..79 host the first
// groups of the next block, after Advance; negative rounds are the
// prologue.
func (d *driver) precalc(r int) []Step {
	w := r + int(d.s.Lookahead)
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
