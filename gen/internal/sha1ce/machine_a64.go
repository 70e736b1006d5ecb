package sha1ce

import (
	"github.com/simdhash/simdhash/gen/internal/arm64"
	"github.com/simdhash/simdhash/gen/internal/armemit"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// a64 is the AArch64 machine: blockCE of sha1block_ce_arm64.s. Register vec
// n is Vn.
type a64 struct {
	f       *arm64.Func
	k       *arm64.Global // the round constants (sha1arm.KTable)
	streams int
}

const (
	a64H    = arm64.R0 // h
	a64N    = arm64.R2 // the bytes of whole blocks (of several streams: the blocks) not yet counted
	a64Back = arm64.R4 // a block pointer moved back
	a64K    = arm64.R3 // the address of the round constants
)

// a64P is stream s's block pointer: R1, then R5 and up.
func a64P(s int) arm64.Reg { return [...]arm64.Reg{arm64.R1, arm64.R5, arm64.R6, arm64.R7}[s] }

func v64(x vec) arm64.VReg { return arm64.V(int(x)) }

func (m *a64) comment(lines ...string) { m.f.Comment(lines...) }
func (m *a64) label(name string)       { m.f.Label(name) }

func (m *a64) loadArgs(none string) {
	f := m.f
	f.LoadArg(f.Arg("h"), a64H)
	if m.streams > 1 {
		f.LoadArg(f.Arg("p"), a64Back)
		for s := range m.streams {
			f.LDR(a64Back.At(8*s), a64P(s))
		}
		f.LoadArg(f.Arg("n"), a64N)
		f.CBZ(a64N, none)
		return
	}
	f.LoadArg(f.Arg("p").Base(), a64P(0))
	f.LoadArg(f.Arg("p").Len(), a64N)
	f.ANDMask(^uint64(63), a64N, a64N) // whole blocks only
	f.CBZ(a64N, none)
}

// loadState loads stream s's state; h of a stream past the first is
// addressed through a64Back.
func (m *a64) loadState(s int, x, e vec) {
	h := m.h(s)
	m.f.VLD1(h, v64(x).S4())
	m.f.LDRS(h.At(16), v64(e))
}

func (m *a64) storeState(s int, x, e vec) {
	h := m.h(s)
	m.f.VST1(h, v64(x).S4())
	m.f.STRS(v64(e), h.At(16))
}

// h returns the register that addresses stream s's state.
func (m *a64) h(s int) arm64.Reg {
	if s == 0 {
		return a64H
	}
	m.f.ADD(20*s, a64H, a64Back)
	return a64Back
}

func (m *a64) loadK(ks [4]vec) {
	m.f.LoadAddr(m.k, a64K)
	m.f.VLD1(a64K, v64(ks[0]).S4(), v64(ks[1]).S4(), v64(ks[2]).S4(), v64(ks[3]).S4())
}

// loadBlock loads the 64 bytes with four LDR Q, which the Cortex-A55
// issues one per cycle where a VLD1 of four registers takes eight, and
// which the scheduler can each place as soon as its register is free (the
// last one advances the pointer); then it reverses the bytes of each word.
func (m *a64) loadBlock(s int, ws [4]vec) {
	p := a64P(s)
	for j := 1; j < 4; j++ {
		m.f.LDRQ(p.At(16*j), v64(ws[j]))
	}
	m.f.LDRQP(p.At(64), v64(ws[0]))
	for _, w := range ws {
		m.f.VREV32(v64(w).B16(), v64(w).B16())
	}
}

func (m *a64) nextBlock() {
	if m.streams > 1 {
		m.f.SUBS(1, a64N, a64N)
	} else {
		m.f.SUBS(64, a64N, a64N)
	}
	for s := range m.streams {
		m.f.SUB(64, a64P(s), a64Back)
		m.f.CSEL(armemit.EQ, a64Back, a64P(s), a64P(s))
	}
}

func (m *a64) exitIfLast(label string) { m.f.BEQ(label) }
func (m *a64) loopBack(label string)   { m.f.BNE(label) }
func (m *a64) ret()                    { m.f.RET() }

func (m *a64) copy(d, s vec)    { m.f.VMOV(v64(s).B16(), v64(d).B16()) }
func (m *a64) add(d, n, mm vec) { m.f.VADD(v64(mm).S4(), v64(n).S4(), v64(d).S4()) }

func (m *a64) rounds(fn sha1sched.Func, x, e, wk vec) {
	ops := [...]func(wk arm64.Vec, e, abcd arm64.VReg){sha1sched.FCh: m.f.SHA1C, sha1sched.FParity: m.f.SHA1P, sha1sched.FMaj: m.f.SHA1M}
	ops[fn](v64(wk).S4(), v64(e), v64(x))
}

func (m *a64) hashE(d, x vec) { m.f.SHA1H(v64(x), v64(d)) }

func (m *a64) scheduleStart(d, n, mm vec) {
	m.f.SHA1SU0(v64(mm).S4(), v64(n).S4(), v64(d).S4())
}

func (m *a64) scheduleEnd(d, n vec) { m.f.SHA1SU1(v64(n).S4(), v64(d).S4()) }

func (m *a64) retire(int, vec, vec) {}
