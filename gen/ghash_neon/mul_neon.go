package main

import "fmt"

// neon8 multiplies 64-bit polynomials with the 8x8->16-bit polynomial
// multiply that every Advanced SIMD unit has (PMULL.8H and PMULL2.8H on
// arm64; VMULL.P8 on arm, which takes its operands from D registers and
// so from either half of a Q register), after D. Câmara, C. P. L. Gouvêa, J. López and R. Dahab,
// "Fast Software Polynomial Multiplication on ARM Processors Using the
// NEON Engine", CD-ARES 2013.
//
// Write a = a7..a0 and b = b7..b0 as bytes. a·b is the sum of the 64 byte
// products a_i·b_j·x^(8(i+j)). One PMULL.8H multiplies byte lane i of one
// operand by byte lane i of the other, giving eight 16-bit products. With
// A_k, B_k the operands rotated by k bytes (byte i of A_k is a_(i+k mod 8)):
//
//	D   = PMULL(A, B)                      lane i: a_i·b_i
//	L_k = PMULL(A_k, B) + PMULL(A, B_k)    lane i: a_(i+k)·b_i + a_i·b_(i+k)   (k = 1, 2, 3)
//	L_4 = PMULL(A, B_4)                    lane i: a_i·b_(i+4)
//
// These eight products hold each pair (i, j) exactly once. Lane i of L_k
// belongs at bit 16i+8k, except for the lanes where i+k wrapped past 7
// (the top k lanes, all in the high doubleword): those belong 64 bits
// lower. So each L_k is fixed up by moving its top 16k bits from the high
// doubleword into the same bits of the low one, which leaves the top 2k
// bytes zero, and is then shifted up by k bytes (an EXT rotation), and
//
//	a·b = D + L_1·x^8 + L_2·x^16 + L_3·x^24 + L_4·x^32.
//
// The fix-up and the shift are linear, so they are applied once to a sum
// of products (the lo products of all blocks of an iteration, say), not to
// each product: that is why products stay in this five-register form
// until finish.
//
// Both halves of a vector are used: a key operand [b_lo, b_hi] serves the
// lo and the hi Karatsuba products of a block. The rotations of the data,
// A_1..A_3, must rotate each half on its own (the machine's
// rotateHalves: one TBL with a constant index vector on arm64, one
// VEXT.8 per D register on arm). The rotations of the key, B_1..B_4, are
// precomputed in Go (unless prerotated is false, which computes them in
// the loop, for comparison).
//
// # Two orders
//
// With 32 registers (arm64) the products are emitted as the description
// asks for them ("eager"): the data and key rotations are made once per
// block and shared by its products, and each sum is kept in five
// registers, D and L_1..L_4, until finish. With 16 (arm) that does not
// fit: a lo and a hi sum alone would take ten. There mulAdd only records
// the product, and finish emits each sum part by part ("deferred"): the
// terms of D over all recorded products, then those of L_1, fixed up,
// shifted and added, and so on, loading each key rotation and making each
// data rotation (of the one half needed) just before its product. Every
// A_k and B_k (k >= 1) serves one product anyway, so the deferred order
// costs only reloads of B_0; it keeps about five registers busy.
//
// The reduction's multiply by g = 0x87 uses the same instruction with g in
// every byte: it gives a_i·g in lane i, whose low bytes and high bytes
// (moved up one byte) add up to a·g (the machine's timesG8).
type neon8 struct {
	prerotated bool
	deferred   bool // the deferred order (see above), for a small register file

	// In the deferred order: how many recorded products still use a data
	// register, and whether its operand was released.
	uses     map[vreg]int
	released map[vreg]bool
}

// keyRotations is the number of rotations of a key half kept: B_0..B_4.
const keyRotations = 5

func (m *neon8) keyVectors() int { return keyRotations }

func (m *neon8) keyDoc() string {
	return "[b_lo, b_hi] rotated right by r = 0..4 bytes, each half on its own (byte i of B_r is byte i+r mod 8)"
}

// keyOff is the offset of rotation r of key operand slot.
func keyOff(slot, r int) int { return 16 * (keyRotations*slot + r) }

func (m *neon8) setup(g *gen, slots []int) {
	rotations := 3
	if !m.prerotated {
		rotations = 4
	}
	g.m.setupP8(rotations)
	m.uses, m.released = map[vreg]int{}, map[vreg]bool{}
}

func (m *neon8) key(g *gen, slot int) operand {
	if m.deferred {
		return operand{slot: slot} // loaded by finish
	}
	g.m.Comment(fmt.Sprintf("Key operand %d: B_0..B_4.", slot))
	regs := make([]vreg, keyRotations)
	if m.prerotated {
		for r := range regs {
			regs[r] = g.regs.get()
			g.m.loadKey(regs[r], g.key, keyOff(slot, r))
		}
		return operand{regs: regs, slot: slot}
	}
	regs[0] = g.regs.get()
	g.m.loadKey(regs[0], g.key, keyOff(slot, 0))
	for r := 1; r < keyRotations; r++ {
		regs[r] = g.regs.get()
		g.m.rotateHalves(regs[r], regs[0], r)
	}
	return operand{regs: regs, slot: slot}
}

