package sha1sched

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/internal/ref"
)

var shapes = []RotateShape{RotateInPlace, RotateInto}

// fipsW returns the schedule words W[0..79] of block (FIPS 180-4, 6.1.2),
// as the reference computes them.
func fipsW(block []byte) [80]uint32 {
	w, _ := ref.SHA1Steps([5]uint32{}, (*[64]byte)(block))
	return w
}

// The operations of groups 0..19 of a block, and 20..23 (the next block's
// first groups), compute W[t]+K for every word, for both rotate shapes,
// when run in order on the model backend: the recurrences are right, and
// no group relies on a register an operation clobbers.
func TestGroupsComputeW(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	msg := make([]byte, 128)
	rng.Read(msg)
	want := [2][80]uint32{fipsW(msg[:64]), fipsW(msg[64:])}
	for _, c := range []struct {
		shape RotateShape
		spill bool
	}{{RotateInPlace, false}, {RotateInto, false}, {RotateInPlace, true}, {RotateInto, true}} {
		shape := c.shape
		m := &cpu{msg: msg, end: len(msg)}
		for i := range m.v {
			m.v[i] = [4]uint32{poison, poison, poison, poison}
		}
		for g := 0; g < 24; g++ {
			if g == groupsPerBlock {
				m.ptr = 64 // the look-ahead's loads come from the next block
			}
			ops := Group(g, shape, c.spill)
			if ops[0].Comment == "" {
				t.Errorf("%v group %d: the first operation has no comment", shape, g)
			}
			for _, op := range ops {
				slot := RingSlot(op.Word)
				if op.Kind == Spill || op.Kind == Reload {
					slot = SpillSlot(op.Word / wordsPerGroup % groupsPerBlock)
				}
				if err := m.vector(op, slot, shape); err != nil {
					t.Fatalf("%v group %d: %v", shape, g, err)
				}
			}
			for i := 0; i < wordsPerGroup; i++ {
				word := wordsPerGroup*g + i
				got, w := m.ring[word%RingWords], want[word/80][word%80]+K(word%80)
				if got != w {
					t.Errorf("%v: W[%d]+K of block %d = %#x, want %#x", shape, word%80, word/80, got, w)
				}
			}
		}
	}
}

// Every schedule, on both shapes, hashes inputs of 0 to 4 whole blocks
// (with a partial block after them, which must be ignored) as FIPS 180-4
// does, loading nothing outside the whole blocks, when the model backend
// runs what Generate describes.
func TestModelMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	all := Schedules()
	if len(all) != 13*3*2*3-3*2*3 {
		t.Fatalf("%d schedules: the knobs changed, update the count", len(all))
	}
	for _, shape := range shapes {
		for i, s := range all {
			b := newModel(shape)
			b.loads = []int{1, 2, 4}[i%3] // reads ahead (Round.Ahead)
			hashes(t, b, s, rng, fmt.Sprintf("%d loads", b.loads))
		}
	}
}

// hashes generates the kernel of schedule s on the model backend b and
// checks that it hashes 0 to 4 blocks (and a partial one after them, to be
// ignored) from random states as FIPS 180-4 does; what names b's choices.
func hashes(t *testing.T, b *model, s Schedule, rng *rand.Rand, what string) {
	t.Helper()
	if err := Generate(b, s, "block", Contract{}); err != nil {
		t.Fatalf("%v %s, %s: %v", b.shape, s, what, err)
	}
	for n := 0; n <= 4; n++ {
		msg := make([]byte, 64*n+rng.Intn(64))
		rng.Read(msg)
		h := [5]uint32{rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32()}
		want := h
		ref.SHA1Blocks(&want, msg)
		if got, err := b.run(h, msg); err != nil || got != want {
			t.Fatalf("%v %s, %s, %d blocks: h = %08x, want %08x (%v)", b.shape, s, what, n, got, want, err)
		}
	}
}

