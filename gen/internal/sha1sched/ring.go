package sha1sched

import "fmt"

// RingWords is the number of 32-bit W+K slots in the ring of the one-block
// kernels: W[t]+K waits there from its group's Store until round t reads
// it, so a group's words must not be stored more than RingWords rounds
// ahead of their readers.
const RingWords = 16

// Slot is where a kernel keeps W+K words: byte Off of buffer Buf. A kernel
// with one ring has one buffer, 0. A kernel that swaps two buffers between
// passes names each by its role in the code (which of two pointer
// registers addresses it) and records the swaps (Model.Swap).
type Slot struct{ Buf, Off int }

func (s Slot) String() string { return fmt.Sprintf("%d:%d", s.Buf, s.Off) }

// RingSlot is the slot of word t in the one-block ring: byte 4*(t mod 16).
func RingSlot(t int) Slot { return Slot{0, 4 * (t % RingWords)} }

// Model records the W+K accesses of the code being emitted, in emission
// order, so that they can be replayed for whole inputs (Check) before the
// code is written: a schedule that would read a slot before its word is
// stored there, or after it is overwritten, is rejected instead of
// emitted. It models which word each slot holds, not the values. The
// multi-lane description (gen/internal/sha1many) keeps its W words in it
// too, one a slot.
type Model struct{ trace Trace }

// Trace is the W+K accesses of one stretch of emitted code.
type Trace []event

type eventKind int

const (
	read eventKind = iota
	write
	swap
	forget // the slots of buffer buf hold nothing
)

type event struct {
	kind  eventKind
	word  int    // the word read, or the first word the first lane stores
	slots []Slot // a read's slot, or each lane's for a write
	words int    // the words a write stores at each slot: 4, or 1
	buf   int    // forget's buffer
}

// RingAccess is one read or write of W+K words by the code being emitted.
type RingAccess struct {
	m  *Model
	ev event
}

// Record notes the access in the model and returns its slot (for a write,
// the first lane's). Call it from the step that emits the access, so that
// the model sees the accesses in the order of the code.
func (a RingAccess) Record() Slot {
	if a.m == nil {
		panic("sha1sched: Record of a ring access that no Model made")
	}
	a.m.trace = append(a.m.trace, a.ev)
	return a.ev.slots[0]
}

// Read is the access of a round that reads W+K for word (relative to the
// first word of the pass, as in Run) at slot s.
func (m *Model) Read(word int, s Slot) RingAccess {
	return RingAccess{m, event{kind: read, word: word, slots: []Slot{s}}}
}

// Write is a store of four words for each lane of a vector: lane l stores
// the words word+80l .. word+80l+3 (its block's) at slots[l], four bytes
// apart.
func (m *Model) Write(word int, slots ...Slot) RingAccess {
	return RingAccess{m, event{kind: write, word: word, slots: slots, words: wordsPerGroup}}
}

// WriteWord is a store of the one word word at slot s.
func (m *Model) WriteWord(word int, s Slot) RingAccess {
	return RingAccess{m, event{kind: write, word: word, slots: []Slot{s}, words: 1}}
}

// Clear records that the slots of buffer buf hold nothing from here on:
// the code uses their registers for something else.
func (m *Model) Clear(buf int) { m.trace = append(m.trace, event{kind: forget, buf: buf}) }

// Swap records that the two buffers exchange roles here: the code swaps
// the registers that point at them.
func (m *Model) Swap() { m.trace = append(m.trace, event{kind: swap}) }

// Cut returns the accesses recorded since the last Cut.
func (m *Model) Cut() Trace {
	t := m.trace
	m.trace = nil
	return t
}

// Run is a trace as one whole input runs it: its words are numbered from
// Base, the first word of the pass (80 times the pass's first block).
type Run struct {
	Trace Trace
	Base  int
}

// Check replays runs, the traces in the order that an input executes
// them, and reports the first read of a slot that does not hold the word
// read.
func Check(runs []Run) error {
	type place struct{ buf, off int }
	held := map[place]int{}
	swapped := false
	phys := func(s Slot, off int) place {
		b := s.Buf
		if swapped {
			b ^= 1
		}
		return place{b, s.Off + off}
	}
	for _, r := range runs {
		for _, ev := range r.Trace {
			w := r.Base + ev.word
			switch ev.kind {
			case swap:
				swapped = !swapped
			case write:
				for l, s := range ev.slots {
					for i := 0; i < ev.words; i++ {
						held[phys(s, 4*i)] = w + 80*l + i
					}
				}
			case forget:
				for p := range held {
					if p.buf == ev.buf {
						delete(held, p)
					}
				}
			case read:
				got, ok := held[phys(ev.slots[0], 0)]
				if !ok || got != w {
					what := "nothing yet"
					if ok {
						what = fmt.Sprintf("word %d (word %d of block %d)", got, got%80, got/80)
					}
					return fmt.Errorf("word %d of block %d would be read from slot %v, which holds %s: the schedule overwrites words before they are read, or reads them before they are written", w%80, w/80, ev.slots[0], what)
				}
			}
		}
	}
	return nil
}

// CheckBlocks replays the accesses of whole inputs of one, two and three
// blocks (Check) of a loop that runs prologue once and then, for each
// block, head and, for every block but the last, next (the rounds with the
// look-ahead into the next block), for the last, last: one block covers
// what the prologue filled, two and three what the loop itself filled.
func CheckBlocks(prologue, head, next, last Trace) error {
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
			return err
		}
	}
	return nil
}

// readsOnce reports a word of the block that the rounds of trace, one
// block's, read other than once (the reloads of spilled groups aside): a backend that reads several rounds'
// words at once (Round.Ahead) and then reads one again, or not at all.
func readsOnce(trace Trace) error {
	var n [80]int
	for _, ev := range trace {
		if ev.kind == read && ev.slots[0].Buf != SpillBuf {
			if ev.word < 0 || ev.word >= 80 {
				return fmt.Errorf("a round reads W+K word %d, outside the block", ev.word)
			}
			n[ev.word]++
		}
	}
	for w, k := range n {
		if k != 1 {
			return fmt.Errorf("the rounds read the W+K of round %d %d times, not once", w, k)
		}
	}
	return nil
}
