package sha1x86

import (
	"flag"
	"fmt"

	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/knob"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
	"github.com/simdhash/simdhash/gen/internal/ubcvec"
)

// The UBC check of a kernel with a Checked contract (package sha1dc's
// kernels): the plan of gen/internal/ubcvec, on registers the description
// leaves free, and the kernel's end at a block whose mask is not zero.

// checkPlan holds the check's registers and constants.
type checkPlan struct {
	t    [ubcvec.Temps]reg.VecPhysical
	acc  reg.VecPhysical
	dtab Mem               // the Kills' constants, 16 bytes each (lanes times the blocks a register holds)
	doff map[[4]uint32]int // each constant's offset in dtab
}

// newCheckPlan returns the check's registers, beside the description's,
// and emits its constants into ctx: name is the table's, lanes the
// 128-bit lanes of a register (a Kill's constant is repeated in each),
// reversed whether a group's words are in reverse lane order.
func newCheckPlan(ctx *build.Context, name string, t [ubcvec.Temps]reg.VecPhysical, acc reg.VecPhysical, lanes int, reversed bool) *checkPlan {
	p := &checkPlan{t: t, acc: acc, doff: map[[4]uint32]int{}}
	var words []uint32
	for _, op := range ubcvec.Ops() {
		if op.Kind != ubcvec.Kill {
			continue
		}
		d := op.Lanes(reversed)
		if _, ok := p.doff[d]; ok {
			continue
		}
		p.doff[d] = 4 * len(words)
		for range lanes {
			words = append(words, d[:]...)
		}
	}
	p.dtab = avogen.Table(ctx, name, words)
	return p
}

// reg is the register of a check operand: a temporary, the accumulator,
// or the description's register of group g.
func (p *checkPlan) reg(r ubcvec.Reg, group func(g int) reg.VecPhysical) reg.VecPhysical {
	switch r.Kind {
	case ubcvec.Temp:
		return p.t[r.N]
	case ubcvec.Acc:
		return p.acc
	}
	return group(r.N)
}

// lower returns the steps of check operation op in isa x, one instruction
// each, with group g in group(g) and its words in natural lane order.
func (p *checkPlan) lower(x ISA, op ubcvec.Op, group func(g int) reg.VecPhysical, reversed bool) []step {
	r := func(q ubcvec.Reg) reg.VecPhysical { return p.reg(q, group) }
	switch op.Kind {
	case ubcvec.Align:
		d, s := r(op.Dst), op.Start
		lo, hi := group(s/4), group(s/4+1)
		if reversed { // lane i holds W[4g+3-i]: the window is the high bytes of lo:hi
			return []step{func() { x.Align(d, lo, hi, 16-4*(s%4)) }}
		}
		return []step{func() { x.Align(d, hi, lo, 4*(s%4)) }}
	case ubcvec.Shl:
		return []step{func() { x.Shl32(r(op.Dst), r(op.A), op.N) }}
	case ubcvec.Shr:
		return []step{func() { x.Shr32(r(op.Dst), r(op.A), op.N) }}
	case ubcvec.Xor:
		return []step{func() { x.Xor(r(op.Dst), r(op.A), r(op.B)) }}
	case ubcvec.Kill:
		a := r(op.A)
		d := p.dtab.Offset(p.doff[op.Lanes(reversed)])
		and := x.AndMem
		if op.Not {
			and = x.AndNotMem
		}
		steps := []step{func() { x.Sra32(a, a, 31) }}
		if op.First {
			return append(steps, func() { and(p.acc, a, d) })
		}
		return append(steps, func() { and(a, a, d) }, func() { x.Or(p.acc, p.acc, a) })
	case ubcvec.Reduce:
		t := r(op.Dst)
		return []step{
			func() { x.Shuffle32(t, p.acc, 0x4e) }, // swap the halves of each 128-bit lane
			func() { x.Or(p.acc, p.acc, t) },
			func() { x.Shuffle32(t, p.acc, 0xb1) }, // swap neighbouring words
			func() { x.Or(p.acc, p.acc, t) },
		}
	}
	panic(fmt.Sprintf("sha1x86: no lowering of check operation %v", op))
}

// Check lowers a check operation of the one-block kernels
// (sha1sched.CheckBackend).
func (e *backend) Check(op ubcvec.Op) []step {
	return e.chk.lower(e.isa, op, func(g int) reg.VecPhysical { return e.v(sha1sched.Window(g)) }, false)
}

// checkExit ends the kernel before the block just hashed if its mask is
// not zero: the accumulator's lane 0 is the complement of the mask.
func (e *backend) checkExit() {
	if e.c.Result != sha1sched.Checked {
		return
	}
	c := e.ctx
	c.Comment("Stop before this block, not absorbing it, if a DV survives its check.")
	c.MOVQ(e.chk.acc.AsX(), e.scratch)
	c.XORL(I32(-1), e.tmp) // the mask, and ZF if it is zero
	c.JNZ(LabelRef("flagged"))
}

// flaggedExit emits the kernel's end at a flagged block: h is stored as
// it was before the block, the blocks absorbed are already counted, and
// the mask (in tmp) is returned.
func (e *backend) flaggedExit() {
	if e.c.Result != sha1sched.Checked {
		return
	}
	c := e.ctx
	c.Label("flagged")
	c.Comment("h as before the flagged block, and its mask.")
	c.Load(c.Param("h"), e.ptr)
	for i, r := range e.h {
		c.MOVL(r, Mem{Base: e.ptr, Disp: 4 * i})
	}
	c.Store(e.tmp, c.Return("mask"))
	c.RET()
}

// CheckedName is the name of kernel k's checking function in package
// sha1dc: checkSSSE3, checkAVX, checkAVX2.
func (k Kernel) CheckedName() string { return "check" + upper(k.Name) }

// MainChecked is the whole main function of the generator of kernel k's
// checking variant for package sha1dc (gen/sha1dc_<name>): it parses
// -out, -pkg and the knobs k honours, and describes k with the Checked
// contract under the name CheckedName.
func MainChecked(k Kernel) {
	p := k.Defaults()
	avogen.Main("sha1dc_"+k.Name, "sha1dc", func(fs *flag.FlagSet) { knob.Register(fs, k.Knobs(&p)...) },
		func(ctx *build.Context) error {
			return k.Generate(ctx, p, k.CheckedName(), sha1sched.Contract{Result: sha1sched.Checked})
		})
}
