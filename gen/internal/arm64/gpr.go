package arm64

import (
	"fmt"

	"github.com/simdhash/simdhash/gen/internal/armemit"
)

// The 32-bit general-register instructions of the SHA-1 rounds: the ALU in
// register form with a shifted second operand, rotates, and word loads and
// stores (also from the stack, RSP).

// The special registers: ZR reads as zero (as the second source of a
// logical instruction, it makes ORRW R1@>27, ZR, R2 a rotate into R2), and
// RSP, the hardware stack pointer, is a base for memory operands. Their
// values lie outside R0–R31's numbering.
const (
	ZR  Reg = 64 + iota // zero register: ZR (GNU: wzr, xzr)
	RSP                 // stack pointer: RSP (GNU: sp), only as a memory base
)

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

// name returns r's Go name and its GNU name as a 32-bit (w) or 64-bit (x)
// register.
func (r Reg) name(wide bool) (goName, gnuName string) {
	switch r {
	case ZR:
		if wide {
			return r.String(), "xzr"
		}
		return r.String(), "wzr"
	case RSP:
		return r.String(), "sp"
	}
	r.check()
	if wide {
		return r.String(), fmt.Sprintf("x%d", r)
	}
	return r.String(), fmt.Sprintf("w%d", r)
}

// checkBase panics unless r may address memory: R0–R25 but R18, or RSP.
func (r Reg) checkBase() {
	if r != RSP {
		r.check()
	}
}

// texts returns the Go and GNU forms of a second operand of size bits.
func texts(s Shifted, op string, bits int) (goText, gnuText string) {
	g, u := s.Reg.name(bits == 64)
	if s.N == 0 && s.Kind == armemit.LSL {
		return g, u
	}
	need(s.Reg != ZR, "%s: a shifted ZR", op)
	need(s.N >= 0 && s.N < bits, "%s: shift %d out of range 0..%d", op, s.N, bits-1)
	return fmt.Sprintf("%s%s%d", g, s.Kind.GoOp(), s.N), fmt.Sprintf("%s, %s #%d", u, s.Kind.GNU(), s.N)
}

// alu appends d = n op m, with Go opcode goOp (ADDW, EORW, ...), on 32-bit
// registers (or 64-bit when bits is 64). n may be ZR for the logical
// instructions.
func (f *Func) alu(goOp, gnuOp string, bits int, m Operand2, n, d Reg) {
	s := m.Operand()
	mg, mu := texts(s, goOp, bits)
	ng, nu := n.name(bits == 64)
	dg, du := d.name(bits == 64)
	need(d != ZR && d != RSP && n != RSP && s.Reg != RSP, "%s: RSP or ZR where a register is needed", goOp)
	in := []string{}
	for _, r := range []Reg{n, s.Reg} {
		if r != ZR {
			in = append(in, r.String())
		}
	}
	f.scalar(goOp, []string{mg, ng, dg}, fmt.Sprintf("%s %s, %s, %s", gnuOp, du, nu, mu)).rw(in, d.String())
}

func (f *Func) arith(goOp, gnuOp string, bits int, m Operand2, n, d Reg) {
	s := m.Operand()
	need(s.Kind != armemit.ROR, "%s: ADD and SUB take no rotated operand", goOp)
	need(n != ZR && s.Reg != ZR, "%s: ZR is the stack pointer's number in ADD and SUB; not allowed here", goOp)
	f.alu(goOp, gnuOp, bits, m, n, d)
}

// ADDW sets d = n + m (32-bit; m may be shifted by LSL or LSR).
func (f *Func) ADDW(m Operand2, n, d Reg) { f.arith("ADDW", "add", 32, m, n, d) }

// ADDReg sets d = n + m on 64-bit registers (m may be shifted by LSL or
// LSR): with m = R1>>32, the low word of d is n's plus the high word of R1.
func (f *Func) ADDReg(m Operand2, n, d Reg) { f.arith("ADD", "add", 64, m, n, d) }

// EORW sets d = n ^ m (32-bit; n may be ZR).
func (f *Func) EORW(m Operand2, n, d Reg) { f.alu("EORW", "eor", 32, m, n, d) }

// ANDW sets d = n & m (32-bit).
func (f *Func) ANDW(m Operand2, n, d Reg) { f.alu("ANDW", "and", 32, m, n, d) }

// BICW sets d = n &^ m (32-bit).
func (f *Func) BICW(m Operand2, n, d Reg) { f.alu("BICW", "bic", 32, m, n, d) }

// ORRW sets d = n | m (32-bit; with n = ZR and m rotated, a rotate into d).
func (f *Func) ORRW(m Operand2, n, d Reg) { f.alu("ORRW", "orr", 32, m, n, d) }

