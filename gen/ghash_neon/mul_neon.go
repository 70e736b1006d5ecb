package main

import (
	"fmt"

	. "github.com/simdhash/simdhash/gen/internal/arm64"
)

// neon8 multiplies 64-bit polynomials with the 8x8->16-bit polynomial
// multiply that every Advanced SIMD unit has (PMULL.8H, and PMULL2.8H on
// the high half), after D. Câmara, C. P. L. Gouvêa, J. López and R. Dahab,
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
// Both halves of a vector are used: PMULL works on bytes 0-7 and PMULL2 on
// bytes 8-15, so a key operand [b_lo, b_hi] serves the lo and the hi
// Karatsuba products of a block. The rotations of the data, A_1..A_3, must
// rotate each half on its own, which EXT (a 16-byte rotation) cannot do:
// TBL with a constant index vector does it. The rotations of the key,
// B_1..B_4, are precomputed in Go (unless prerotated is false, which
// computes them in the loop with TBL, for comparison).
//
// The reduction's multiply by g = 0x87 uses the same instruction with g in
// every byte: PMULL2 gives a_i·g in lane i, whose low bytes (UZP1) and high
// bytes (UZP2, moved up one byte) add up to a·g.
type neon8 struct {
	prerotated bool
	rot        *Global // TBL index vectors rotating each half by 1..4 bytes

	idx  [5]VReg // idx[k] rotates each half by k bytes (k = 1..3, and 4 when !prerotated)
	mask [4]VReg // mask[k]: the top 16k bits of each doubleword (k = 1..3)
	g    VReg    // 0x87 in every byte
	zero VReg
}

// keyRotations is the number of rotations of a key half kept: B_0..B_4.
const keyRotations = 5

func (m *neon8) keyVectors() int { return keyRotations }

func (m *neon8) keyDoc() string {
	return "[b_lo, b_hi] rotated right by r = 0..4 bytes, each half on its own (byte i of B_r is byte i+r mod 8)"
}

// rotationTable is the DATA holding the TBL index vectors: for k = 1..4,
// byte j is 8*(j/8) + (j+k)%8.
func rotationTable(file *File) *Global {
	t := file.Data("ghashNeonRotations")
	for k := 1; k <= 4; k++ {
		for h := 0; h < 2; h++ {
			var w uint64
			for i := 0; i < 8; i++ {
				w |= uint64(8*h+(i+k)%8) << (8 * i)
			}
			t.U64(w)
		}
	}
	return t
}

func (m *neon8) setup(g *gen, slots []int) {
	f := g.f
	f.Comment("Constants: TBL indexes rotating each half, fix-up masks, 0x87 in every byte, zero.")
	f.LoadAddr(m.rot, g.tmp)
	last := 3
	if !m.prerotated {
		last = 4
	}
	for k := 1; k <= last; k++ {
		m.idx[k] = g.regs.get()
		f.VLD1P(g.tmp, m.idx[k].B16())
	}
	for k := 1; k <= 3; k++ {
		m.mask[k] = g.regs.get()
		f.VMOVI2D(^uint64(0)<<(64-16*k), m.mask[k])
	}
	m.g = g.regs.get()
	f.VMOVI(0x87, m.g.B16())
	m.zero = g.regs.get()
	f.VEOR(m.zero.B16(), m.zero.B16(), m.zero.B16())
}

func (m *neon8) key(g *gen, slot int) operand {
	f := g.f
	f.Comment(fmt.Sprintf("Key operand %d: B_0..B_4.", slot))
	regs := make([]VReg, keyRotations)
	at := func(r int) Mem { return g.key.At(16 * (keyRotations*slot + r)) }
	if m.prerotated {
		for r := range regs {
			regs[r] = g.regs.get()
			f.LDRQ(at(r), regs[r])
		}
		return operand{regs: regs}
	}
	regs[0] = g.regs.get()
	f.LDRQ(at(0), regs[0])
	for r := 1; r < keyRotations; r++ {
		regs[r] = g.regs.get()
		f.VTBL(m.idx[r].B16(), []Vec{regs[0].B16()}, regs[r].B16())
	}
	return operand{regs: regs}
}

func (m *neon8) data(g *gen, x VReg) operand {
	regs := []VReg{x}
	for k := 1; k <= 3; k++ {
		r := g.regs.get()
		g.f.VTBL(m.idx[k].B16(), []Vec{x.B16()}, r.B16())
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
	f := g.f
	// Issue the products in groups (as many as the free registers allow)
	// before adding them up, so that no addition waits on the product just
	// issued.
	pending := terms
	for len(pending) > 0 {
		n := len(g.regs.free) - 1
		if n > len(pending) {
			n = len(pending)
		}
		if n < 1 {
			n = 1
		}
		group := pending[:n]
		pending = pending[n:]
		var prods []VReg
		for _, t := range group {
			d := g.regs.get()
			if h == lo {
				f.VPMULL(k.regs[t.b].B8(), a.regs[t.a].B8(), d.H8())
			} else {
				f.VPMULL2(k.regs[t.b].B16(), a.regs[t.a].B16(), d.H8())
			}
			prods = append(prods, d)
		}
		for i, t := range group {
			acc.add(g, t.acc, prods[i])
		}
	}
}

func (m *neon8) finish(g *gen, acc *product) VReg {
	f := g.f
	d, l := acc.part(g, 0), []VReg{acc.part(g, 1), acc.part(g, 2), acc.part(g, 3), acc.part(g, 4)}
	t := make([]VReg, 4)
	f.Comment("Fix up L_1..L_4: move the wrapped top lanes 64 bits down.")
	for k := range l {
		t[k] = g.regs.get()
		f.VDUP(l[k].D(1), t[k].D2())
	}
	for k := 0; k < 3; k++ {
		f.VAND(m.mask[k+1].B16(), t[k].B16(), t[k].B16())
	}
	for k := range l {
		f.VEOR(t[k].B16(), l[k].B16(), l[k].B16())
	}
	g.regs.put(t...)
	f.Comment("a·b = D + L_1·x^8 + L_2·x^16 + L_3·x^24 + L_4·x^32.")
	for k := range l {
		f.VEXT(16-(k+1), l[k].B16(), l[k].B16(), l[k].B16())
	}
	for k := range l {
		f.VEOR(l[k].B16(), d.B16(), d.B16())
	}
	g.regs.put(l...)
	return d
}

func (m *neon8) timesG(g *gen, x VReg) VReg {
	f := g.f
	p, u, s := g.regs.get(), g.regs.get(), g.regs.get()
	f.VPMULL2(m.g.B16(), x.B16(), p.H8())   // lane i: byte 8+i of x times g
	f.VUZP1(m.zero.B16(), p.B16(), u.B16()) // low bytes of the products
	f.VUZP2(m.zero.B16(), p.B16(), s.B16()) // high bytes
	f.VEXT(15, s.B16(), m.zero.B16(), s.B16())
	f.VEOR(s.B16(), u.B16(), u.B16())
	g.regs.put(p, s)
	return u
}
