package sha1many

import "fmt"

// A ring is a place that holds schedule words, slot by slot.
type ring int

const (
	home  ring = iota // where W[t] lives: slot t%16 of the registers or the stack ring
	cache             // the registers holding the latest computed words, slot t%4
)

func (r ring) String() string { return [...]string{"W slot", "latest-W register"}[r] }

func (r ring) slots() int {
	if r == home {
		return ringWords
	}
	return cacheRegs
}

// An event is one access to a ring in emission order: a read or a write of
// word number word (the block's words are 0..79, the next block's 80 and
// up), or, with clear, the loads reusing the cache registers.
type event struct {
	ring  ring
	write bool
	clear bool
	word  int
}

// checkModel replays the accesses of whole inputs of one, two and three
// blocks: the prologue, then for every block but the last the rounds
// before the look-ahead reaches the next block (head) and the rest (next),
// and for the last block head and the branch that finishes it without the
// next block's loads (last). It reports the first read of a slot that does
// not hold the word read: a schedule that reads a word before it is
// written, or after it is overwritten.
func checkModel(prologue, head, next, last []event) error {
	for blocks := 1; blocks <= 3; blocks++ {
		held := map[ring][]int{home: make([]int, home.slots()), cache: make([]int, cache.slots())}
		for _, s := range held {
			for i := range s {
				s[i] = -1
			}
		}
		replay := func(events []event, base int) error {
			for _, ev := range events {
				if ev.clear {
					for i := range held[cache] {
						held[cache][i] = -1
					}
					continue
				}
				w := base + ev.word
				s := held[ev.ring]
				i := w % len(s)
				if ev.write {
					s[i] = w
					continue
				}
				if s[i] != w {
					return fmt.Errorf("W[%d] would be read from %s %d, which holds W[%d] then (block %d of %d): the look-ahead overwrites words before they are read, or reads them before they are written", ev.word, ev.ring, i, s[i]-base, base/80, blocks)
				}
			}
			return nil
		}
		if err := replay(prologue, 0); err != nil {
			return err
		}
		for b := 0; b < blocks; b++ {
			tail := next
			if b == blocks-1 {
				tail = last
			}
			if err := replay(head, 80*b); err != nil {
				return err
			}
			if err := replay(tail, 80*b); err != nil {
				return err
			}
		}
	}
	return nil
}
