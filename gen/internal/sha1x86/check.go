package sha1x86

import (
	"flag"
	"fmt"
	"strings"

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
	t   [ubcvec.Temps]reg.VecPhysical
	acc reg.VecPhysical
	*CheckTable
	// The pair kernel's: the plan's items, their deal over a pass, and
	// the two masks' stack slots.
	items []ubcvec.Item
	dealt [][]ubcvec.Op
	masks Mem
}

// A CheckTable is the read-only table of the constants of a check's
// Kills (ubcvec.Op.D), each once.
type CheckTable struct {
	reversed bool
	tab      Mem
	off      map[[4]uint32]int
}

// NewCheckTable emits the constants of the plan's Kills into ctx as the
// table name: lanes is the number of 128-bit lanes of a register (each
// holds a block, and the constant is repeated in each), reversed whether
// a group's words are in reverse lane order (ubcvec.Op.Lanes).
func NewCheckTable(ctx *build.Context, name string, lanes int, reversed bool) *CheckTable {
	t := &CheckTable{reversed: reversed, off: map[[4]uint32]int{}}
	var words []uint32
	for _, op := range ubcvec.Ops() {
		if op.Kind != ubcvec.Kill {
			continue
		}
		d := op.Lanes(reversed)
		if _, ok := t.off[d]; ok {
			continue
		}
		t.off[d] = 4 * len(words)
		for range lanes {
			words = append(words, d[:]...)
		}
	}
	t.tab = avogen.Table(ctx, name, words)
	return t
}

// D is the memory operand of Kill op's constant, aligned to its size (the
// linker aligns a table this large to 32 bytes).
func (t *CheckTable) D(op ubcvec.Op) Mem { return t.tab.Offset(t.off[op.Lanes(t.reversed)]) }

