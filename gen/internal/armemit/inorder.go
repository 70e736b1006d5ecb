package armemit

import (
	"slices"
	"strconv"
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
				if slices.Contains(insts[i].In, r) {
					d = max(d, raw(insts[j], insts[i], r)) // read after write
				}
				if slices.Contains(insts[i].Out, r) {
					d = max(d, waw(insts[j], insts[i])) // write after write
				}
			}
			for _, r := range insts[j].In {
				if slices.Contains(insts[i].Out, r) {
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

// start returns what a list scheduler of g begins with: the priority of
// each instruction, the longest chain of delays from it to the end (last(i)
// at the least), the number of predecessors each waits for, and how many
// instructions it places (all but a pinned branch).
func (g *graph) start(last func(i int) int) (prio, npred []int, free int) {
	n := len(g.insts)
	prio, npred, free = make([]int, n), make([]int, n), n
	if g.pinned {
		free = n - 1
	}
	for i := n - 1; i >= 0; i-- {
		npred[i] = len(g.pred[i])
		prio[i] = last(i)
		for _, e := range g.succ[i] {
			prio[i] = max(prio[i], e.delay+prio[e.other])
		}
	}
	return prio, npred, free
}

// core is a simulated core issuing the instructions of one stretch in
// order, with what c's functions say of each instruction worked out once
// (the list scheduler and RefineInOrder ask many times).
type core struct {
	g     *graph
	width int
	unit  []int // index into limit, or -1 for a unit without a limit
	limit []int // copies of each limited unit
	busy  []int
	done  []int
	leads []bool
	at    []int // the issue cycle of each instruction (cycles)

	cur, used int     // the current cycle, and the instructions issued in it
	lastDone  int     // the last write-back of the instructions issued
	free      [][]int // per limited unit, the cycle at which each copy is free
}

func (c InOrder) newCore(g *graph) *core {
	n := len(g.insts)
	s := &core{g: g, width: max(1, c.Width), unit: make([]int, n), busy: make([]int, n), done: make([]int, n), leads: make([]bool, n), at: make([]int, n)}
	units := map[string]int{}
	for k, i := range g.insts {
		s.unit[k] = -1
		if copies, ok := c.Units[c.Unit(i)]; ok {
			u, seen := units[c.Unit(i)]
			if !seen {
				u = len(s.limit)
				units[c.Unit(i)] = u
				s.limit = append(s.limit, copies)
			}
			s.unit[k] = u
		}
		s.busy[k] = 1
		if c.Busy != nil {
			s.busy[k] = max(1, c.Busy(i))
		}
		s.done[k] = c.Done(i)
		s.leads[k] = c.Leads != nil && c.Leads(i)
	}
	s.free = make([][]int, len(s.limit))
	for u, k := range s.limit {
		s.free[u] = make([]int, k)
	}
	return s
}

// reset empties the core, for another order.
func (s *core) reset() {
	s.cur, s.used, s.lastDone = 0, 0, 0
	for _, f := range s.free {
		clear(f)
	}
}

// earliest is the cycle at which instruction i could issue next, its
// operands being ready at cycle ready.
func (s *core) earliest(i, ready int) int {
	e := max(s.cur, ready, s.lastDone-s.done[i])
	for {
		if e == s.cur && (s.used >= s.width || s.used > 0 && s.leads[i]) {
			e++
			continue
		}
		if u := s.unit[i]; u >= 0 && !slices.ContainsFunc(s.free[u], func(f int) bool { return f <= e }) {
			e++
			continue
		}
		return e
	}
}

// issue issues instruction i at cycle e (from earliest).
func (s *core) issue(i, e int) {
	if e > s.cur {
		s.cur, s.used = e, 0
	}
	s.used++
	if u := s.unit[i]; u >= 0 {
		f := s.free[u]
		f[slices.IndexFunc(f, func(f int) bool { return f <= e })] = e + s.busy[i]
	}
	s.lastDone = max(s.lastDone, e+s.done[i])
	s.at[i] = e
}

// cycles is the number of cycles the core takes to issue its stretch in
// the order given (indexes into the stretch) and write every result back.
func (s *core) cycles(order []int) int {
	s.reset()
	for _, i := range order {
		ready := 0
		for _, p := range s.g.pred[i] {
			ready = max(ready, s.at[p.other]+p.delay)
		}
		s.issue(i, s.earliest(i, ready))
	}
	return s.lastDone
}

// order builds an order of g by list scheduling on c.
func (c InOrder) order(g *graph) []int {
	n := len(g.insts)
	prio, npred, free := g.start(func(i int) int { return c.Done(g.insts[i]) })
	ready := make([]int, n)
	done := make([]bool, n)
	s := c.newCore(g)
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
			e := s.earliest(i, ready[i])
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
		if held >= 0 && (best < 0 || heldE+s.done[held]-s.done[best] <= bestE) {
			best, bestE = held, heldE
		}
		s.issue(best, bestE)
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
	return permute(nodes, func(insts []*Inst) []int { return c.order(c.graph(insts)) })
}

// Cycles is the number of cycles that core c takes to issue insts, in
// their order, and write every result back (for tests and tuning).
func (c InOrder) Cycles(insts []*Inst) int {
	order := make([]int, len(insts))
	for i := range order {
		order[i] = i
	}
	return c.newCore(c.graph(insts)).cycles(order)
}

// permute returns a straight stretch with its instructions in the order
// that order gives (indexes into them); the comments before the first
// instruction stay at the top, the others go with the instruction after
// them (splitRegion).
func permute(nodes []any, order func(insts []*Inst) []int) []any {
	head, insts, tail := splitRegion(nodes)
	out := append(make([]any, 0, len(nodes)), head...)
	for _, i := range order(insts) {
		out = append(out, insts[i])
	}
	return append(out, tail...)
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

// RefineInOrder improves the order of every straight stretch of f for a
// second core without making it slower on c: it moves, one at a time,
// each instruction that second holds back (InOrder.Hold) to the place
// within window instructions of it, and within its dependences, where
// second takes the fewest cycles, if that is fewer than before and c
// takes no more cycles than before the first move (a hill climb, in the
// order of the stretch).
func (f *Func) RefineInOrder(c, second InOrder, window int) {
	f.reorder(func(nodes []any) []any {
		return permute(nodes, func(insts []*Inst) []int { return c.refine(second, insts, window) })
	})
}

// refine returns the order of insts that RefineInOrder makes.
func (c InOrder) refine(second InOrder, insts []*Inst, window int) []int {
	n := len(insts)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if second.Hold == nil || n < 2 {
		return order
	}
	s1, s2 := c.newCore(c.graph(insts).reduced()), second.newCore(second.graph(insts).reduced())
	g1 := s1.g
	limit := s1.cycles(order)
	best := s2.cycles(order)
	pos := slices.Clone(order) // pos[i] is the place of instruction i in order
	moved := make([]int, n)
	move := func(from, to int) { // the instruction at from goes to to
		copy(moved, order)
		x := moved[from]
		if from < to {
			copy(moved[from:to], moved[from+1:to+1])
		} else {
			copy(moved[to+1:from+1], moved[to:from])
		}
		moved[to] = x
	}
	for x := 0; x < n; x++ {
		if !second.Hold(insts[x]) {
			continue
		}
		p := pos[x]
		lo, hi := max(0, p-window), min(n-1, p+window)
		for _, e := range g1.pred[x] {
			lo = max(lo, pos[e.other]+1)
		}
		for _, e := range g1.succ[x] {
			hi = min(hi, pos[e.other]-1)
		}
		bestTo := -1
		for to := lo; to <= hi; to++ {
			if to == p {
				continue
			}
			move(p, to)
			if k := s2.cycles(moved); k < best && s1.cycles(moved) <= limit {
				best, bestTo = k, to
			}
		}
		if bestTo >= 0 {
			move(p, bestTo)
			order, moved = moved, order
			for i, y := range order {
				pos[y] = i
			}
		}
	}
	return order
}

// reduced returns g without the edges that a path of two edges implies:
// an edge p -> i goes if i has a later predecessor q, whose edge q -> i
// stays, with an edge p -> q, and the two delays add up to at least
// p -> i's. Every order of g's instructions that satisfies the edges left
// satisfies g's (by induction along the order), at no later cycles; the
// dependences of a stretch hold many such edges (every earlier writer of
// a register, every reader since), which the cycle count would go through.
func (g *graph) reduced() *graph {
	n := len(g.insts)
	delay := make([]map[int]int, n) // delay[p][q]: the edge p -> q
	for p := range g.succ {
		delay[p] = make(map[int]int, len(g.succ[p]))
		for _, e := range g.succ[p] {
			delay[p][e.other] = e.delay
		}
	}
	r := &graph{insts: g.insts, succ: make([][]edge, n), pred: make([][]edge, n), pinned: g.pinned}
	for i := range g.pred {
		preds := slices.Clone(g.pred[i])
		slices.SortFunc(preds, func(a, b edge) int { return b.other - a.other })
		for _, e := range preds {
			implied := slices.ContainsFunc(r.pred[i], func(k edge) bool {
				d, ok := delay[e.other][k.other]
				return ok && d+k.delay >= e.delay
			})
			if !implied {
				r.pred[i] = append(r.pred[i], e)
				r.succ[e.other] = append(r.succ[e.other], edge{i, e.delay})
			}
		}
	}
	return r
}
