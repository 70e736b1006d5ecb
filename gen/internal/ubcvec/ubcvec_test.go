package ubcvec

import (
	"math/rand/v2"
	"testing"

	"github.com/simdhash/simdhash/gen/internal/ubc"
)

// The plan gives ubc.Mask on random words and on words that reach each DV,
// with each of the DV's terms broken in turn, in both lane orders.
func TestPlanMatchesMask(t *testing.T) {
	ops := Ops()
	rng := rand.New(rand.NewPCG(22, 4))
	check := func(w *[80]uint32, what string) {
		t.Helper()
		want := ubc.Mask(w)
		for _, rev := range []bool{false, true} {
			if got := Eval(ops, w, rev); got != want {
				t.Fatalf("%s (reversed %v): mask %#08x, ubc.Mask %#08x", what, rev, got, want)
			}
		}
	}
	for w, what := range ubc.Cases(rng, 2000, 20) {
		check(w, what)
	}
}

// Every term is in exactly one lane of one Kill, with its DVs.
func TestPlanCoversTerms(t *testing.T) {
	seen := make([]int, len(ubc.Terms))
	first := 0
	for _, op := range Ops() {
		if op.Kind != Kill {
			continue
		}
		if op.First {
			first++
		}
		for i, j := range op.Terms {
			if j < 0 {
				if op.D[i] != 0 {
					t.Errorf("%v: lane %d has DVs but no term", op, i)
				}
				continue
			}
			seen[j]++
			if op.D[i] != ubc.Terms[j].DVs {
				t.Errorf("%v: lane %d: DVs %#x, term %d has %#x", op, i, op.D[i], j, ubc.Terms[j].DVs)
			}
		}
	}
	for j, n := range seen {
		if n != 1 {
			t.Errorf("term %d (%+v) is in %d lanes", j, ubc.Terms[j], n)
		}
	}
	if first != 1 {
		t.Errorf("%d Kills set the accumulator, want 1", first)
	}
}

// Items read only the groups they name, and W[35..64] lies in groups 8..16.
func TestItemGroups(t *testing.T) {
	items, _ := Plan()
	for _, it := range items {
		if it.Lo < 8 || it.Hi > 16 || it.Lo > it.Hi {
			t.Errorf("item reads groups %d..%d", it.Lo, it.Hi)
		}
		for _, op := range it.Ops {
			for _, r := range []Reg{op.A, op.B} {
				if op.Kind != Xor && r == op.B {
					continue
				}
				if r.Kind == Group && (r.N < it.Lo || r.N > it.Hi) {
					t.Errorf("%v reads %v outside the item's groups %d..%d", op, r, it.Lo, it.Hi)
				}
			}
			if op.Kind == Align && (op.Start/4 < it.Lo || op.Start/4+1 > it.Hi) {
				t.Errorf("%v outside the item's groups %d..%d", op, it.Lo, it.Hi)
			}
		}
	}
	t.Logf("%d items, %d operations", len(items), len(Ops()))
}

// The gather form gives ubc.Mask on random words and on words that reach
// each DV, with a table in descending order (W[x] at 66-x).
func TestGatherMatchesMask(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 5))
	pos := func(x int) int { return 66 - x }
	plan := GatherPlan(16, pos, func(x int) int { return x / 4 })
	for trial := range 3000 {
		w := ubc.RandomW(rng)
		if d := trial % 40; d < len(ubc.DVs) {
			ubc.Reach(d, &w)
		}
		if got, want := EvalGather(plan, &w, pos), ubc.Mask(&w); got != want {
			t.Fatalf("mask %#08x, ubc.Mask %#08x", got, want)
		}
	}
}