// newCheckPlan returns the check's registers, beside the description's,
// with the table of its constants (NewCheckTable, in natural lane order).
func newCheckPlan(ctx *build.Context, name string, t [ubcvec.Temps]reg.VecPhysical, acc reg.VecPhysical, lanes int) *checkPlan {
	return &checkPlan{t: t, acc: acc, CheckTable: NewCheckTable(ctx, name, lanes, false)}
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
func (p *checkPlan) lower(x ISA, op ubcvec.Op, group func(g int) reg.VecPhysical) []step {
	r := func(q ubcvec.Reg) reg.VecPhysical { return p.reg(q, group) }
	switch op.Kind {
	case ubcvec.Align:
		d, s := r(op.Dst), op.Start
		return []step{func() { x.Align(d, group(s/4+1), group(s/4), 4*(s%4)) }}
	case ubcvec.Shl:
		return []step{func() { x.Shl32(r(op.Dst), r(op.A), op.N) }}
	case ubcvec.Shr:
		return []step{func() { x.Shr32(r(op.Dst), r(op.A), op.N) }}
	case ubcvec.Xor:
		return []step{func() { x.Xor(r(op.Dst), r(op.A), r(op.B)) }}
	case ubcvec.Kill:
		a := r(op.A)
		d := p.D(op)
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
	return e.chk.lower(e.isa, op, func(g int) reg.VecPhysical { return e.v(sha1sched.Window(g)) })
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
func (k Kernel) CheckedName() string { return "check" + strings.ToUpper(k.Name) }

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

// The pair kernel's check (avx2): the check of the next pair's two blocks
// runs in the pass of the current pair, on YMM registers, one block in
// each 128-bit lane, its operations dealt over the pass's 160 rounds where
// the next pair's groups are in the window (the prologue's pair: after
// each group the prologue computes). At the start of each pass the two
// masks go to the stack, as the next pass's check overwrites the
// accumulator, and each block of the pair starts with the test of its own.

// pairCheckLive is the liveness of the next pair's groups in a pass:
// group g's steps run in rounds 8g..8g+7; groups 8..11 are overwritten by
// groups 16..19 and the rest last the pass.
var pairCheckLive = ubcvec.Liveness{
	Ready: func(g int) int { return 8*g + 7 },
	Live: func(g int) int {
		if g < 12 {
			return 8*(g+8) - 1
		}
		return 159
	},
}

// pairCheckPlan sets up the pair kernel's check: its registers, the
// constants for two lanes and the deal over a pass (before the function
// starts; pairMasks's stack slots come with the frame).
func (e *backend) pairCheckPlan() error {
	items, reduce := ubcvec.Plan()
	dealt, err := ubcvec.Deal(items, reduce, pairCheckLive, pairCheckLive.Ready(9), 157, 160)
	if err != nil {
		return err
	}
	e.chk = newCheckPlan(e.ctx, "ubcD", [ubcvec.Temps]reg.VecPhysical{reg.Y11, reg.Y12}, reg.Y13, 2)
	e.chk.dealt = dealt
	e.chk.items = items
	return nil
}

// pairCheckAt returns the check's steps of round r (0..159) of a pass.
func (e *backend) pairCheckAt(r int) []step {
	if e.chk == nil {
		return nil
	}
	var steps []step
	for _, op := range e.chk.dealt[r] {
		steps = append(steps, e.Check(op)...)
	}
	return steps
}

// pairCheckPrologue returns the steps of the check of the first pair that
// follow the prologue's group g: the items whose last group it is (their
// first is then still in the window), and after group 19 the Reduce.
func (e *backend) pairCheckPrologue(g int) []step {
	if e.chk == nil {
		return nil
	}
	var steps []step
	first := true
	for _, it := range e.chk.items {
		for _, op := range it.Ops {
			op.First = op.Kind == ubcvec.Kill && first
			first = first && op.Kind != ubcvec.Kill
			if it.Hi == g {
				steps = append(steps, e.Check(op)...)
			}
		}
	}
	if g == 19 {
		_, reduce := ubcvec.Plan()
		steps = append(steps, e.Check(reduce)...)
	}
	return steps
}

// pairMasks stores the pair's two masks, from the accumulator's lanes 0
// and 4, into the stack.
func (e *backend) pairMasks() {
	if e.chk == nil {
		return
	}
	c, a := e.ctx, e.chk.acc
	if e.chk.masks.Base == nil {
		e.chk.masks = c.AllocLocal(8)
	}
	c.Comment("The masks of the pair's blocks, before the next pair's check overwrites them.")
	c.VMOVD(a.AsX(), e.tmp)
	c.NOTL(e.tmp)
	c.MOVL(e.tmp, e.chk.masks)
	c.VEXTRACTI128(U8(1), a, e.chk.t[0].AsX())
	c.VMOVD(e.chk.t[0].AsX(), e.tmp)
	c.NOTL(e.tmp)
	c.MOVL(e.tmp, e.chk.masks.Offset(4))
}

// pairExit ends the kernel before block half of the pair if its mask is
// not zero (h in memory is then the chaining value before it).
func (e *backend) pairExit(half int) {
	if e.chk == nil {
		return
	}
	c := e.ctx
	c.Commentf("Stop before block %d of the pair, not absorbing it, if a DV survives its check.", half)
	c.MOVL(e.chk.masks.Offset(4*half), e.tmp)
	c.TESTL(e.tmp, e.tmp)
	if half == 0 {
		c.JNZ(LabelRef("flagged"))
		return
	}
	c.JNZ(LabelRef("flagged1"))
}

// pairDone returns, at the end of a kernel that absorbed every block, the
// number of blocks: len(p)/64.
func (e *backend) pairDone() {
	if e.chk == nil {
		return
	}
	c := e.ctx
	c.Load(c.Param("p").Len(), e.scratch)
	c.SHRQ(U8(6), e.scratch)
	c.Store(e.tmp, c.Return("n"))
}

// pairFlagged emits the exits of pairExit: the blocks absorbed are the
// block pointer's distance from p's first block, plus one for the pair's
// second block; the mask is in tmp.
func (e *backend) pairFlagged() {
	if e.chk == nil {
		return
	}
	c := e.ctx
	c.Label("flagged1")
	c.ADDQ(U8(64), e.ptr)
	c.Label("flagged")
	c.Store(e.tmp, c.Return("mask"))
	c.Load(c.Param("p").Base(), e.scratch)
	c.SUBQ(e.scratch, e.ptr)
	c.SHRQ(U8(6), e.ptr)
	c.Store(e.ptr.As32(), c.Return("n"))
	c.VZEROUPPER()
	c.RET()
}
