package main

import (
	"math/bits"

	"github.com/simdhash/simdhash/gen/internal/arm32"
	"github.com/simdhash/simdhash/gen/internal/armemit"
)

// a32 is the 32-bit ARM machine (NEON, VMULL.P64 for pmull): one function
// of ghash_arm.s. Its vector registers are Q0–Q15; an operation on one
// half of a value works on that D register alone.
type a32 struct {
	*armemit.Func // f's, for the machine's Label, Comment, branches, Schedule and GNU
	f             *arm32.Func
	regs          *pool
	nibble        *arm32.Global // bitrevTable
	tbl           arm32.Reg     // holds nibble's address, from loadArgs on

	g     arm32.DReg    // 0x87 in every byte (setupP8), or 0x87 as a doubleword (setupP64)
	keep  [4]arm32.DReg // keep[k]: the low 64-16k bits of a doubleword (k = 1..3)
	ready bool          // setupP8 ran
}

// bitrevTable is the DATA of the nibble reversal: byte n is rev4(n) in
// both nibbles, rev4 reversing the four bits of n.
func bitrevTable(file *arm32.File) *arm32.Global {
	t := file.Data("ghashBitrevNibbles")
	for h := 0; h < 2; h++ {
		var w uint64
		for i := 0; i < 8; i++ {
			r := uint64(bits.Reverse8(uint8(8*h+i)) >> 4)
			w |= (r | r<<4) << (8 * i)
		}
		t.U64(w)
	}
	return t
}

func q(x vreg) arm32.QReg         { return arm32.Q(int(x)) }
func d(x vreg, h half) arm32.DReg { return q(x).Half(int(h)) }
func ar(x greg) arm32.Reg         { return arm32.Reg(x) }

func (m *a32) vregs() int      { return 16 }
func (m *a32) setPool(p *pool) { m.regs = p }

func (m *a32) loadArgs(y, key, p, n greg) {
	f := m.f
	f.LoadArg(f.Arg("y"), ar(y))
	f.LoadArg(f.Arg("key"), ar(key))
	f.LoadArg(f.Arg("p").Base(), ar(p))
	f.LoadArg(f.Arg("p").Len(), ar(n))
	f.BIC(15, ar(n), ar(n)) // whole blocks only
	f.LoadAddr(m.nibble, m.tbl)
}

func (m *a32) cmp(n greg, imm int) { m.f.CMP(imm, ar(n)) }

func (m *a32) branchZero(n greg, label string) {
	m.f.CMP(0, ar(n))
	m.f.BEQ(label)
}

func (m *a32) sub(n greg, imm int)  { m.f.SUB(imm, ar(n), ar(n)) }
func (m *a32) subs(n greg, imm int) { m.f.SUBS(imm, ar(n), ar(n)) }

func (m *a32) ret() { m.f.RET() }

func (m *a32) load(x vreg, base greg) { m.f.VLD1(ar(base), arm32.NoUpdate, arm32.Regs(q(x))) }

func (m *a32) store(x vreg, base greg) { m.f.VST1(arm32.Regs(q(x)), ar(base), arm32.NoUpdate) }

// loadBlocks loads with VLD1 and writeback, two blocks at a time where
// their registers are consecutive.
func (m *a32) loadBlocks(xs []vreg, p greg) {
	for i := 0; i < len(xs); i++ {
		regs := arm32.Regs(q(xs[i]))
		if i+1 < len(xs) && xs[i+1] == xs[i]+1 {
			i++
			regs = append(regs, arm32.Regs(q(xs[i]))...)
		}
		m.f.VLD1(ar(p), arm32.Advance, regs)
	}
}

// loadKey is two VLDR: unlike VLD1 they take an offset, and the key is
// 4-byte aligned, which is all they need.
func (m *a32) loadKey(x vreg, key greg, off int) {
	m.f.VLDR(ar(key), off, d(x, lo))
	m.f.VLDR(ar(key), off+8, d(x, hi))
}

func (m *a32) loadKeyHalf(x vreg, h half, key greg, off int) { m.f.VLDR(ar(key), off, d(x, h)) }

func (m *a32) xor(x, n, mm vreg)  { m.f.VEOR(q(mm), q(n), q(x)) }
func (m *a32) ext8(x, n, mm vreg) { m.f.VEXT(8, q(mm), q(n), q(x)) }

func (m *a32) lowHalves(x, n, mm vreg) {
	hiFirst := x == mm // write the high half first, which reads mm's low half
	if hiFirst {
		m.f.VMOV(d(mm, lo), d(x, hi))
	}
	if x != n {
		m.f.VMOV(d(n, lo), d(x, lo))
	}
	if !hiFirst {
		m.f.VMOV(d(mm, lo), d(x, hi))
	}
}

