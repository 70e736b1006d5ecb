package sha1ce

import (
	"github.com/simdhash/simdhash/gen/internal/arm32"
	"github.com/simdhash/simdhash/gen/internal/armemit"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// a32 is the 32-bit ARM machine: blockCE of sha1block_ce_arm.s. Register
// vec n is Qn.
type a32 struct {
	f *arm32.Func
	k *arm32.Global // the round constants (sha1arm.KTable)
}

const (
	a32H = arm32.R0 // h
	a32P = arm32.R1 // the block pointer
	a32N = arm32.R2 // the bytes of whole blocks not yet counted
	a32K = arm32.R3 // the address of the round constants
)

func q32(x vec) arm32.QReg { return arm32.Q(int(x)) }

func (m *a32) comment(lines ...string) { m.f.Comment(lines...) }
func (m *a32) label(name string)       { m.f.Label(name) }

func (m *a32) loadArgs(none string) {
	f := m.f
	f.LoadArg(f.Arg("h"), a32H)
	f.LoadArg(f.Arg("p").Base(), a32P)
	f.LoadArg(f.Arg("p").Len(), a32N)
	f.BIC(63, a32N, a32N) // whole blocks only
	f.CMP(0, a32N)
	f.BEQ(none)
}

// loadState loads a..d with VLD1 (the bytes of little-endian words, in
// order) and e with the 32-bit VLDR, which needs e to be one of Q0-Q7. Its
// 16 registers hold one stream only (Options.check), so s is 0.
func (m *a32) loadState(_ int, x, e vec) {
	m.f.VLD1(a32H, arm32.NoUpdate, arm32.Regs(q32(x)))
	m.f.VLDR32(a32H, 16, q32(e))
}

func (m *a32) storeState(_ int, x, e vec) {
	m.f.VST1(arm32.Regs(q32(x)), a32H, arm32.NoUpdate)
	m.f.VSTR32(q32(e), a32H, 16)
}

// loadK loads the table in two VLD1, which take at most four D registers.
func (m *a32) loadK(ks [4]vec) {
	m.f.LoadAddr(m.k, a32K)
	m.f.VLD1(a32K, arm32.Advance, arm32.Regs(q32(ks[0]), q32(ks[1])))
	m.f.VLD1(a32K, arm32.NoUpdate, arm32.Regs(q32(ks[2]), q32(ks[3])))
}

// loadBlock loads the 64 bytes with two VLD1, each advancing the pointer,
// and reverses the bytes of each word.
func (m *a32) loadBlock(_ int, ws [4]vec) {
	m.f.VLD1(a32P, arm32.Advance, arm32.Regs(q32(ws[0]), q32(ws[1])))
	m.f.VLD1(a32P, arm32.Advance, arm32.Regs(q32(ws[2]), q32(ws[3])))
	for _, w := range ws {
		m.f.VREV32(8, q32(w), q32(w))
	}
}

func (m *a32) nextBlock() {
	m.f.SUBS(64, a32N, a32N)
	m.f.SUBIf(armemit.EQ, 64, a32P, a32P)
}

func (m *a32) exitIfLast(label string) { m.f.BEQ(label) }
func (m *a32) loopBack(label string)   { m.f.BNE(label) }
func (m *a32) ret()                    { m.f.RET() }

func (m *a32) copy(d, s vec)    { m.f.VMOV(q32(s), q32(d)) }
func (m *a32) add(d, n, mm vec) { m.f.VADD(32, q32(mm), q32(n), q32(d)) }

func (m *a32) rounds(fn sha1sched.Func, x, e, wk vec) {
	ops := [...]func(m, n, d arm32.QReg){sha1sched.FCh: m.f.SHA1C, sha1sched.FParity: m.f.SHA1P, sha1sched.FMaj: m.f.SHA1M}
	ops[fn](q32(wk), q32(e), q32(x))
}

func (m *a32) hashE(d, x vec) { m.f.SHA1H(q32(x), q32(d)) }

func (m *a32) scheduleStart(d, n, mm vec) { m.f.SHA1SU0(q32(mm), q32(n), q32(d)) }

func (m *a32) scheduleEnd(d, n vec) { m.f.SHA1SU1(q32(n), q32(d)) }

func (m *a32) retire(int, vec, vec) {}
