package emit

import (
	"strconv"
	"strings"
)

// InOrder models an in-order, multi-issue core, as LLVM's scheduling
// models describe the Cortex-A53 and A55, for ScheduleInOrder: how many
// instructions issue in one cycle and to which units, when a result may
// be read, and when an instruction writes its results back. No
// instruction writes back before an older one (in-order completion): one
// that would waits to issue.
type InOrder struct {
	// Width is how many instructions may issue in one cycle.
	Width int
	// Unit names the unit an instruction issues to; Units says how many
	// instructions of each may issue in one cycle (a unit it does not
	// name is not limited), and Busy, if set, for how many cycles an
	// instruction holds its unit (one if not).
	Unit  func(i *Inst) string
	Units map[string]int
	Busy  func(i *Inst) int
	// Delay is the number of cycles from the issue of p to that of c,
	// which reads p's result in resource r.
	Delay func(p, c *Inst, r string) int
	// Done is the number of cycles from i's issue to its write-back.
	Done func(i *Inst) int
	// Leads, if set, names the instructions that issue first in their
	// cycle, after no other (NEON on the Cortex-A55).
	Leads func(i *Inst) bool
	// Hold, if set, names instructions whose long write-back (Done)
	// would hold back the younger ones: until the core reaches the cycle
	// at which such an instruction could first issue (as computed when
	// its operands were first known ready), it is appended only if it
	// delays the instruction that would be appended otherwise not at all.
	Hold func(i *Inst) bool
	// Wait is what a cycle of waiting costs a candidate, in cycles of the
	// chain of delays after it: the scheduler appends the instruction
	// with the longest chain after it, less Wait times the cycles the
	// core would wait for it (at least 1).
	Wait int
}

// ScheduleInOrder reorders the instructions of every straight-line
// stretch of f, as Schedule does, for the in-order core c: it simulates
// the core issuing the instructions in the order being built, and appends
// at each step the instruction that ranks first by the length of the
// chain of delays after it and the cycles the core would wait for it
// (InOrder.Wait), so that the core stalls as little as the dependences
// allow.
func (f *Func) ScheduleInOrder(c InOrder) { f.reorder(c.scheduleRegion) }

// graph is the dependences of a stretch of instructions: an edge j -> i
// means that i, later in the description's order, issues at least delay
// cycles after j.
type graph struct {
	insts  []*Inst
	succ   [][]edge
	pred   [][]edge // edges into each instruction, from: the producer
	pinned bool     // the last instruction (a branch) stays last
}

type edge struct{ other, delay int }

func (c InOrder) graph(insts []*Inst) *graph {
	return dependences(insts,
		func(p, i *Inst, r string) int { return c.Delay(p, i, r) },
		func(p, i *Inst) int { return max(c.Done(p)-c.Done(i), 0) })
}

// dependences builds the graph of a stretch of instructions for a
// processor model: an edge j -> i for every j before i that i must follow,
// with the least delay between their issues: raw(j, i, r) when i reads
// what j writes in resource r, waw(j, i) when both write one, 0 when i
// overwrites what j reads, and 0 from every instruction to a branch that
// ends the stretch.
func dependences(insts []*Inst, raw func(p, i *Inst, r string) int, waw func(p, i *Inst) int) *graph {
	n := len(insts)
	g := &graph{insts: insts, succ: make([][]edge, n), pred: make([][]edge, n)}
	g.pinned = n > 0 && (insts[n-1].Branch || insts[n-1].Terminal)
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			d := -1
			for _, r := range insts[j].Out {
				if contains(insts[i].In, r) {
					d = max(d, raw(insts[j], insts[i], r)) // read after write
				}
				if contains(insts[i].Out, r) {
					d = max(d, waw(insts[j], insts[i])) // write after write
				}
			}
			for _, r := range insts[j].In {
				if contains(insts[i].Out, r) {
					d = max(d, 0) // write after read
				}
			}
			if g.pinned && i == n-1 {
				d = max(d, 0) // everything before the branch
			}
			if d >= 0 {
				g.succ[j] = append(g.succ[j], edge{i, d})
				g.pred[i] = append(g.pred[i], edge{j, d})
			}
		}
	}
	return g
}

// core is the state of a simulated core issuing instructions in order.
type core struct {
	c         InOrder
	cur, used int              // the current cycle, and the instructions issued in it
	lastDone  int              // the last write-back of the instructions issued
	unitFree  map[string][]int // per unit, the cycle at which each copy is free
	width     int
}

func (c InOrder) newCore() *core {
	return &core{c: c, unitFree: map[string][]int{}, width: max(1, c.Width)}
}

// earliest is the cycle at which i could issue next, its operands being
// ready at cycle ready.
func (s *core) earliest(i *Inst, ready int) int {
	c := s.c
	e := max(s.cur, ready, s.lastDone-c.Done(i))
	for {
		if e == s.cur && (s.used >= s.width || s.used > 0 && c.Leads != nil && c.Leads(i)) {
			e++
			continue
		}
		if k, ok := c.Units[c.Unit(i)]; ok {
			avail := 0
			copies := s.unitFree[c.Unit(i)]
			for x := 0; x < k; x++ {
				if x >= len(copies) || copies[x] <= e {
					avail++
				}
			}
			if avail == 0 {
				e++
				continue
			}
		}
		return e
	}
}

