package main

import (
	. "github.com/simdhash/simdhash/gen/internal/arm64"
)

// pmull64 multiplies with the 64x64->128-bit PMULL of the ARMv8 Crypto
// Extensions: one instruction per product (PMULL on doubleword 0, PMULL2 on
// doubleword 1). A key operand is one vector; all of them stay in registers.
type pmull64 struct {
	ways int // partial sums per accumulator (see product)

	keys map[int]VReg // resident key operands by slot
	g    VReg         // [g, g], g = x^7 + x^2 + x + 1
}

func (m *pmull64) keyVectors() int { return 1 }

func (m *pmull64) keyDoc() string { return "the two 64-bit halves as they are" }

func (m *pmull64) setup(g *gen, slots []int) {
	f := g.f
	f.Comment("Load the key operands used below; they stay in registers.")
	m.keys = map[int]VReg{}
	for _, s := range slots {
		r := g.regs.get()
		f.LDRQ(g.key.At(16*s), r)
		m.keys[s] = r
	}
	m.g = g.regs.get()
	f.MOVDConst(0x87, g.tmp)
	f.VDUPR(g.tmp, m.g.D2())
}

func (m *pmull64) key(g *gen, slot int) operand {
	return operand{regs: []VReg{m.keys[slot]}, resident: true}
}

func (m *pmull64) data(g *gen, x VReg) operand { return operand{regs: []VReg{x}} }

func (m *pmull64) mulAdd(g *gen, acc *product, a, k operand, h half) {
	d := g.regs.get()
	if h == lo {
		g.f.VPMULL(k.regs[0].D1(), a.regs[0].D1(), d.Q1())
	} else {
		g.f.VPMULL2(k.regs[0].D2(), a.regs[0].D2(), d.Q1())
	}
	acc.ways = m.ways
	acc.add(g, 0, d)
}

func (m *pmull64) finish(g *gen, acc *product) VReg { return acc.part(g, 0) }

func (m *pmull64) timesG(g *gen, x VReg) VReg {
	d := g.regs.get()
	g.f.VPMULL2(m.g.D2(), x.D2(), d.Q1())
	return d
}
