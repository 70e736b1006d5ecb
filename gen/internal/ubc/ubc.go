// Package ubc is the one description of the check at the heart of SHA-1
// collision detection (Stevens, "Counter-cryptanalysis", CRYPTO 2013;
// Stevens and Shumow, "Speeding up detection of SHA-1 collision attacks
// using unavoidable attack conditions", USENIX Security 2017): the 32
// disturbance vectors (DVs) that every known near-collision attack on
// SHA-1 follows, and the unavoidable bit conditions (UBCs) on the expanded
// message W[0..79] that a block must meet for an attack along a DV to be
// possible.
//
// A block is checked in two stages. The UBC check evaluates every [Term]
// on the block's W and gives a 32-bit mask with bit i set while DVs[i]
// survives; on real data the mask is almost always zero. For each
// surviving DV the block is recompressed from the state before step
// DVs[i].TestT with the message W XOR DVs[i].Dm, forwards to step 80 and
// backwards to step 0; if the two ends make the same chaining value as
// the block did, the block is half of a collision.
//
// Every kernel's check is generated from this package: gen/sha1dc_ubc
// writes the portable Go one (sha1dc/ubc_generated.go), and an assembly
// kernel needs W[Lo..Hi] (see [Words]) in its registers to evaluate the
// same terms, and the states before the steps of [TestSteps] to hand back
// for recompression.
//
// The data are those of the sha1collisiondetection library by Marc
// Stevens and Dan Shumow (github.com/cr-marcstevens/sha1collisiondetection,
// lib/ubc_check.c, MIT licence; git's sha1dc/ubc_check.c is the same file),
// as carried by github.com/pjbgf/sha1cd v0.7.0: the DVs from its ubc
// package (sha1_dvs), the terms from the per-term restatement of
// ubc_check.c in ubc/dvmask_avx512_table_amd64.go. The tests hold this
// description to the C code (through sha1cd's cgo package) and to sha1cd's
// Go check on inputs that reach every DV.
package ubc

import (
	"fmt"
	"slices"
)

// A DV is one disturbance vector: I(K,B) or II(K,B) in the notation of
// the papers, with the message difference an attack along it adds.
type DV struct {
	Type  int        // I (1) or II (2)
	K, B  int        // the DV's offset K and rotation B
	TestT int        // recompression starts from the state before this step: 58 or 65
	Dm    [80]uint32 // the XOR difference of the expanded message W
}

// The DV types, as the papers name them.
const (
	I  = 1
	II = 2
)

// The mask bit of each DV: DVs[i] is bit i of the mask the UBC check
// returns, in the order of lib/ubc_check.c's DV_*_bit constants.
const (
	I43_0 uint32 = 1 << iota
	I44_0
	I45_0
	I46_0
	I46_2
	I47_0
	I47_2
	I48_0
	I48_2
	I49_0
	I49_2
	I50_0
	I50_2
	I51_0
	I51_2
	I52_0
	II45_0
	II46_0
	II46_2
	II47_0
	II48_0
	II49_0
	II49_2
	II50_0
	II50_2
	II51_0
	II51_2
	II52_0
	II53_0
	II54_0
	II55_0
	II56_0
)

// A Term is one unavoidable bit condition: the DVs of the mask DVs survive
// only if bit KA of W[A] XOR bit KB of W[B] equals Eq. A failing term
// clears its DVs from the mask; the check is the AND of every term.
type Term struct {
	A, KA int    // word index and bit of the first operand
	B, KB int    // word index and bit of the second; A <= B
	Eq    uint32 // 0 or 1
	DVs   uint32 // the DVs that need the condition
}

// Holds reports whether the term's condition is met by w.
func (t Term) Holds(w *[80]uint32) bool {
	return (w[t.A]>>t.KA^w[t.B]>>t.KB)&1 == t.Eq
}

// Mask is the UBC check evaluated straight from the table, one term at a
// time: bit i is set if every term that names DVs[i] holds for w. It is the
// reference that every generated check is tested against.
func Mask(w *[80]uint32) uint32 {
	m := ^uint32(0)
	for _, t := range Terms {
		if !t.Holds(w) {
			m &^= t.DVs
		}
	}
	return m
}

// Words returns the lowest and the highest index of W that any term reads:
// a kernel must keep W[lo..hi] to evaluate the check.
func Words() (lo, hi int) {
	lo, hi = 80, -1
	for _, t := range Terms {
		lo = min(lo, t.A, t.B)
		hi = max(hi, t.A, t.B)
	}
	return lo, hi
}

// TestSteps returns, in increasing order and without repeats, the steps t
// whose state before the step (the working variables a..e entering step t)
// recompression starts from: a kernel saves those states for every block.
func TestSteps() []int {
	var steps []int
	for _, d := range DVs {
		steps = append(steps, d.TestT)
	}
	slices.Sort(steps)
	return slices.Compact(steps)
}

// Name returns the DV's name in the papers' notation, such as "I(43,0)".
func (d DV) Name() string { return fmt.Sprintf("%s(%d,%d)", d.TypeName(), d.K, d.B) }

// TypeName returns the DV's type as its name says it: "I" or "II".
func (d DV) TypeName() string { return [...]string{I: "I", II: "II"}[d.Type] }

// Reach changes bits of w so that every term naming DVs[d] holds, and
// changes no bit that none of those terms reads. It is for tests: W words
// that reach a DV exercise the recompression of real kernels, and random
// words almost never do.
//
// Each term is a linear equation over two bits, so the terms of one DV
// form a graph of bit pairs with parities. Reach keeps, for every
// component, the value of its first bit in w and sets the others from it.
// It panics if the terms of the DV contradict one another, which the
// table's test rules out.
func Reach(d int, w *[80]uint32) {
	type bit struct{ word, pos int }
	parent := map[bit]bit{}
	parity := map[bit]uint32{} // the bit's value XOR its parent's
	var find func(b bit) (bit, uint32)
	find = func(b bit) (bit, uint32) {
		p, ok := parent[b]
		if !ok || p == b {
			parent[b] = b
			return b, 0
		}
		root, pp := find(p)
		parent[b] = root
		parity[b] ^= pp
		return root, parity[b]
	}
	var order []bit
	seen := map[bit]bool{}
	for _, t := range Terms {
		if t.DVs&(1<<d) == 0 {
			continue
		}
		x, y := bit{t.A, t.KA}, bit{t.B, t.KB}
		for _, b := range []bit{x, y} {
			if !seen[b] {
				seen[b] = true
				order = append(order, b)
			}
		}
		rx, px := find(x)
		ry, py := find(y)
		if rx == ry {
			if px^py != t.Eq {
				panic(fmt.Sprintf("ubc: the terms of %s contradict one another", DVs[d].Name()))
			}
			continue
		}
		parent[ry] = rx
		parity[ry] = px ^ py ^ t.Eq
	}
	value := map[bit]uint32{}
	for _, b := range order {
		root, p := find(b)
		v, ok := value[root]
		if !ok {
			v = w[b.word]>>b.pos&1 ^ p
			value[root] = v
		}
		w[b.word] = w[b.word]&^(1<<b.pos) | (v^p)<<b.pos
	}
}