// A kernel with a trace keeps, of the last block it absorbs, W[0..79] and
// the working variables after 58 and 65 rounds (and after one and all 80),
// as FIPS 180-4 computes them (ref.SHA1Steps), and returns the number of
// blocks absorbed, for every look-ahead and placement on both shapes.
func TestTrace(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	c := Contract{Trace: []int{58, 65, 1, 80}, Result: Absorbed}
	for _, shape := range shapes {
		for _, s := range Schedules() {
			if s.Ch != ChXor || s.Maj != MajXor {
				continue // the forms change no W and no state
			}
			b := newModel(shape)
			if err := Generate(b, s, "block", c); err != nil {
				t.Fatalf("%v %s: %v", shape, s, err)
			}
			for n := 1; n <= 3; n++ {
				msg := make([]byte, 64*n+rng.Intn(64))
				rng.Read(msg)
				h := [5]uint32{rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32()}
				m, err := b.exec(h, msg)
				if err != nil {
					t.Fatalf("%v %s, %d blocks: %v", shape, s, n, err)
				}
				ref.SHA1Blocks(&h, msg[:64*(n-1)])
				w, states := ref.SHA1Steps(h, (*[64]byte)(msg[64*(n-1):]))
				if m.w != w {
					t.Fatalf("%v %s, %d blocks: W = %08x,\nwant %08x", shape, s, n, m.w, w)
				}
				for i, after := range c.Trace {
					if m.s[i] != states[after] {
						t.Fatalf("%v %s, %d blocks: after %d rounds %08x, want %08x", shape, s, n, after, m.s[i], states[after])
					}
				}
				if m.n != uint32(n) {
					t.Fatalf("%v %s: %d blocks absorbed, %d returned", shape, s, n, m.n)
				}
			}
		}
	}
	for _, bad := range []Contract{{Trace: []int{0}}, {Trace: []int{81}}, {Form: Lanes}} {
		if err := Generate(newModel(RotateInto), Schedule{Lookahead: 16}, "block", bad); err == nil {
			t.Errorf("Generate accepted %+v", bad)
		}
	}
}

// A target with 7 or 8 vector registers (386's budget, with or without
// one kept for a constant of its own) gets the description with spills:
// it names no window register past the fifth, and, for every schedule on
// both shapes, hashes 0 to 4 blocks as FIPS 180-4 does, with the ring
// model replaying the spills and reloads beside the W+K ring. A spill the
// model does not see makes the reloads after it fail the replay.
func TestSpills(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for _, shape := range shapes {
		for i, s := range Schedules() {
			b := newModel(shape)
			b.regs = []int{SpillRegisters, SpillRegisters + 1}[i%2]
			hashes(t, b, s, rng, fmt.Sprintf("%d registers", b.regs))
		}
	}
	b := &unspilled{newModel(RotateInto)}
	b.regs = SpillRegisters
	if err := Generate(b, Schedule{Lookahead: 16}, "block", Contract{}); err == nil || !strings.Contains(err.Error(), "nothing yet") {
		t.Errorf("a spill the ring model did not see: Generate said %v", err)
	}
	b.regs = SpillRegisters - 1
	if err := Generate(newModel(RotateInto), Schedule{Lookahead: 16}, "block", Contract{}); err != nil {
		t.Fatal(err)
	}
	if err := Generate(b, Schedule{Lookahead: 16}, "block", Contract{}); err == nil {
		t.Errorf("Generate accepted %d vector registers", b.regs)
	}
}

// unspilled is the model backend with the spills' ring accesses left out.
type unspilled struct{ *model }

func (b *unspilled) Vector(op VOp) []Step {
	if op.Kind == Spill {
		return nil
	}
	return b.model.Vector(op)
}

// The ring model, not only Validate, rejects look-aheads the ring cannot
// hold: too short, and a round reads a slot its group has not stored yet;
// too long, and a store overwrites a word not yet read. A burst placement
// stores a group's W+K three rounds earlier than spread, so the longest
// look-ahead overwrites words with it.
func TestRingModelRejects(t *testing.T) {
	var bad []Schedule
	for _, l := range []int{1, 2, 3, RingWords + 1, RingWords + 4} {
		bad = append(bad, Schedule{Lookahead: Lookahead(l)})
	}
	bad = append(bad, Schedule{Lookahead: RingWords, Placement: Burst})
	for _, s := range bad {
		if err := s.Validate(); err == nil {
			t.Errorf("Validate accepted %s", s)
		}
		for _, shape := range shapes {
			err := generate(newModel(shape), s, "block", Contract{})
			if err == nil || !strings.Contains(err.Error(), "would be read from slot") {
				t.Errorf("%v %s: the ring model said %v, want a slot error", shape, s, err)
			}
		}
	}
}

