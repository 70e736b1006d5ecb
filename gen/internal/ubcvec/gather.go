package ubcvec

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/simdhash/simdhash/gen/internal/ubc"
)

// The gather form of the check, for targets that permute any words of two
// registers into any lanes (AVX-512's VPERMI2D) and test a bit of every
// lane into a mask register (VPTESTMD): every term is a lane of its own,
// so a vector of L lanes evaluates L terms of any runs, with its operands
// gathered from two tables holding W[Lo..Hi]:
//
//	a = W[A], b = W[B]                 gathered (VPERMI2D)
//	x = a ^ rol(b, KA-KB) ^ Eq<<KA     (VPROLVD, VPTERNLOGD)
//	k = lanes whose bit KA of x is set (VPTESTMD): the terms that fail
//	acc |= D under mask k              (VPORD)
//
// and the mask is the complement of the OR of the accumulator's lanes.

// A Gather is one vector of the gather form: lane j evaluates term
// Terms[j] (-1: an idle lane, whose D is 0).
type Gather struct {
	Terms []int
	// The lanes' constants: the table positions of W[A] and W[B], the
	// rotate of b, Eq<<KA, 1<<KA, and the DVs.
	IdxA, IdxB, Rot, Eq, Bit, D []uint32
}

// GatherPlan returns the terms as vectors of lanes lanes; pos gives the
// table position of W[x] (0..2*lanes-1, for W[35..64]), and ready when
// the target has W[x] in its tables: the terms go into the vectors in the
// order of the later of their words' ready (then in the table's order),
// so that each vector can run as early as its words allow. Ready returns
// a vector's own: the latest of its words'.
func GatherPlan(lanes int, pos, ready func(x int) int) []Gather {
	terms := make([]int, len(ubc.Terms))
	for j := range terms {
		terms[j] = j
	}
	when := func(j int) int { return max(ready(ubc.Terms[j].A), ready(ubc.Terms[j].B)) }
	slices.SortStableFunc(terms, func(a, b int) int { return when(a) - when(b) })
	var out []Gather
	for len(terms) > 0 {
		n := min(lanes, len(terms))
		g := Gather{Terms: slices.Clone(terms[:n])}
		terms = terms[n:]
		for len(g.Terms) < lanes {
			g.Terms = append(g.Terms, -1)
		}
		for _, j := range g.Terms {
			var a, b, rot, eq, bit, d uint32
			if j >= 0 {
				t := ubc.Terms[j]
				a, b = uint32(pos(t.A)), uint32(pos(t.B))
				if a >= uint32(2*lanes) || b >= uint32(2*lanes) {
					panic(fmt.Sprintf("ubcvec: W[%d] or W[%d] is not in the tables", t.A, t.B))
				}
				rot = uint32((t.KA - t.KB + 32) % 32)
				eq, bit, d = t.Eq<<t.KA, 1<<t.KA, t.DVs
			}
			g.IdxA = append(g.IdxA, a)
			g.IdxB = append(g.IdxB, b)
			g.Rot = append(g.Rot, rot)
			g.Eq = append(g.Eq, eq)
			g.Bit = append(g.Bit, bit)
			g.D = append(g.D, d)
		}
		out = append(out, g)
	}
	return out
}

// Ready is the latest ready (GatherPlan's) of the words g's terms read.
func (g Gather) Ready(ready func(x int) int) int {
	r := -1
	for _, j := range g.Terms {
		if j >= 0 {
			r = max(r, ready(ubc.Terms[j].A), ready(ubc.Terms[j].B))
		}
	}
	return r
}

// EvalGather runs the gather plan on tables holding W[x] at position
// pos(x), as the target would, and returns the mask.
func EvalGather(plan []Gather, w *[80]uint32, pos func(x int) int) uint32 {
	lo, hi := ubc.Words()
	var table [64]uint32
	for x := lo; x <= hi; x++ {
		table[pos(x)] = w[x]
	}
	var acc uint32
	for _, g := range plan {
		for j := range g.Terms {
			a, b := table[g.IdxA[j]], table[g.IdxB[j]]
			x := a ^ bits.RotateLeft32(b, int(g.Rot[j])) ^ g.Eq[j]
			if x&g.Bit[j] != 0 {
				acc |= g.D[j]
			}
		}
	}
	return ^acc
}
