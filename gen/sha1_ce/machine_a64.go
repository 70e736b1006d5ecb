package main

import (
	"fmt"

	"github.com/simdhash/simdhash/gen/internal/arm64"
	"github.com/simdhash/simdhash/gen/internal/emit"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// a64 is the AArch64 machine: blockCE of sha1block_ce_arm64.s. Register vec
// n is Vn.
type a64 struct {
	f *arm64.Func
	k *arm64.Global // the round constants (sha1arm.KTable)
}

const (
	a64H    = arm64.R0 // h
	a64P    = arm64.R1 // the block pointer
	a64N    = arm64.R2 // the bytes of whole blocks not yet counted
	a64Back = arm64.R4 // the block pointer moved back
	a64K    = arm64.R3 // the address of the round constants
)

func v64(x vec) arm64.VReg { return arm64.V(int(x)) }

func (m *a64) comment(lines ...string) { m.f.Comment(lines...) }
func (m *a64) label(name string)       { m.f.Label(name) }

func (m *a64) loadArgs(none string) {
	f := m.f
	f.LoadArg(f.Arg("h"), a64H)
	f.LoadArg(f.Arg("p").Base(), a64P)
	f.LoadArg(f.Arg("p").Len(), a64N)
	f.ANDMask(^uint64(63), a64N, a64N) // whole blocks only
	f.CBZ(a64N, none)
}

func (m *a64) loadState(x, e vec) {
	m.f.VLD1(a64H, v64(x).S4())
	m.f.LDRS(a64H.At(16), v64(e))
}

func (m *a64) storeState(x, e vec) {
	m.f.VST1(a64H, v64(x).S4())
	m.f.STRS(v64(e), a64H.At(16))
}

func (m *a64) loadK(ks [4]vec) {
	m.f.LoadAddr(m.k, a64K)
	m.f.VLD1(a64K, v64(ks[0]).S4(), v64(ks[1]).S4(), v64(ks[2]).S4(), v64(ks[3]).S4())
}

// loadBlock loads the 64 bytes with four LDR Q, which the Cortex-A55
// issues one per cycle where a VLD1 of four registers takes eight, and
// which the scheduler can each place as soon as its register is free (the
// last one advances the pointer); then it reverses the bytes of each word.
func (m *a64) loadBlock(ws [4]vec) {
	for j := 1; j < 4; j++ {
		m.f.LDRQ(a64P.At(16*j), v64(ws[j]))
	}
	m.f.LDRQP(a64P.At(64), v64(ws[0]))
	for _, w := range ws {
		m.f.VREV32(v64(w).B16(), v64(w).B16())
	}
}

func (m *a64) nextBlock() {
	m.f.SUBS(64, a64N, a64N)
	m.f.SUB(64, a64P, a64Back)
	m.f.CSEL(emit.EQ, a64Back, a64P, a64P)
}

func (m *a64) exitIfLast(label string) { m.f.BEQ(label) }
func (m *a64) loopBack(label string)   { m.f.BNE(label) }
func (m *a64) ret()                    { m.f.RET() }

func (m *a64) copy(d, s vec)    { m.f.VMOV(v64(s).B16(), v64(d).B16()) }
func (m *a64) add(d, n, mm vec) { m.f.VADD(v64(mm).S4(), v64(n).S4(), v64(d).S4()) }

func (m *a64) rounds(fn sha1sched.Func, x, e, wk vec) {
	switch fn {
	case sha1sched.FCh:
		m.f.SHA1C(v64(wk).S4(), v64(e), v64(x))
	case sha1sched.FParity:
		m.f.SHA1P(v64(wk).S4(), v64(e), v64(x))
	case sha1sched.FMaj:
		m.f.SHA1M(v64(wk).S4(), v64(e), v64(x))
	default:
		panic(fmt.Sprintf("sha1_ce: no round function %d", fn))
	}
}

func (m *a64) hashE(d, x vec) { m.f.SHA1H(v64(x), v64(d)) }

func (m *a64) scheduleStart(d, n, mm vec) {
	m.f.SHA1SU0(v64(mm).S4(), v64(n).S4(), v64(d).S4())
}

func (m *a64) scheduleEnd(d, n vec) { m.f.SHA1SU1(v64(n).S4(), v64(d).S4()) }
