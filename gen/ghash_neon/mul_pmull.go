package main

// pmull64 multiplies with the 64x64->128-bit polynomial multiply of the
// ARMv8 Crypto Extensions: one instruction per product (PMULL and PMULL2
// on arm64, VMULL.P64 on arm). A key operand is one vector; on a machine
// with enough registers all of them stay in registers, otherwise each is
// loaded where it is used.
type pmull64 struct {
	ways     int  // partial sums per accumulator (see product)
	resident bool // keep the key operands in registers

	keys map[int]vreg // resident key operands by slot
}

func (m *pmull64) keyVectors() int { return 1 }

func (m *pmull64) keyDoc() string { return "the two 64-bit halves as they are" }

func (m *pmull64) setup(g *gen, slots []int) {
	m.keys = map[int]vreg{}
	if m.resident {
		g.m.Comment("Load the key operands used below; they stay in registers.")
		for _, s := range slots {
			r := g.regs.get()
			g.m.loadKey(r, g.key, 16*s)
			m.keys[s] = r
		}
	}
	g.m.setupP64()
}

func (m *pmull64) key(g *gen, slot int) operand {
	if r, ok := m.keys[slot]; ok {
		return operand{regs: []vreg{r}, resident: true, slot: slot}
	}
	r := g.regs.get()
	g.m.loadKey(r, g.key, 16*slot)
	return operand{regs: []vreg{r}, slot: slot}
}

func (m *pmull64) data(g *gen, x vreg) operand { return operand{regs: []vreg{x}} }

func (m *pmull64) mulAdd(g *gen, acc *product, a, k operand, h half) {
	d := g.regs.get()
	g.m.mulP64(d, a.regs[0], k.regs[0], h)
	acc.ways = m.ways
	acc.add(g, 0, d)
}

func (m *pmull64) release(g *gen, o operand) { g.freeOperand(o) }

func (m *pmull64) finish(g *gen, acc *product) vreg { return acc.part(g, 0) }

func (m *pmull64) timesG(g *gen, x vreg) vreg { return g.m.timesG64(x) }
