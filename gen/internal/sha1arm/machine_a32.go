package sha1arm

import . "github.com/simdhash/simdhash/gen/internal/arm32"

// a32 is the machine of 32-bit ARM with NEON: one function of the arm
// file. Its local frame holds the W+K ring, 64 bytes from 4(R13) (above
// the saved link register), which NEON stores as two 8-byte halves (VSTR),
// whose offsets from SP need only be multiples of 4, as the stack is
// 4-byte aligned; and h's address, which the loop reloads from there (an
// argument load has no GNU form for llvm-mca).
type a32 struct {
	f      *Func
	ktab   *Global
	hSaved bool // h's address is in its stack slot
}

const (
	a32Ring  = 4
	a32H     = a32Ring + 64
	a32Frame = a32H
)

func r32(r greg) Reg  { return Reg(r) }
func q32(r vreg) QReg { return Q(int(r)) }

func (m *a32) comment(lines ...string)          { m.f.Comment(lines...) }
func (m *a32) label(name string)                { m.f.Label(name) }
func (m *a32) jump(label string)                { m.f.B(label) }
func (m *a32) ret()                             { m.f.RET() }
func (m *a32) schedule(o Order)                 { schedule(m.f.Func, o) }
func (m *a32) gnu(start string) (string, error) { return m.f.GNU(start) }

// loadH loads h's address: the first time from the argument, which it
// keeps in the frame, and from the frame afterwards.
func (m *a32) loadH(d greg) {
	if m.hSaved {
		m.f.LDR(SP, a32H, r32(d))
		return
	}
	m.f.LoadArg(m.f.Arg("h"), r32(d))
	m.f.STR(r32(d), SP, a32H)
	m.hSaved = true
}

func (m *a32) blocks(ptr, end greg, label string) {
	f := m.f
	f.LoadArg(f.Arg("p").Base(), r32(ptr))
	f.LoadArg(f.Arg("p").Len(), r32(end))
	f.BIC(63, r32(end), r32(end))
	f.CMP(0, r32(end))
	f.BEQ(label)
	f.ADD(r32(ptr), r32(end), r32(end))
}

// advance only compares: the loads have moved ptr to the next block.
func (m *a32) advance(ptr, end greg, label string) {
	m.f.CMPReg(r32(end), r32(ptr))
	m.f.BHS(label)
}

func (m *a32) prologue() {}

func (m *a32) alu(op aluOp, mm greg, sh shift, n, d greg) {
	ops := [...]func(Operand2, Reg, Reg){opAdd: m.f.ADD, opEor: m.f.EOR, opAnd: m.f.AND, opBic: m.f.BICReg, opOrr: m.f.ORR}
	ops[op](Shifted{Reg: r32(mm), Kind: sh.kind, N: sh.n}, r32(n), r32(d))
}

func (m *a32) addRotates() bool { return true }

// rotate is a MOVW of the rotated register, whichever how.
func (m *a32) rotate(how rotateHow, k int, n, d greg) { m.f.MOVW(r32(n).ROR(k), r32(d)) }

func (m *a32) addHigh(xr, n, d greg) { panic("sha1arm: 32-bit ARM has no 64-bit registers") }
func (m *a32) mov(s, d greg)         { m.f.MOVW(r32(s), r32(d)) }

func (m *a32) load(base greg, off int, d greg) { m.f.LDR(r32(base), off, r32(d)) }
func (m *a32) store(s, base greg, off int)     { m.f.STR(r32(s), r32(base), off) }

func (m *a32) storeRing(s vreg, off int) {
	m.f.VSTR(q32(s).Lo(), SP, a32Ring+off)
	m.f.VSTR(q32(s).Hi(), SP, a32Ring+off+8)
}

func (m *a32) loadRing(l Loads, off int, d [2]greg) {
	if l != LoadsW {
		panic("sha1arm: 32-bit ARM loads one W+K word at a time")
	}
	m.f.LDR(SP, a32Ring+off, r32(d[0]))
}

func (m *a32) loadBlock(ptr greg, g int, d vreg) { m.f.VLD1(r32(ptr), Advance, Regs(q32(d))) }
func (m *a32) rev32(s, d vreg)                   { m.f.VREV32(8, q32(s), q32(d)) }
func (m *a32) eor(mm, n, d vreg)                 { m.f.VEOR(q32(mm), q32(n), q32(d)) }
func (m *a32) ext(imm int, mm, n, d vreg)        { m.f.VEXT(imm, q32(mm), q32(n), q32(d)) }
func (m *a32) shl(k int, s, d vreg)              { m.f.VSHL(32, k, q32(s), q32(d)) }
func (m *a32) sri(k int, s, d vreg)              { m.f.VSRI(32, k, q32(s), q32(d)) }
func (m *a32) usra(k int, s, d vreg)             { m.f.VSRA(32, k, q32(s), q32(d)) }
func (m *a32) add32(mm, n, d vreg)               { m.f.VADD(32, q32(mm), q32(n), q32(d)) }
func (m *a32) zero(d vreg)                       { m.f.VMOVI8(0, q32(d)) }

func (m *a32) loadK(addr greg, ks [4]vreg) {
	m.f.LoadAddr(m.ktab, r32(addr))
	m.f.VLD1(r32(addr), Advance, Regs(q32(ks[0]), q32(ks[1])))
	m.f.VLD1(r32(addr), NoUpdate, Regs(q32(ks[2]), q32(ks[3])))
}