// RORW sets d = n rotated right by imm bits (32-bit; GNU ror, an alias of
// EXTR).
func (f *Func) RORW(imm int, n, d Reg) {
	need(imm > 0 && imm < 32, "RORW: rotation %d out of range 1..31", imm)
	_, nu := n.name(false)
	_, du := d.name(false)
	need(n != ZR && d != ZR && n != RSP && d != RSP, "RORW: RSP or ZR")
	f.scalar("RORW", []string{fmt.Sprintf("$%d", imm), n.String(), d.String()},
		fmt.Sprintf("ror %s, %s, #%d", du, nu, imm)).rw(rs(n), rs(d)...)
}

// MOVWReg copies the low word of s to d, zeroing d's high word (Go:
// MOVWU Rs, Rd; GNU: mov wd, ws).
func (f *Func) MOVWReg(s, d Reg) {
	_, su := s.name(false)
	_, du := d.name(false)
	f.scalar("MOVWU", []string{s.String(), d.String()}, fmt.Sprintf("mov %s, %s", du, su)).rw(rs(s), rs(d)...)
}

// CMPReg compares n with m (64-bit), setting the flags for a following
// conditional branch: CMP Rm, Rn.
func (f *Func) CMPReg(m, n Reg) {
	m.check()
	n.check()
	f.scalar("CMP", []string{m.String(), n.String()}, fmt.Sprintf("cmp x%d, x%d", n, m)).rw(rs(m, n), "flags")
}

// memRes names what a load or store of size bytes at m touches, for the
// scheduler (armemit.MemRes): "mem", or the stack words of an RSP-based m.
func memRes(m Mem, size int) []string { return armemit.MemRes(m.Base == RSP, m.Off, size) }

// loadStoreOffset checks the unsigned, scaled 12-bit offset of a load or
// store of size bytes, of a general or a vector register.
func loadStoreOffset(op string, size int, m Mem) {
	m.Base.checkBase()
	need(m.Off >= 0 && m.Off%size == 0 && m.Off < 4096*size, "%s: offset %d is not a multiple of %d in 0..%d", op, m.Off, size, 4095*size)
}

// LDRW loads the 32-bit word at m into d, zeroing its high word (Go:
// MOVWU off(Rn), Rd).
func (f *Func) LDRW(m Mem, d Reg) { f.load("LDRW", "MOVWU", 4, m, d) }

// LDR loads the 64-bit word at m into d (Go: MOVD off(Rn), Rd).
func (f *Func) LDR(m Mem, d Reg) { f.load("LDR", "MOVD", 8, m, d) }

// load appends the load of the word of size bytes (4 or 8) at m into d.
func (f *Func) load(op, goOp string, size int, m Mem, d Reg) {
	loadStoreOffset(op, size, m)
	_, du := d.name(size == 8)
	f.scalar(goOp, []string{m.goText(), d.String()}, fmt.Sprintf("ldr %s, %s", du, m.gnuText())).
		rw(append(rs(m.Base), memRes(m, size)...), rs(d)...).Latency = loadLatency
}

// LDPW loads the 32-bit words at m and m+4 into d1 and d2 (Go: LDPW
// off(Rn), (R1, R2)).
func (f *Func) LDPW(m Mem, d1, d2 Reg) { f.loadPair("LDPW", 4, m, d1, d2) }

// LDP loads the 64-bit words at m and m+8 into d1 and d2 (Go: LDP
// off(Rn), (R1, R2)).
func (f *Func) LDP(m Mem, d1, d2 Reg) { f.loadPair("LDP", 8, m, d1, d2) }

// loadPair appends the load of the two words of size bytes (4 or 8) at m
// into d1 and d2; the offset is a signed, scaled 7-bit one.
func (f *Func) loadPair(goOp string, size int, m Mem, d1, d2 Reg) {
	m.Base.checkBase()
	need(m.Off%size == 0 && m.Off >= -64*size && m.Off <= 63*size, "%s: offset %d is not a multiple of %d in %d..%d", goOp, m.Off, size, -64*size, 63*size)
	need(d1 != d2, "%s: both destinations are %v", goOp, d1)
	_, u1 := d1.name(size == 8)
	_, u2 := d2.name(size == 8)
	f.scalar(goOp, []string{m.goText(), fmt.Sprintf("(%v, %v)", d1, d2)}, fmt.Sprintf("ldp %s, %s, %s", u1, u2, m.gnuText())).
		rw(append(rs(m.Base), memRes(m, 2*size)...), rs(d1, d2)...).Latency = loadLatency
}

// STRW stores the low word of s at m (Go: MOVW Rs, off(Rn)).
func (f *Func) STRW(s Reg, m Mem) {
	loadStoreOffset("STRW", 4, m)
	_, su := s.name(false)
	f.scalar("MOVW", []string{s.String(), m.goText()}, fmt.Sprintf("str %s, %s", su, m.gnuText())).
		rw(append(rs(s, m.Base), memRes(m, 4)...), memRes(m, 4)...)
}

// loadLatency is the scheduler's delay from a load to the use of its
// result.
const loadLatency = 4
