package sha1many

import (
	. "github.com/simdhash/simdhash/gen/internal/arm64"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// neon is the ISA of four lanes in the 128-bit registers of arm64's NEON
// (gen/internal/arm64), for a NEON backend of the description: vreg i is
// Vi. NEON has no rotate, so a rotate is a shift into another register and
// an insert (sha1sched.RotateInto); no three-input logic; no memory
// operands, so a source in the W ring (16 bytes a slot, from ring) is
// read into the scratch register first; K is added from four registers of
// its own, which the function loads (sha1arm.KTable's rows).
type neon struct {
	f       *Func
	ring    Reg
	ringOff int // the offset of slot 0 from ring
	k       [4]VReg
	scratch VReg
}

func (n *neon) Comment(text string)           { n.f.Comment(text) }
func (n *neon) Rotate() sha1sched.RotateShape { return sha1sched.RotateInto }
func (n *neon) Ternary() bool                 { return false }

// src is the register of s: its own, or the scratch register with the ring
// slot loaded into it.
func (n *neon) src(s source) VReg {
	if x, ok := s.(slot); ok {
		n.f.LDRQ(n.ring.At(n.ringOff+16*int(x)), n.scratch)
		return n.scratch
	}
	return vr(s.(vreg))
}

func vr(r vreg) VReg { return V(int(r)) }

func (n *neon) Move(dst vreg, s source) {
	switch x := s.(type) {
	case slot:
		n.f.LDRQ(n.ring.At(n.ringOff+16*int(x)), vr(dst))
	case vreg:
		if x != dst {
			n.f.VMOV(vr(x).B16(), vr(dst).B16())
		}
	}
}
func (n *neon) Store(s slot, r vreg)         { n.f.STRQ(vr(r), n.ring.At(n.ringOff+16*int(s))) }
func (n *neon) Add(dst, a vreg, b source)    { n.f.VADD(n.src(b).S4(), vr(a).S4(), vr(dst).S4()) }
func (n *neon) AddK(dst, a vreg, i int)      { n.f.VADD(n.k[i].S4(), vr(a).S4(), vr(dst).S4()) }
func (n *neon) Xor(dst, a vreg, b source)    { n.f.VEOR(n.src(b).B16(), vr(a).B16(), vr(dst).B16()) }
func (n *neon) And(dst, a vreg, b source)    { n.f.VAND(n.src(b).B16(), vr(a).B16(), vr(dst).B16()) }
func (n *neon) Or(dst, a vreg, b source)     { n.f.VORR(n.src(b).B16(), vr(a).B16(), vr(dst).B16()) }
func (n *neon) Shl(dst, a vreg, k int)       { n.f.VSHL(k, vr(a).S4(), vr(dst).S4()) }
func (n *neon) Shr(dst, a vreg, k int)       { n.f.VUSHR(k, vr(a).S4(), vr(dst).S4()) }
func (n *neon) AndNot(dst, a vreg, b source) { n.f.VBIC(vr(a).B16(), n.src(b).B16(), vr(dst).B16()) } // b &^ a

// Rol is SHL into dst, then SRI of the bits shifted out; dst is not a.
func (n *neon) Rol(dst, a vreg, k int) {
	n.f.VSHL(k, vr(a).S4(), vr(dst).S4())
	n.f.VSRI(32-k, vr(a).S4(), vr(dst).S4())
}

func (n *neon) Logic3(_, _, _ vreg, _ source, _ uint8) {
	panic("sha1many: NEON has no three-input logic instruction")
}