// A backend that reads a round's word twice (ahead, and again in its own
// round), or never, is rejected.
func TestReadsOnce(t *testing.T) {
	s := Schedule{Lookahead: 16}
	for _, c := range []struct {
		name string
		skew func(r Round) Round
		want string
	}{
		{"twice", func(r Round) Round {
			if r.T == 10 {
				r.Ahead[0].Record() // round 11's word, which round 11 reads again
			}
			return r
		}, "round 11 2 times"},
		{"never", func(r Round) Round {
			if r.T == 70 {
				r.WK = r.Ahead[0] // round 71's word instead of its own; round 71 reads it again
			}
			return r
		}, "round 70 0 times"},
	} {
		b := &skewed{newModel(RotateInto), c.skew}
		if err := Generate(b, s, "block", Contract{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Generate said %v, want %q", c.name, err, c.want)
		}
	}
}

// skewed is the model backend with the rounds changed by skew.
type skewed struct {
	*model
	skew func(r Round) Round
}

func (b *skewed) Round(r Round) []Step { return b.model.Round(b.skew(r)) }

// The ring model replays swaps and lanes as the pair kernel uses them: a
// read after the buffers swap finds the words written before the swap
// into the other buffer, and a stale buffer is reported.
func TestRingModelSwap(t *testing.T) {
	m := &Model{}
	lane := func(buf, l int) Slot { return Slot{buf, 16 * l} }
	m.Write(0, lane(1, 0), lane(1, 1)).Record() // words 0..3 and 80..83 into the buffer in role 1
	m.Swap()
	pass := m.Cut()
	m.Read(81, Slot{0, 20}).Record() // word 81 is lane 1's second
	reads := m.Cut()
	if err := Check([]Run{{pass, 0}, {reads, 0}}); err != nil {
		t.Errorf("a read after the swap: %v", err)
	}
	if err := Check([]Run{{pass, 0}, {reads, 80}}); err == nil || !strings.Contains(err.Error(), "holds word 81") {
		t.Errorf("a read of word 161 found %v, want it to find word 81", err)
	}
	if err := Check([]Run{{reads, 0}}); err == nil || !strings.Contains(err.Error(), "nothing yet") {
		t.Errorf("a read before any write: %v", err)
	}
}

// Every form of Ch and Maj computes its function (FIPS 180-4, 4.1.1), and
// the halves of an Add form share no bit.
func TestForms(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for _, f := range []Func{FCh, FParity, FMaj} {
		for ch := range Ch(len(chSpec.Choices)) {
			for maj := range Maj(len(majSpec.Choices)) {
				x := FormOf(f, ch, maj)
				for range 1000 {
					b, c, d := rng.Uint32(), rng.Uint32(), rng.Uint32()
					if x.Eval(b, c, d) != f.Eval(b, c, d) || x.Op == OpAdd && x.X.Eval(b, c, d)&x.Y.Eval(b, c, d) != 0 {
						t.Fatalf("%v with -ch %v -maj %v: the form is wrong at %08x %08x %08x", f, ch, maj, b, c, d)
					}
				}
			}
		}
	}
}

// Knob values print and parse back, and Set rejects what is not a choice.
func TestKnobRoundTrip(t *testing.T) {
	for _, s := range Schedules() {
		var q Schedule
		for i, k := range q.Knobs() {
			if err := k.Set(s.Knobs()[i].String()); err != nil {
				t.Fatal(err)
			}
		}
		if q != s {
			t.Errorf("%s parsed back as %s", s, q)
		}
	}
	var m Maj
	if err := m.Set("nand"); err == nil || !strings.Contains(err.Error(), "xor, or, add") {
		t.Errorf("Maj.Set(nand): %v", err)
	}
	var l Lookahead
	if err := l.Set("twelve"); err == nil {
		t.Errorf("Lookahead.Set(twelve) accepted it")
	}
	if s := (Schedule{Lookahead: 16, Placement: 5}); s.Validate() == nil {
		t.Errorf("Validate accepted placement %d", s.Placement)
	}
}
