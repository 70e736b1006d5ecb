package sha1arm

import . "github.com/simdhash/simdhash/gen/internal/arm64"

// a64 is the AArch64 machine: one function of the arm64 file. The W+K
// ring is in V25-V28 with -wk fmov (the default), else its local frame:
// 64 bytes from 16(RSP). The frame is reserved in both cases (under
// -wk fmov, unused). NEON stores each
// 16-byte slot with ST1 through a register that holds its address (on the
// Cortex-A57, ST1 is two micro-ops where STR Q with an offset is three).
type a64 struct {
	f     *Func
	ktab  *Global
	slots [4]greg // the addresses of the ring's 16-byte slots (prologue)
}

const a64Ring = 16

// a64Frame is the local frame: the locals are at 8(RSP)..8+a64Frame(RSP)
// (above the saved link register), and the ring at 16..79(RSP).
const a64Frame = 80

func x(r greg) Reg   { return Reg(r) }
func vv(r vreg) VReg { return V(int(r)) }

func (m *a64) comment(lines ...string)          { m.f.Comment(lines...) }
func (m *a64) label(name string)                { m.f.Label(name) }
func (m *a64) jump(label string)                { m.f.B(label) }
func (m *a64) ret()                             { m.f.RET() }
func (m *a64) schedule(o Order)                 { schedule(m.f.Func, o) }
func (m *a64) gnu(start string) (string, error) { return m.f.GNU(start) }

func (m *a64) loadH(d greg) { m.f.LoadArg(m.f.Arg("h"), x(d)) }

func (m *a64) blocks(ptr, end greg, label string) {
	f := m.f
	f.LoadArg(f.Arg("p").Base(), x(ptr))
	f.LoadArg(f.Arg("p").Len(), x(end))
	f.ANDMask(^uint64(63), x(end), x(end))
	f.CBZ(x(end), label)
	f.ADDReg(x(ptr), x(end), x(end))
}

// advance moves ptr to the next block: the loads address the block by
// offsets from ptr.
func (m *a64) advance(ptr, end greg, label string) {
	m.f.ADD(64, x(ptr), x(ptr))
	m.f.CMPReg(x(end), x(ptr))
	m.f.BHS(label)
}

func (m *a64) prologue() {
	for i, r := range m.slots {
		m.f.ADD(a64Ring+16*i, RSP, x(r))
	}
}

func (m *a64) alu(op aluOp, mm greg, sh shift, n, d greg) {
	ops := [...]func(Operand2, Reg, Reg){opAdd: m.f.ADDW, opEor: m.f.EORW, opAnd: m.f.ANDW, opBic: m.f.BICW, opOrr: m.f.ORRW}
	ops[op](Shifted{Reg: x(mm), Kind: sh.kind, N: sh.n}, x(n), x(d))
}

func (m *a64) addRotates() bool { return false }

func (m *a64) rotate(how rotateHow, k int, n, d greg) {
	if how == rotateORR {
		m.f.ORRW(x(n).ROR(k), ZR, x(d))
		return
	}
	m.f.RORW(k, x(n), x(d))
}

func (m *a64) addHigh(xr, n, d greg) { m.f.ADDReg(x(xr).LSR(32), x(n), x(d)) }
func (m *a64) mov(s, d greg)         { m.f.MOVWReg(x(s), x(d)) }

func (m *a64) load(base greg, off int, d greg) { m.f.LDRW(x(base).At(off), x(d)) }
func (m *a64) store(s, base greg, off int)     { m.f.STRW(x(s), x(base).At(off)) }

func (m *a64) storeRing(s vreg, off int) { m.f.VST1Stack(x(m.slots[off/16]), a64Ring+off, vv(s).S4()) }

func (m *a64) loadRing(l Loads, off int, d [2]greg) {
	at := RSP.At(a64Ring + off)
	switch l {
	case LoadsW:
		m.f.LDRW(at, x(d[0]))
	case LoadsPair:
		m.f.LDPW(at, x(d[0]), x(d[1]))
	case LoadsX:
		m.f.LDR(at, x(d[0]))
	case LoadsPairX:
		m.f.LDP(at, x(d[0]), x(d[1]))
	}
}

func (m *a64) moveRing(s vreg, half int, d greg) { m.f.FMOVX(vv(s), half, x(d)) }

func (m *a64) loadBlock(ptr greg, g int, d vreg) { m.f.LDRQ(x(ptr).At(16*g), vv(d)) }
func (m *a64) rev32(s, d vreg)                   { m.f.VREV32(vv(s).B16(), vv(d).B16()) }
func (m *a64) eor(mm, n, d vreg)                 { m.f.VEOR(vv(mm).B16(), vv(n).B16(), vv(d).B16()) }
func (m *a64) ext(imm int, mm, n, d vreg) {
	m.f.VEXT(imm, vv(mm).B16(), vv(n).B16(), vv(d).B16())
}
func (m *a64) shl(k int, s, d vreg)  { m.f.VSHL(k, vv(s).S4(), vv(d).S4()) }
func (m *a64) sri(k int, s, d vreg)  { m.f.VSRI(k, vv(s).S4(), vv(d).S4()) }
func (m *a64) usra(k int, s, d vreg) { m.f.VUSRA(k, vv(s).S4(), vv(d).S4()) }
func (m *a64) add32(mm, n, d vreg)   { m.f.VADD(vv(mm).S4(), vv(n).S4(), vv(d).S4()) }
func (m *a64) zero(d vreg)           { m.f.VMOVI(0, vv(d).B16()) }

func (m *a64) loadK(addr greg, ks [4]vreg) {
	m.f.LoadAddr(m.ktab, x(addr))
	m.f.VLD1(x(addr), vv(ks[0]).S4(), vv(ks[1]).S4(), vv(ks[2]).S4(), vv(ks[3]).S4())
}
