// Package ubcvec lowers the unavoidable-bit-condition check of SHA-1
// collision detection (gen/internal/ubc) to operations on vector registers
// that hold a block's expanded message W four words at a time, as every
// SIMD SHA-1 kernel of this project computes it: the vectorised schedules
// of gen/internal/sha1sched (ssse3, avx, avx2, neon), the message registers
// of SHA-NI and of the Arm SHA1 instructions. It is the one plan that every
// such kernel's check is emitted from; each backend lowers its operations
// to its own instructions.
//
// # The plan
//
// A term of the table says that bit KA of W[A] XOR bit KB of W[B] must
// equal Eq for its DVs to survive. The terms come in runs: the same
// distance d = B-A and the same bits for consecutive A (44.29^45.29,
// 45.29^46.29, ...), because the DVs of one type are shifts of one another
// in time. For four consecutive words at once,
//
//	X = W[s..s+3] ^ shift(W[s+d..s+d+3], KA-KB)
//
// has in bit KA of lane i the XOR of the term at A = s+i, for every run
// with that distance and that bit offset, whatever its KA (runs sharing d
// and KA-KB share X). Moving bit KA to the sign and spreading it over the
// lane gives all ones where the term fails (Eq = 0) or holds (Eq = 1);
// AND with a constant holding, in lane i, the DVs of the term at A = s+i
// (zero where the run has no term) and OR into an accumulator gives the
// DVs that the four terms kill. At the end the accumulator's four lanes
// are ORed together: the mask is its complement, ubc.Mask exactly.
//
// Every term is evaluated, on every block, with the same operations: the
// check does not branch on the data (docs/sha1dc.md, "Timing depends on
// the data"). Only the kernel's exit on a non-zero mask does.
//
// W[s..s+3] for s not a multiple of four straddles two groups: an
// Align operation joins them (PALIGNR, EXT), or a backend that keeps W in
// memory loads it unaligned. A backend whose registers hold a group's
// words in the other order (SHA-NI: W[4g] in the top lane) runs the same
// operations with the constants' lanes reversed (Op.Lanes).
//
// # Placement
//
// Each Item is one window's operations and names the groups it reads; a
// description places items among its rounds where those groups are in
// registers (Schedule deals them out evenly between the first round at
// which they can run and the last), and emits Reduce after the last.
package ubcvec

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/simdhash/simdhash/gen/internal/ubc"
)

// RegKind is what a register of the plan holds.
type RegKind int

// The register kinds.
const (
	// Temp is a scratch register of the check, numbered from 0
	// (Temps of them).
	Temp RegKind = iota
	// Group is group N of the block's W, W[4N..4N+3], where the
	// description keeps it; the check only reads it.
	Group
	// Acc accumulates the DVs the terms kill.
	Acc
)

// Reg is a register of the plan.
type Reg struct {
	Kind RegKind
	N    int // the temporary's number, or the group
}

// Temps is the number of temporaries the plan uses.
const Temps = 2

// T returns temporary i.
func T(i int) Reg { return Reg{Temp, i} }

// G returns the register of group g.
func G(g int) Reg { return Reg{Group, g} }

// AccReg is the accumulator.
var AccReg = Reg{Kind: Acc}

func (r Reg) String() string {
	switch r.Kind {
	case Temp:
		return fmt.Sprintf("t%d", r.N)
	case Group:
		return fmt.Sprintf("W[%d..%d]", 4*r.N, 4*r.N+3)
	}
	return "acc"
}

// Kind is an operation of the check. Every operation works lane by lane on
// four 32-bit lanes, except Align and Reduce.
type Kind int

// The operations. Dst is always a temporary (or the accumulator); A and B
// may be groups. A two-operand target copies A into Dst first when they
// differ.
const (
	// Align sets Dst to W[Start..Start+3], which straddles groups
	// Start/4 and Start/4+1 (Start is not a multiple of 4): lane i is
	// W[Start+i].
	Align Kind = iota
	// Shl and Shr set Dst = A << N and A >> N (logical) in each lane.
	Shl
	Shr
	// Xor sets Dst = A ^ B.
	Xor
	// Kill ORs into the accumulator the constant D, lane by lane, where
	// the sign bit of A is set (Not: clear); A is overwritten. With
	// First, it sets the accumulator instead, the first Kill of a block.
	Kill
	// Reduce ORs the accumulator's four lanes together; the mask is the
	// complement of any one of them. It overwrites Dst (a temporary).
	Reduce
)