// issue issues i at cycle e (from earliest).
func (s *core) issue(i *Inst, e int) {
	c := s.c
	if e > s.cur {
		s.cur, s.used = e, 0
	}
	s.used++
	if u := c.Unit(i); u != "" {
		if k, ok := c.Units[u]; ok {
			copies := s.unitFree[u]
			for len(copies) < k {
				copies = append(copies, 0)
			}
			busy := 1
			if c.Busy != nil {
				busy = max(1, c.Busy(i))
			}
			for x := range copies {
				if copies[x] <= e {
					copies[x] = e + busy
					break
				}
			}
			s.unitFree[u] = copies
		}
	}
	s.lastDone = max(s.lastDone, e+c.Done(i))
}

// cycles is the number of cycles core c takes to issue the stretch g in
// the order given (indexes into g.insts) and write every result back.
func (c InOrder) cycles(g *graph, order []int) int {
	s := c.newCore()
	at := make([]int, len(g.insts))
	for _, i := range order {
		ready := 0
		for _, p := range g.pred[i] {
			ready = max(ready, at[p.other]+p.delay)
		}
		e := s.earliest(g.insts[i], ready)
		s.issue(g.insts[i], e)
		at[i] = e
	}
	return s.lastDone
}

// order builds an order of g by list scheduling on c.
func (c InOrder) order(g *graph) []int {
	n := len(g.insts)
	// prio is the chain of delays from each instruction to the end.
	prio := make([]int, n)
	for i := n - 1; i >= 0; i-- {
		prio[i] = c.Done(g.insts[i])
		for _, e := range g.succ[i] {
			prio[i] = max(prio[i], e.delay+prio[e.other])
		}
	}
	free := n
	if g.pinned {
		free = n - 1
	}
	npred := make([]int, n)
	for i := range g.pred {
		npred[i] = len(g.pred[i])
	}
	ready := make([]int, n)
	done := make([]bool, n)
	s := c.newCore()
	wait := max(1, c.Wait)
	var order []int
	first := make([]int, n) // for Hold: the cycle at which each could first issue, or -1
	for i := range first {
		first[i] = -1
	}
	for len(order) < free {
		best, bestE, bestScore := -1, 0, 0
		held, heldE := -1, 0
		for i := 0; i < free; i++ {
			if done[i] || npred[i] > 0 {
				continue
			}
			e := s.earliest(g.insts[i], ready[i])
			if c.Hold != nil && c.Hold(g.insts[i]) && (first[i] < 0 || e < first[i]) {
				first[i] = e
			}
			if c.Hold != nil && c.Hold(g.insts[i]) && s.cur < first[i] {
				if held < 0 || e < heldE || e == heldE && prio[i] > prio[held] {
					held, heldE = i, e
				}
				continue
			}
			if score := prio[i] - wait*(e-s.cur); best < 0 || score > bestScore {
				best, bestE, bestScore = i, e, score
			}
		}
		if held >= 0 && (best < 0 || heldE+c.Done(g.insts[held])-c.Done(g.insts[best]) <= bestE) {
			best, bestE = held, heldE
		}
		s.issue(g.insts[best], bestE)
		done[best] = true
		order = append(order, best)
		for _, ed := range g.succ[best] {
			npred[ed.other]--
			ready[ed.other] = max(ready[ed.other], bestE+ed.delay)
		}
	}
	if g.pinned {
		order = append(order, n-1)
	}
	return order
}

func (c InOrder) scheduleRegion(nodes []any) []any {
	head, insts, tail := splitRegion(nodes)
	out := append(make([]any, 0, len(nodes)), head...)
	for _, i := range c.order(c.graph(insts)) {
		out = append(out, insts[i])
	}
	return append(out, tail...)
}

// Cycles is the number of cycles that core c takes to issue insts, in
// their order, and write every result back (for tests and tuning).
func (c InOrder) Cycles(insts []*Inst) int {
	order := make([]int, len(insts))
	for i := range order {
		order[i] = i
	}
	return c.cycles(c.graph(insts), order)
}

// splitRegion splits a straight stretch into the comments at its top,
// its instructions (each carrying the comments that preceded it) and the
// comments after the last instruction.
func splitRegion(nodes []any) (head []any, insts []*Inst, tail []any) {
	var pending []Comment
	for _, n := range nodes {
		switch n := n.(type) {
		case Comment:
			if len(insts) == 0 {
				head = append(head, n)
			} else {
				pending = append(pending, n)
			}
		case *Inst:
			n.notes = append(n.notes, pending...)
			pending = nil
			insts = append(insts, n)
		}
	}
	for _, c := range pending {
		tail = append(tail, c)
	}
	return head, insts, tail
}

// IsVector reports whether resource r is a vector register (V0-V31 on
// arm64, D0-D31 on arm).
func IsVector(r string) bool {
	return len(r) > 1 && (r[0] == 'V' || r[0] == 'D') && r[1] >= '0' && r[1] <= '9'
}

// MemRes names what a load or store of size bytes at offset off touches,
// for the scheduler: "mem", or, if the address is the stack pointer plus
// off (stack), each 4-byte stack word it covers ("stack+16"), so that
// accesses of different stack words may pass each other.
func MemRes(stack bool, off, size int) []string {
	if !stack {
		return []string{"mem"}
	}
	var out []string
	for o := off &^ 3; o < off+size; o += 4 {
		out = append(out, "stack+"+strconv.Itoa(o))
	}
	return out
}

// IsMemory reports whether resource r is memory: "mem", or a stack word
// ("stack+16").
func IsMemory(r string) bool { return r == "mem" || strings.HasPrefix(r, "stack+") }
