package armemit

import (
	"strings"
	"testing"
)

// toyCore is an in-order core of the A53's shape: two instructions a
// cycle, one NEON unit, NEON results after 6 cycles, integer ones after 1
// for the next integer instruction but written back after 3, in order.
var toyCore = InOrder{
	Width: 2,
	Unit: func(i *Inst) string {
		if strings.HasPrefix(i.Op, "V") {
			return "neon"
		}
		return "alu"
	},
	Units: map[string]int{"neon": 1, "alu": 2},
	Delay: func(p, c *Inst, r string) int {
		if strings.HasPrefix(p.Op, "V") {
			return 6
		}
		return 1
	},
	Done: func(i *Inst) int {
		if strings.HasPrefix(i.Op, "V") {
			return 6
		}
		return 3
	},
	Wait: 2,
}

func toy(op string, in []string, out ...string) *Inst {
	return &Inst{Op: op, GNU: strings.ToLower(op), In: in, Out: out}
}

// Cycles models issue in order, two a cycle, in-order write-back and the
// delays: an integer instruction after a NEON one waits until it would
// write back no earlier.
func TestInOrderCycles(t *testing.T) {
	for _, c := range []struct {
		name  string
		insts []*Inst
		want  int
	}{
		{"two adds pair", []*Inst{toy("ADD", nil, "R1"), toy("ADD", nil, "R2")}, 3},
		{"a chain of adds", []*Inst{toy("ADD", nil, "R1"), toy("ADD", []string{"R1"}, "R1"), toy("ADD", []string{"R1"}, "R1")}, 5},
		{"NEON then an add", []*Inst{toy("VEOR", nil, "V1"), toy("ADD", nil, "R1")}, 6},
		{"an add waits for the NEON write-back", []*Inst{toy("VEOR", nil, "V1"), toy("ADD", nil, "R1"), toy("ADD", []string{"R1"}, "R2")}, 7},
		{"two NEON, one unit", []*Inst{toy("VEOR", nil, "V1"), toy("VEOR", nil, "V2")}, 7},
		{"a dependent NEON", []*Inst{toy("VEOR", nil, "V1"), toy("VEOR", []string{"V1"}, "V2")}, 12},
	} {
		if got := toyCore.Cycles(c.insts); got != c.want {
			t.Errorf("%s: %d cycles, want %d", c.name, got, c.want)
		}
	}
}

// ScheduleInOrder moves independent work between a NEON instruction and
// its reader, keeps the NEON instructions that can go together, leaves the
// branch last, and takes fewer cycles than the order it was given.
func TestScheduleInOrder(t *testing.T) {
	f := NewFunc("t", nil, 0, nil, "b")
	f.Label("loop")
	f.Comment("top")
	given := []*Inst{
		toy("VEOR", []string{"V2"}, "V1"),
		toy("VEOR", []string{"V1"}, "V3"), // reads V1
		toy("ADD", []string{"R1"}, "R1"),
		toy("ADD", []string{"R1"}, "R1"),
		toy("ADD", []string{"R2"}, "R2"),
		toy("ADD", []string{"R2"}, "R2"),
		toy("VEOR", []string{"V4"}, "V5"), // independent
		toy("SUBS", []string{"R3"}, "R3", "flags"),
		{Op: "BNE", GNU: "bne loop", Branch: true, Conditional: true, Target: "loop", In: []string{"flags"}},
	}
	for _, i := range given {
		f.Add(i)
	}
	f.ScheduleInOrder(toyCore)
	got := f.Insts()
	if got[len(got)-1] != given[len(given)-1] {
		t.Errorf("the branch is not last")
	}
	pos := map[*Inst]int{}
	for k, i := range got {
		pos[i] = k
	}
	if pos[given[1]] < pos[given[0]]+2 {
		t.Errorf("the reader of V1 was not moved away from its writer: %v", ops(got))
	}
	if before, after := toyCore.Cycles(given), toyCore.Cycles(got); after >= before {
		t.Errorf("the schedule takes %d cycles, the given order %d: %v", after, before, ops(got))
	}
	if _, ok := f.Nodes()[1].(Comment); !ok {
		t.Errorf("the comment at the top moved")
	}
}

func ops(insts []*Inst) string {
	var s []string
	for _, i := range insts {
		s = append(s, i.Op)
	}
	return strings.Join(s, " ")
}

// RefineInOrder moves a NEON instruction next to another, so that the
// A53-like core waits once after them instead of twice, where the first
// core (which does not care) takes no longer; it keeps a reader after its
// writer.
func TestRefineInOrder(t *testing.T) {
	flat := InOrder{
		Width: 2,
		Unit:  func(*Inst) string { return "" },
		Delay: func(p, c *Inst, r string) int { return 1 },
		Done:  func(*Inst) int { return 1 },
	}
	held := toyCore
	held.Hold = func(i *Inst) bool { return strings.HasPrefix(i.Op, "V") }
	given := []*Inst{
		toy("VEOR", []string{"V2"}, "V1"),
		toy("ADD", []string{"R1"}, "R1"),
		toy("ADD", []string{"R2"}, "R2"),
		toy("VEOR", []string{"V4"}, "V5"), // independent
		toy("ADD", []string{"R3"}, "R3"),
		toy("ADD", []string{"R4"}, "R4"),
		toy("VEOR", []string{"V1"}, "V6"), // reads V1
	}
	f := NewFunc("t", nil, 0, nil, "b")
	for _, i := range given {
		f.Add(i)
	}
	f.RefineInOrder(flat, held, 4)
	got := f.Insts()
	if before, after := held.Cycles(given), held.Cycles(got); after >= before {
		t.Errorf("refined for the second core: %d cycles, given %d: %v", after, before, ops(got))
	}
	if before, after := flat.Cycles(given), flat.Cycles(got); after > before {
		t.Errorf("the first core takes %d cycles, %d before: %v", after, before, ops(got))
	}
	pos := map[*Inst]int{}
	for k, i := range got {
		pos[i] = k
	}
	if len(pos) != len(given) || pos[given[6]] < pos[given[0]] {
		t.Errorf("instructions lost or the reader of V1 moved before its writer: %v", ops(got))
	}
}

// A graph reduced of its implied edges gives every order the cycles of
// the full graph.
func TestReducedGraph(t *testing.T) {
	insts := []*Inst{
		toy("VEOR", []string{"V2"}, "V1"),
		toy("ADD", []string{"R1"}, "R1"),
		toy("ADD", []string{"R1"}, "R1"),
		toy("VEOR", []string{"V1"}, "V1"),
		toy("ADD", []string{"R1", "R2"}, "R2"),
		toy("VEOR", []string{"V1", "V3"}, "V3"),
		toy("ADD", []string{"R2"}, "R1"),
		toy("VEOR", []string{"V3"}, "V1"),
	}
	g := toyCore.graph(insts)
	r := g.reduced()
	full, kept := 0, 0
	for i := range insts {
		full += len(g.pred[i])
		kept += len(r.pred[i])
	}
	if kept >= full {
		t.Errorf("the reduced graph keeps all %d edges", full)
	}
	order := []int{0, 1, 2, 3, 4, 5, 6, 7}
	if want, got := toyCore.newCore(g).cycles(order), toyCore.newCore(r).cycles(order); got != want {
		t.Errorf("the reduced graph takes %d cycles, the full one %d", got, want)
	}
}
