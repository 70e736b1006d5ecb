package main

import (
	"fmt"

	. "github.com/simdhash/simdhash/gen/internal/arm64"
	"github.com/simdhash/simdhash/gen/internal/armemit"
)

// a64 is the AArch64 machine: one function of ghash_arm64.s.
type a64 struct {
	*armemit.Func // f's, for the machine's Label, Comment, branches, Schedule and GNU
	f             *Func
	regs          *pool
	rot           *Global // TBL index vectors rotating each half by 1..4 bytes (rotationTable)
	tmp           Reg     // a scratch general register

	rotations int     // idx[1..rotations] are set up
	idx       [5]VReg // idx[k] rotates each half by k bytes
	mask      [4]VReg // mask[k]: the top 16k bits of each doubleword (k = 1..3)
	g         VReg    // 0x87 in every byte (setupP8), or [g, g] as doublewords (setupP64)
	zero      VReg
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

func v(r vreg) VReg { return V(int(r)) }
func r(x greg) Reg  { return Reg(x) }

func (m *a64) vregs() int      { return 32 }
func (m *a64) setPool(p *pool) { m.regs = p }
func (m *a64) get() VReg       { return v(m.regs.get()) }
func (m *a64) put(xs ...VReg) {
	for _, x := range xs {
		m.regs.put(vreg(x))
	}
}

func (m *a64) loadArgs(y, key, p, n greg) {
	f := m.f
	f.LoadArg(f.Arg("y"), r(y))
	f.LoadArg(f.Arg("key"), r(key))
	f.LoadArg(f.Arg("p").Base(), r(p))
	f.LoadArg(f.Arg("p").Len(), r(n))
	f.ANDMask(^uint64(15), r(n), r(n)) // whole blocks only
}

func (m *a64) cmp(n greg, imm int)             { m.f.CMP(imm, r(n)) }
func (m *a64) branchZero(n greg, label string) { m.f.CBZ(r(n), label) }
func (m *a64) sub(n greg, imm int)             { m.f.SUB(imm, r(n), r(n)) }
func (m *a64) subs(n greg, imm int)            { m.f.SUBS(imm, r(n), r(n)) }

func (m *a64) ret() { m.f.RET() }

func (m *a64) load(d vreg, base greg)  { m.f.VLD1(r(base), v(d).B16()) }
func (m *a64) store(s vreg, base greg) { m.f.VST1(r(base), v(s).B16()) }

func (m *a64) loadBlocks(xs []vreg, p greg) {
	for i, x := range xs {
		m.f.LDRQ(r(p).At(16*i), v(x))
	}
	m.f.ADD(16*len(xs), r(p), r(p))
}

func (m *a64) loadKey(d vreg, key greg, off int) { m.f.LDRQ(r(key).At(off), v(d)) }

func (m *a64) loadKeyHalf(d vreg, h half, key greg, off int) {
	panic("ghash_neon: loadKeyHalf is not implemented for arm64, whose 32 registers allow the eager form")
}

func (m *a64) xor(d, n, mm vreg)  { m.f.VEOR(v(mm).B16(), v(n).B16(), v(d).B16()) }
func (m *a64) ext8(d, n, mm vreg) { m.f.VEXT(8, v(mm).B16(), v(n).B16(), v(d).B16()) }

func (m *a64) lowHalves(d, n, mm vreg) { m.f.VTRN1(v(mm).D2(), v(n).D2(), v(d).D2()) }

func (m *a64) bitrev(xs ...vreg) {
	for _, x := range xs {
		m.f.VRBIT(v(x).B16(), v(x).B16())
	}
}

func (m *a64) bitrevName() string { return "RBIT" }

func (m *a64) karatsubaPair(d, a, b vreg) {
	t := m.get()
	m.f.VTRN1(v(b).D2(), v(a).D2(), v(d).D2()) // [a.lo, b.lo]
	m.f.VTRN2(v(b).D2(), v(a).D2(), t.D2())    // [a.hi, b.hi]
	m.f.VEOR(t.B16(), v(d).B16(), v(d).B16())
	m.put(t)
}

func (m *a64) rotUp(x vreg, k int) { m.f.VEXT(16-k, v(x).B16(), v(x).B16(), v(x).B16()) }

// --- The 8-bit multiply ---

func (m *a64) setupP8(rotations int) {
	f := m.f
	f.Comment("Constants: TBL indexes rotating each half, fix-up masks, 0x87 in every byte, zero.")
	f.LoadAddr(m.rot, m.tmp)
	m.rotations = rotations
	for k := 1; k <= rotations; k++ {
		m.idx[k] = m.get()
		f.VLD1P(m.tmp, m.idx[k].B16())
	}
	for k := 1; k <= 3; k++ {
		m.mask[k] = m.get()
		f.VMOVI2D(^uint64(0)<<(64-16*k), m.mask[k])
	}
	m.g = m.get()
	f.VMOVI(0x87, m.g.B16())
	m.zero = m.get()
	f.VEOR(m.zero.B16(), m.zero.B16(), m.zero.B16())
}

func (m *a64) mulP8(d, a, b vreg, h half) {
	if h == lo {
		m.f.VPMULL(v(b).B8(), v(a).B8(), v(d).H8())
	} else {
		m.f.VPMULL2(v(b).B16(), v(a).B16(), v(d).H8())
	}
}

// rotateHalves is one TBL: each half of a 16-byte TBL index selects from
// the same half.
func (m *a64) rotateHalves(d, x vreg, k int) {
	if k < 1 || k > m.rotations {
		panic(fmt.Sprintf("ghash_neon: rotation by %d bytes was not set up", k))
	}
	m.f.VTBL(m.idx[k].B16(), []Vec{v(x).B16()}, v(d).B16())
}

func (m *a64) rotateHalf(d, x vreg, k int, h half) { m.rotateHalves(d, x, k) }

// foldTops works on all of ls at once: t = [l.hi, l.hi], masked to the
// top 16k bits, added to l.
func (m *a64) foldTops(first int, ls ...vreg) {
	f := m.f
	t := make([]VReg, len(ls))
	for k, l := range ls {
		t[k] = m.get()
		f.VDUP(v(l).D(1), t[k].D2())
	}
	for i := range ls {
		if k := first + i; k < 4 {
			f.VAND(m.mask[k].B16(), t[i].B16(), t[i].B16())
		}
	}
	for k, l := range ls {
		f.VEOR(t[k].B16(), v(l).B16(), v(l).B16())
	}
	m.put(t...)
}

// timesG8: PMULL2 gives byte i of x.hi times g in lane i; the low bytes
// of the lanes (UZP1) and the high bytes (UZP2, moved up one byte) add up
// to x.hi·g.
func (m *a64) timesG8(x vreg) vreg {
	f := m.f
	p, u, s := m.get(), m.get(), m.get()
	f.VPMULL2(m.g.B16(), v(x).B16(), p.H8())
	f.VUZP1(m.zero.B16(), p.B16(), u.B16())
	f.VUZP2(m.zero.B16(), p.B16(), s.B16())
	f.VEXT(15, s.B16(), m.zero.B16(), s.B16())
	f.VEOR(s.B16(), u.B16(), u.B16())
	m.put(p, s)
	return vreg(u)
}

// --- The 64-bit multiply ---

func (m *a64) setupP64() {
	m.g = m.get()
	m.f.MOVDConst(0x87, m.tmp)
	m.f.VDUPR(m.tmp, m.g.D2())
}

func (m *a64) mulP64(d, a, b vreg, h half) {
	if h == lo {
		m.f.VPMULL(v(b).D1(), v(a).D1(), v(d).Q1())
	} else {
		m.f.VPMULL2(v(b).D2(), v(a).D2(), v(d).Q1())
	}
}

func (m *a64) timesG64(x vreg) vreg {
	d := m.get()
	m.f.VPMULL2(m.g.D2(), v(x).D2(), d.Q1())
	return vreg(d)
}