func (m *neon8) data(g *gen, x vreg) operand {
	if m.deferred {
		return operand{regs: []vreg{x}} // rotated by finish
	}
	regs := []vreg{x}
	for k := 1; k <= 3; k++ {
		r := g.regs.get()
		g.m.rotateHalves(r, x, k)
		regs = append(regs, r)
	}
	return operand{regs: regs}
}

// term is one 8x8 product: acc index, data rotation, key rotation.
type term struct{ acc, a, b int }

var terms = []term{
	{0, 0, 0},
	{1, 1, 0}, {1, 0, 1},
	{2, 2, 0}, {2, 0, 2},
	{3, 3, 0}, {3, 0, 3},
	{4, 0, 4},
}

func (m *neon8) mulAdd(g *gen, acc *product, a, k operand, h half) {
	if m.deferred {
		acc.pending = append(acc.pending, pending{a, k, h})
		m.uses[a.regs[0]]++
		return
	}
	// Issue the products in groups (as many as the free registers allow)
	// before adding them up, so that no addition waits on the product just
	// issued.
	pending := terms
	for len(pending) > 0 {
		n := max(1, min(len(g.regs.free)-1, len(pending)))
		group := pending[:n]
		pending = pending[n:]
		var prods []vreg
		for _, t := range group {
			d := g.regs.get()
			g.m.mulP8(d, a.regs[t.a], k.regs[t.b], h)
			prods = append(prods, d)
		}
		for i, t := range group {
			acc.add(g, t.acc, prods[i])
		}
	}
}

func (m *neon8) release(g *gen, o operand) {
	if !m.deferred {
		g.freeOperand(o)
		return
	}
	for _, r := range o.regs {
		m.released[r] = true
		m.maybeFree(g, r)
	}
}

// maybeFree frees data register r once its operand is released and no
// recorded product uses it.
func (m *neon8) maybeFree(g *gen, r vreg) {
	if m.released[r] && m.uses[r] == 0 {
		delete(m.released, r)
		delete(m.uses, r)
		g.regs.put(r)
	}
}

func (m *neon8) finish(g *gen, acc *product) vreg {
	if m.deferred {
		return m.finishDeferred(g, acc)
	}
	d, l := acc.part(g, 0), []vreg{acc.part(g, 1), acc.part(g, 2), acc.part(g, 3), acc.part(g, 4)}
	g.m.Comment("Fix up L_1..L_4: move the wrapped top lanes 64 bits down.")
	g.m.foldTops(1, l...)
	g.m.Comment("a·b = D + L_1·x^8 + L_2·x^16 + L_3·x^24 + L_4·x^32.")
	for k, x := range l {
		g.m.rotUp(x, k+1)
	}
	for _, x := range l {
		g.m.xor(d, d, x)
	}
	g.regs.put(l...)
	return d
}

// finishDeferred emits the recorded products of acc part by part: the
// terms of part k for every product, summed, fixed up and shifted by k
// bytes, then added to the result.
func (m *neon8) finishDeferred(g *gen, acc *product) vreg {
	var result vreg = -1
	for part := 0; part <= 4; part++ {
		if part == 0 {
			g.m.Comment("D: the products of aligned bytes.")
		} else {
			g.m.Comment(fmt.Sprintf("L_%d, fixed up and shifted up %d byte(s).", part, part))
		}
		var sum vreg = -1
		for _, p := range acc.pending {
			for _, t := range terms {
				if t.acc != part {
					continue
				}
				x := p.a.regs[0]
				a := x
				if t.a != 0 {
					a = g.regs.get()
					g.m.rotateHalf(a, x, t.a, p.h)
				}
				b := g.regs.get()
				if m.prerotated || t.b == 0 {
					g.m.loadKeyHalf(b, p.h, g.key, keyOff(p.k.slot, t.b)+8*int(p.h))
				} else {
					g.m.loadKeyHalf(b, p.h, g.key, keyOff(p.k.slot, 0)+8*int(p.h))
					g.m.rotateHalf(b, b, t.b, p.h)
				}
				d := g.regs.get()
				g.m.mulP8(d, a, b, p.h)
				if a != x {
					g.regs.put(a)
				}
				g.regs.put(b)
				if sum < 0 {
					sum = d
				} else {
					g.m.xor(sum, sum, d)
					g.regs.put(d)
				}
			}
		}
		if part > 0 {
			g.m.foldTops(part, sum)
			g.m.rotUp(sum, part)
		}
		if result < 0 {
			result = sum
		} else {
			g.m.xor(result, result, sum)
			g.regs.put(sum)
		}
	}
	for _, p := range acc.pending {
		m.uses[p.a.regs[0]]--
		m.maybeFree(g, p.a.regs[0])
	}
	acc.pending = nil
	return result
}

func (m *neon8) timesG(g *gen, x vreg) vreg { return g.m.timesG8(x) }
