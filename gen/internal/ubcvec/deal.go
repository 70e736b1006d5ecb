package ubcvec

import (
	"fmt"
	"math"
)

// Liveness says when a description has each group of a block's W in its
// register: Ready(g) is the first round whose check operations may read
// group g (the description emits them after its own vector steps of that
// round), and Live(g) the last.
type Liveness struct {
	Ready, Live func(g int) int
}

// window returns the rounds in which item it can run: from the latest
// Ready of its groups to the earliest Live.
func (l Liveness) window(it Item) (from, to int) {
	from, to = -1, 1<<30
	for g := it.Lo; g <= it.Hi; g++ {
		from, to = max(from, l.Ready(g)), min(to, l.Live(g))
	}
	return from, to
}

// Deal spreads the items' operations over rounds from..to (at most
// rounds-1): the same number of operations a round, give or take one, each
// item while all its groups are live, the items one after the other,
// earliest deadline first among those that can start, and the Reduce after them all in round to; the first
// Kill placed sets the accumulator (Op.First). out[r] is
// what round r hosts. It fails if an item cannot be done while its groups
// are live.
func Deal(items []Item, reduce Op, l Liveness, from, to, rounds int) ([][]Op, error) {
	if from > to || to >= rounds {
		return nil, fmt.Errorf("ubcvec: the check placed over rounds %d..%d of %d", from, to, rounds)
	}
	total := 1
	for _, it := range items {
		total += len(it.Ops)
	}
	out := make([][]Op, rounds)
	done := make([]bool, len(items))
	cur, pos, emitted := -1, 0, 0
	killed := false // the block's first Kill, which sets the accumulator, has been placed
	span := to - from + 1
	for r := from; r <= to; r++ {
		quota := int(math.Ceil(float64(total) * float64(r-from+1) / float64(span)))
		for {
			if cur < 0 {
				cur = -1
				best := 0
				for i, it := range items {
					ready, live := l.window(it)
					if done[i] || ready > r {
						continue
					}
					if cur < 0 || live < best {
						cur, best = i, live
					}
				}
				if cur < 0 {
					break // nothing can start yet
				}
				pos = 0
			}
			it := items[cur]
			_, live := l.window(it)
			if live < r {
				return nil, fmt.Errorf("ubcvec: the item on groups %d..%d runs in round %d, after its groups' last round %d", it.Lo, it.Hi, r, live)
			}
			// Keep to the quota, unless the item must be done this round.
			if emitted >= quota && live > r {
				break
			}
			op := it.Ops[pos]
			op.First = op.Kind == Kill && !killed
			killed = killed || op.Kind == Kill
			out[r] = append(out[r], op)
			pos++
			emitted++
			if pos == len(it.Ops) {
				done[cur], cur = true, -1
			}
		}
	}
	for i, d := range done {
		if !d {
			return nil, fmt.Errorf("ubcvec: the item on groups %d..%d cannot run by round %d", items[i].Lo, items[i].Hi, to)
		}
	}
	out[to] = append(out[to], reduce)
	return out, nil
}
