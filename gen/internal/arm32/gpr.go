package arm32

import (
	"fmt"

	"github.com/simdhash/simdhash/gen/internal/armemit"
)

// The general-register instructions of the SHA-1 rounds: data processing
// with a shifted register as the second operand (A32's "flexible second
// operand"), word loads and stores (also from the stack, SP), and a
// register compare. Go's assembler knows all of them: they are written in
// Go syntax, R1@>27 for r1, ror #27.

// Shifted is a register operand shifted by a constant: R1<<3, R1>>3,
// R1@>2. Make one with Reg.LSL, Reg.LSR or Reg.ROR.
type Shifted = armemit.Shifted[Reg]

// Operand2 is the second source of a data-processing instruction: a
// register (Reg) or a shifted register (Shifted).
type Operand2 = armemit.Operand2[Reg]

// Operand returns r, unshifted (Operand2).
func (r Reg) Operand() Shifted { return Shifted{Reg: r} }

// LSL is r shifted left by n bits.
func (r Reg) LSL(n int) Shifted { return Shifted{Reg: r, Kind: armemit.LSL, N: n} }

// LSR is r shifted right (logical) by n bits.
func (r Reg) LSR(n int) Shifted { return Shifted{Reg: r, Kind: armemit.LSR, N: n} }

// ROR is r rotated right by n bits.
func (r Reg) ROR(n int) Shifted { return Shifted{Reg: r, Kind: armemit.ROR, N: n} }

// texts returns the Go and GNU forms of s.
func texts(s Shifted, op string) (goText, gnuText string) {
	s.Reg.check()
	if s.N == 0 && s.Kind == armemit.LSL {
		return s.Reg.String(), s.Reg.gnuText()
	}
	need(s.N > 0 && s.N < 32, "%s: shift %d out of range 1..31", op, s.N)
	return fmt.Sprintf("%v%s%d", s.Reg, s.Kind.GoOp(), s.N), fmt.Sprintf("%s, %s #%d", s.Reg.gnuText(), s.Kind.GNU(), s.N)
}

func (f *Func) dataProc(goOp, gnuOp string, m Operand2, n, d Reg) {
	s := m.Operand()
	n.check()
	d.check()
	mg, mu := texts(s, goOp)
	f.scalar(goOp, []string{mg, n.String(), d.String()}, fmt.Sprintf("%s %s, %s, %s", gnuOp, d.gnuText(), n.gnuText(), mu), res(n, s.Reg), res(d))
}

// ADD sets d = n + m, m a register or a shifted register.
func (f *Func) ADD(m Operand2, n, d Reg) { f.dataProc("ADD", "add", m, n, d) }

// BICReg sets d = n &^ m (the register form of BIC, whose immediate form
// is BIC).
func (f *Func) BICReg(m Operand2, n, d Reg) { f.dataProc("BIC", "bic", m, n, d) }

// EOR sets d = n ^ m.
func (f *Func) EOR(m Operand2, n, d Reg) { f.dataProc("EOR", "eor", m, n, d) }

// AND sets d = n & m.
func (f *Func) AND(m Operand2, n, d Reg) { f.dataProc("AND", "and", m, n, d) }

// ORR sets d = n | m.
func (f *Func) ORR(m Operand2, n, d Reg) { f.dataProc("ORR", "orr", m, n, d) }

// CMPReg compares n with m, setting the flags for a following conditional
// branch: CMP Rm, Rn.
func (f *Func) CMPReg(m, n Reg) {
	m.check()
	n.check()
	f.scalar("CMP", []string{m.String(), n.String()}, fmt.Sprintf("cmp %s, %s", n.gnuText(), m.gnuText()), res(m, n), []string{"flags"})
}

// stackRes names what a load or store of size bytes at off(base) touches,
// for the scheduler (armemit.MemRes): "mem", or the stack words of an
// SP-based access.
func stackRes(base Reg, off, size int) []string { return armemit.MemRes(base == SP, off, size) }

// wordMem checks the load or store op of r at off(base) (off in 0..4095)
// and returns the address in Go and GNU syntax.
func wordMem(op string, base Reg, off int, r Reg) (goText, gnuText string) {
	base.checkBase()
	r.check()
	need(off >= 0 && off < 4096, "%s: offset %d out of range 0..4095", op, off)
	if off == 0 {
		return fmt.Sprintf("(%v)", base), fmt.Sprintf("[%s]", base.gnuText())
	}
	return fmt.Sprintf("%d(%v)", off, base), fmt.Sprintf("[%s, #%d]", base.gnuText(), off)
}

// LDR loads the word at off(base) into d (Go: MOVW off(Rn), Rd); off is
// in 0..4095.
func (f *Func) LDR(base Reg, off int, d Reg) {
	g, u := wordMem("LDR", base, off, d)
	f.scalar("MOVW", []string{g, d.String()}, fmt.Sprintf("ldr %s, %s", d.gnuText(), u),
		append(res(base), stackRes(base, off, 4)...), res(d)).Latency = 4
}

// STR stores s at off(base) (Go: MOVW Rs, off(Rn)); off is in 0..4095.
func (f *Func) STR(s Reg, base Reg, off int) {
	g, u := wordMem("STR", base, off, s)
	f.scalar("MOVW", []string{s.String(), g}, fmt.Sprintf("str %s, %s", s.gnuText(), u),
		append(res(s, base), stackRes(base, off, 4)...), stackRes(base, off, 4))
}

// VSTR stores the 8 bytes of d at off(base) (the VFP store; off is a
// multiple of 4 below 1024, and the address must be 4-byte aligned).
func (f *Func) VSTR(d DReg, base Reg, off int) {
	base.checkBase()
	need(off >= 0 && off < 1024 && off%4 == 0, "vstr: offset %d is not a multiple of 4 in 0..1020", off)
	f.neon("NEON", encVSTR|uint32(base)<<16|uint32(off/4)|fields(d.D(), 0, 0),
		fmt.Sprintf("vstr %v, [%s, #%d]", d, base.gnuText(), off), append(res(d, base), stackRes(base, off, 8)...), stackRes(base, off, 8))
}

// VSRA shifts each element of m right (logical) by imm and adds it to the
// element of d (vsra.u).
func (f *Func) VSRA(size, imm int, m, d Vec) {
	f.shift("vsra", "u", 1, 0x1, size, imm, m, d, true).In = res(d, m)
}