var kindNames = [...]string{"Align", "Shl", "Shr", "Xor", "Kill", "Reduce"}

func (k Kind) String() string { return kindNames[k] }

// Op is one operation of the check.
type Op struct {
	Kind   Kind
	Dst, A Reg
	B      Reg
	N      int // the shift, for Shl and Shr
	Start  int // the first word, for Align
	// D is the constant of a Kill, lane i for the term at A = s+i of its
	// window s (Lanes gives it in a backend's lane order).
	D     [4]uint32
	Not   bool // Kill where the sign is clear (the terms with Eq = 1)
	First bool // Kill sets the accumulator rather than ORing into it
	// Terms are the terms of ubc.Terms a Kill evaluates, one per lane
	// (-1 for none): for comments and tests.
	Terms [4]int
	// Item is the number of the operation's item in Plan's order. A
	// backend may give consecutive items temporaries (and accumulators)
	// of their own, so that an in-order core can interleave them: items
	// share nothing but the accumulator.
	Item int
}

// Lanes returns D in lane order: reversed for a backend whose registers
// hold W[4g+i] in lane 3-i.
func (op Op) Lanes(reversed bool) [4]uint32 {
	if !reversed {
		return op.D
	}
	return [4]uint32{op.D[3], op.D[2], op.D[1], op.D[0]}
}

func (op Op) String() string {
	switch op.Kind {
	case Align:
		return fmt.Sprintf("%v = W[%d..%d]", op.Dst, op.Start, op.Start+3)
	case Shl, Shr:
		return fmt.Sprintf("%v = %v(%v, %d)", op.Dst, op.Kind, op.A, op.N)
	case Xor:
		return fmt.Sprintf("%v = %v ^ %v", op.Dst, op.A, op.B)
	case Kill:
		how := "|="
		if op.First {
			how = "="
		}
		sign := "sign"
		if op.Not {
			sign = "^sign"
		}
		return fmt.Sprintf("acc %s %s(%v) & %#08x", how, sign, op.A, op.D)
	}
	return fmt.Sprintf("acc = OR of its lanes (scratch %v)", op.Dst)
}

// Comment describes a Kill's terms in the notation of ubc_check.c
// ("A.KA^B.KB=Eq" for each lane), for the generated code.
func (op Op) Comment() string {
	s := ""
	for _, j := range op.Terms {
		if j < 0 {
			s += " -"
			continue
		}
		t := ubc.Terms[j]
		s += fmt.Sprintf(" %d.%d^%d.%d=%d", t.A, t.KA, t.B, t.KB, t.Eq)
	}
	return "terms" + s
}

// An Item is the operations of one window: they read groups Lo..Hi of the
// block's W, and use the temporaries and the accumulator.
type Item struct {
	Lo, Hi int
	Ops    []Op
}

// run is the terms sharing a distance d = B-A and a bit offset r = KA-KB
// (which one XOR of shifted words computes), by their bit KA and Eq.
type run struct {
	d, r int
	as   map[int]bool           // the A of every term
	bits map[[2]int]map[int]int // (KA, Eq) -> A -> term index
}

// Plan returns the check as items, in the order of their last group, and
// the Reduce that follows them. Every term of ubc.Terms is in exactly one
// Kill's lanes. The items may run in any order; whichever Kill runs first
// in a block must set the accumulator (Op.First), which Deal and Ops
// arrange.
func Plan() (items []Item, reduce Op) {
	runs := map[[2]int]*run{}
	for j, t := range ubc.Terms {
		k := [2]int{t.B - t.A, t.KA - t.KB}
		r := runs[k]
		if r == nil {
			r = &run{d: k[0], r: k[1], as: map[int]bool{}, bits: map[[2]int]map[int]int{}}
			runs[k] = r
		}
		r.as[t.A] = true
		b := [2]int{t.KA, int(t.Eq)}
		if r.bits[b] == nil {
			r.bits[b] = map[int]int{}
		}
		r.bits[b][t.A] = j
	}
	for _, k := range slices.SortedFunc(maps.Keys(runs), comparePairs) {
		items = append(items, runs[k].items()...)
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].Hi < items[j].Hi })
	for i := range items {
		for j := range items[i].Ops {
			items[i].Ops[j].Item = i
		}
	}
	return items, Op{Kind: Reduce, Dst: T(0), Item: -1}
}

