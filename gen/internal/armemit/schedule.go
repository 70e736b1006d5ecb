package armemit

import "strings"

// Schedule reorders the instructions of every straight-line stretch of f
// (between labels and branches) so that an instruction does not
// immediately follow the one whose result it needs, which matters most on
// in-order cores such as the Cortex-A53 and A55. Registers are not
// changed, so the order can only change where the registers allow it: a
// generator that hands out registers round-robin leaves more freedom.
//
// It is greedy list scheduling for a machine that issues one instruction
// per cycle with fixed latencies (Inst.Latency), choosing among the
// instructions whose inputs are ready the one with the longest chain of
// latencies after it. Dependences are those through registers, the flags
// and memory (loads may pass loads, nothing passes a store). A branch
// stays last. Comments move with the instruction they preceded, except
// those at the top of a stretch, which stay there.
func (f *Func) Schedule() { f.ScheduleFor(Core{}) }

// A Core is the model of a processor that ScheduleFor orders instructions
// for. The zero Core is Schedule's.
type Core struct {
	// Latency, if set, gives the delay in cycles before instruction i's
	// results can be used, whatever they are; otherwise it is one cycle
	// for scalar resources and i.Latency for vector registers.
	Latency func(i *Inst) int
	// InOrderCompletion says that no instruction produces its results
	// before an older one: one with a shorter latency waits to issue (as
	// in LLVM's models of the in-order Cortex-A53 and A55). The scheduler
	// then prefers, at each cycle, an instruction that need not wait.
	InOrderCompletion bool
}

// ScheduleFor is Schedule for the processor model c.
func (f *Func) ScheduleFor(c Core) { f.reorder(c.scheduleRegion) }

// reorder replaces every straight-line stretch of f (the nodes between
// labels, each ending at a branch) with what order returns for it.
func (f *Func) reorder(order func(region []any) []any) {
	var out, region []any
	flush := func() {
		out = append(out, order(region)...)
		region = nil
	}
	for _, n := range f.nodes {
		switch n := n.(type) {
		case Label:
			flush()
			out = append(out, n)
		case *Inst:
			region = append(region, n)
			if n.Branch || n.Terminal {
				flush()
			}
		default:
			region = append(region, n)
		}
	}
	flush()
	f.nodes = out
}

// latency is the model's delay, in cycles, before instruction i's result
// in resource r can be used.
func (c Core) latency(i *Inst, r string) int {
	if c.Latency != nil {
		return c.Latency(i)
	}
	if strings.HasPrefix(r, "R") || r == "flags" || r == "mem" {
		return 1
	}
	return i.Latency
}

// completion is the cycle, counted from its issue, at which i's last
// result is ready.
func (c Core) completion(i *Inst) int {
	d := 1
	for _, r := range i.Out {
		d = max(d, c.latency(i, r))
	}
	return d
}

func (c Core) scheduleRegion(nodes []any) []any { return permute(nodes, c.order) }

// order is the list schedule of a stretch's instructions, as indexes.
func (c Core) order(insts []*Inst) []int {
	g := dependences(insts,
		func(p, _ *Inst, r string) int { return c.latency(p, r) },
		func(_, _ *Inst) int { return 1 })
	n, pinned, succ := len(insts), g.pinned, g.succ
	prio, npred, free := g.start(func(int) int { return 1 })

	ready := make([]int, n) // earliest cycle at which each may issue
	done := make([]bool, n)
	completed := 0 // with InOrderCompletion: when the results issued so far are all ready
	// issuable is the earliest cycle at which i may issue.
	issuable := func(i int) int {
		if c.InOrderCompletion {
			return max(ready[i], completed-c.completion(insts[i]))
		}
		return ready[i]
	}
	var order []int
	for t := 0; len(order) < free; {
		best := -1
		soonest := -1
		for i := 0; i < free; i++ {
			if done[i] || npred[i] > 0 {
				continue
			}
			if issuable(i) <= t {
				if best < 0 || prio[i] > prio[best] {
					best = i
				}
			} else if soonest < 0 || issuable(i) < issuable(soonest) {
				soonest = i
			}
		}
		if best < 0 {
			t = issuable(soonest)
			continue
		}
		done[best] = true
		completed = max(completed, t+c.completion(insts[best]))
		order = append(order, best)
		for _, e := range succ[best] {
			npred[e.other]--
			ready[e.other] = max(ready[e.other], t+e.delay)
		}
		t++
	}
	if pinned {
		order = append(order, n-1)
	}
	return order
}