// bitrev looks up both nibbles of every byte in a 16-byte table holding
// rev4(n) in both nibbles of byte n, and joins rev4(low nibble) << 4 with
// rev4(high nibble) by a shift-right-and-insert.
func (m *a32) bitrev(xs ...vreg) {
	f := m.f
	t, mask := m.regs.get(), m.regs.get()
	f.VLD1(m.tbl, arm32.NoUpdate, arm32.Regs(q(t)))
	f.VMOVI8(0x0f, q(mask))
	table := arm32.Regs(q(t))
	for _, x := range xs {
		h := m.regs.get()
		f.VSHR(8, 4, q(x), q(h)) // high nibbles
		f.VAND(q(mask), q(x), q(x))
		for _, hh := range []half{lo, hi} {
			f.VTBL(d(x, hh), table, d(x, hh))
			f.VTBL(d(h, hh), table, d(h, hh))
		}
		f.VSRI(8, 4, q(h), q(x))
		m.regs.put(h)
	}
	m.regs.put(t, mask)
}

func (m *a32) bitrevName() string { return "bit-reverse the bytes of" }

func (m *a32) karatsubaPair(x, a, b vreg) {
	m.f.VEOR(d(a, hi), d(a, lo), d(x, lo))
	m.f.VEOR(d(b, hi), d(b, lo), d(x, hi))
}

func (m *a32) rotUp(x vreg, k int) { m.f.VEXT(16-k, q(x), q(x), q(x)) }

// --- The 8-bit multiply ---

// setupP8 needs no rotation constants (VEXT.8 rotates a D register): two
// Q registers hold g in every byte and the three fold masks.
func (m *a32) setupP8(rotations int) {
	f := m.f
	f.Comment("Constants: 0x87 in every byte, and the fold masks (the low 48, 32 and 16 bits).")
	c1, c2 := m.regs.get(), m.regs.get()
	m.g, m.keep[1], m.keep[2], m.keep[3] = d(c1, lo), d(c1, hi), d(c2, lo), d(c2, hi)
	f.VMOVI8(0x87, m.g)
	for k := 1; k <= 3; k++ {
		f.VMOVI64(^uint64(0)>>(16*k), m.keep[k])
	}
	m.ready = true
}

func (m *a32) mulP8(x, a, b vreg, h half) { m.f.VMULLP8(d(b, h), d(a, h), q(x)) }

func (m *a32) rotateHalves(x, y vreg, k int) {
	m.rotateHalf(x, y, k, lo)
	m.rotateHalf(x, y, k, hi)
}

func (m *a32) rotateHalf(x, y vreg, k int, h half) { m.f.VEXT(k, d(y, h), d(y, h), d(x, h)) }

// foldTops: lo ^= hi; hi &= keep_k; lo ^= hi leaves lo ^ (the top 16k
// bits of hi) in lo and clears them in hi, three D operations and no
// temporary. For k = 4 the whole high half moves.
func (m *a32) foldTops(first int, ls ...vreg) {
	if !m.ready {
		panic("ghash_neon: foldTops before setupP8")
	}
	f := m.f
	for i, l := range ls {
		k := first + i
		f.VEOR(d(l, hi), d(l, lo), d(l, lo))
		if k == 4 {
			f.VMOVI64(0, d(l, hi))
			continue
		}
		f.VAND(m.keep[k], d(l, hi), d(l, hi))
		f.VEOR(d(l, hi), d(l, lo), d(l, lo))
	}
}

// timesG8: VMULL.P8 gives byte i of x.hi times g in lane i; VUZP.8 puts
// the lanes' low bytes in the low half and their high bytes in the high
// half; the result is low ^ high<<8 as a 72-bit value.
func (m *a32) timesG8(x vreg) vreg {
	f := m.f
	p, u := m.regs.get(), m.regs.get()
	f.VMULLP8(m.g, d(x, hi), q(p))
	f.VUZP(8, d(p, hi), d(p, lo))
	f.VSHL(64, 8, d(p, hi), d(u, lo))
	f.VSHR(64, 56, d(p, hi), d(u, hi))
	f.VEOR(d(p, lo), d(u, lo), d(u, lo))
	m.regs.put(p)
	return u
}

// --- The 64-bit multiply ---

// setupP64 makes g = 0x87 as a doubleword: 0x87 in every byte, shifted
// down by 56.
func (m *a32) setupP64() {
	c := m.regs.get()
	m.g = d(c, lo)
	m.f.VMOVI8(0x87, m.g)
	m.f.VSHR(64, 56, m.g, m.g)
}

func (m *a32) mulP64(x, a, b vreg, h half) { m.f.VMULLP64(d(b, h), d(a, h), q(x)) }

func (m *a32) timesG64(x vreg) vreg {
	r := m.regs.get()
	m.f.VMULLP64(m.g, d(x, hi), q(r))
	return r
}