// comparePairs orders pairs by their first element, then their second.
func comparePairs(a, b [2]int) int { return cmp.Or(a[0]-b[0], a[1]-b[1]) }

// items returns the run's windows: each aligned window (s a multiple of 4)
// or each window from the lowest A not yet covered, whichever costs fewer
// Align operations, and among equals the fewer windows.
func (r *run) items() []Item {
	as := slices.Sorted(maps.Keys(r.as))
	var aligned, greedy []int
	for _, a := range as {
		if s := a &^ 3; len(aligned) == 0 || aligned[len(aligned)-1] != s {
			aligned = append(aligned, s)
		}
		if len(greedy) == 0 || a > greedy[len(greedy)-1]+3 {
			greedy = append(greedy, a)
		}
	}
	cost := func(starts []int) int {
		n := 0
		for _, s := range starts {
			if s%4 != 0 {
				n++
			}
			if (s+r.d)%4 != 0 {
				n++
			}
		}
		return 2*n + len(starts)
	}
	starts := aligned
	if cost(greedy) < cost(aligned) {
		starts = greedy
	}
	var items []Item
	for _, s := range starts {
		items = append(items, r.window(s))
	}
	return items
}

// window returns the item of the run's window at s.
func (r *run) window(s int) Item {
	it := Item{Lo: s / 4, Hi: (s + r.d + 3) / 4}
	src := func(start int, into Reg) Reg {
		if start%4 == 0 {
			return G(start / 4)
		}
		it.Ops = append(it.Ops, Op{Kind: Align, Dst: into, Start: start})
		return into
	}
	// X = W[s..] ^ shift(W[s+d..], r), in T0.
	a := src(s, T(0))
	b := src(s+r.d, T(1))
	switch {
	case r.r > 0:
		it.Ops = append(it.Ops, Op{Kind: Shl, Dst: T(1), A: b, N: r.r})
		b = T(1)
	case r.r < 0:
		it.Ops = append(it.Ops, Op{Kind: Shr, Dst: T(1), A: b, N: -r.r})
		b = T(1)
	}
	if a == b { // d = 0, r = 0 cannot happen (a term on one bit)
		panic("ubcvec: a term compares a bit with itself")
	}
	it.Ops = append(it.Ops, Op{Kind: Xor, Dst: T(0), A: a, B: b})
	// Each (KA, Eq) with a term in the window: its bit to the sign, and
	// the DVs of its lanes. The last one shifts T0 in place.
	var bits [][2]int
	for b, terms := range r.bits {
		for i := range 4 {
			if _, ok := terms[s+i]; ok {
				bits = append(bits, b)
				break
			}
		}
	}
	slices.SortFunc(bits, comparePairs)
	for n, b := range bits {
		kill := Op{Kind: Kill, A: T(1), Not: b[1] == 1, Terms: [4]int{-1, -1, -1, -1}}
		if n == len(bits)-1 {
			kill.A = T(0)
		}
		for i := range 4 {
			if j, ok := r.bits[b][s+i]; ok {
				kill.D[i] = ubc.Terms[j].DVs
				kill.Terms[i] = j
			}
		}
		if b[0] != 31 {
			it.Ops = append(it.Ops, Op{Kind: Shl, Dst: kill.A, A: T(0), N: 31 - b[0]})
		} else if kill.A != T(0) {
			panic("ubcvec: bit 31 needs no shift, only the last bit of a window may be it")
		}
		it.Ops = append(it.Ops, kill)
	}
	return it
}

// Ops returns every operation of the plan in order, the Reduce last.
func Ops() []Op {
	items, reduce := Plan()
	var ops []Op
	for _, it := range items {
		ops = append(ops, it.Ops...)
	}
	first := true
	for i := range ops {
		ops[i].First = ops[i].Kind == Kill && first
		first = first && ops[i].Kind != Kill
	}
	return append(ops, reduce)
}
