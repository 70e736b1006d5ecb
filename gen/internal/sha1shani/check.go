package sha1shani

import (
	"fmt"
	"slices"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
	"github.com/simdhash/simdhash/gen/internal/sha1x86"
	"github.com/simdhash/simdhash/gen/internal/ubcvec"
)

// The checking kernel of package sha1dc (sha1sched.Checked): one stream,
// with the UBC check of gen/internal/ubcvec beside the SHA instructions.
//
// A group's words are in a message register only from the group before
// its rounds to the group after, too short for the terms, which reach
// eight words back. So each group of W[32..67] (groups 8..16) is stored,
// as its rounds start, into a buffer on the stack that holds W from its
// highest word down: group g at 16*(16-g), in its register's order (W[4g]
// in the top lane, the highest address); the plan's constants are
// reversed to match (ubcvec.Op.Lanes). The buffer is 16-byte aligned, and
// the check reads it only in whole groups, as they were stored: a group
// is PXOR's memory operand, and a window W[s..s+3] that straddles groups
// g and g+1 is group g loaded and PALIGNR with group g+1. (An unaligned
// load at W[s+3]'s address would be one instruction, but a load that
// spans two stores cannot take its data from the store buffer: it waits
// until both stores have retired and reached the cache: docs/sha1dc.md
// has the measurements.)
//
// The check's operations are dealt over the groups from the one that
// stores their last group on (ubcvec.Deal over rounds 4g..4g+3, all
// hosted after group g's instructions), and the mask is tested at the end
// of the block: a block whose mask is not zero leaves h as it was before
// it, and the kernel returns how many blocks it absorbed (its pointer's
// distance from the start) and the mask.

// The check's registers, beside the nine roles of the stream and bswap
// (X0..X9), and its general registers beside DI, SI and DX.
var (
	checkT    = [ubcvec.Temps]reg.VecPhysical{reg.X10, reg.X11}
	checkAcc  = reg.X12
	checkBuf  = reg.R8  // the buffer of W, aligned
	checkP0   = reg.R9  // p's first block
	checkMask = reg.RAX // the mask, at the end of a block
	// With CheckBlend: zero, and the DVs of a Kill whose test is Not.
	checkZero, checkDVs = reg.X14, reg.X15
)

// A CheckForm is how a checking kernel lowers the check's operations.
type CheckForm int

const (
	// CheckSSE: SSE instructions only; a Kill spreads its term's bit with
	// PSRAD and masks its DVs with PAND (or PANDN).
	CheckSSE CheckForm = iota
	// CheckBlend: CheckSSE but for the Kills, each a VBLENDVPS (AVX)
	// that picks its DVs (or zero) by the bit's sign: one operation
	// instead of two, where the SHA instructions share the vector
	// pipes. VEX-encoded on 128-bit registers, it leaves the upper
	// halves clean, so the legacy-SSE SHA instructions beside it pay no
	// transition.
	CheckBlend
	// CheckGather: AVX-512's gather form on ZMM16.. (afterGroupGather).
	CheckGather
)

// checkGroups are the groups the buffer holds: those the terms read.
const checkLo, checkHi = 8, 16

// checker emits the check into a one-stream kernel: it is a machine
// whose group hook (afterGroup) stores the group and emits the check's
// operations of its rounds.
type checker struct {
	*emitter
	tab   *sha1x86.CheckTable
	dealt [][]ubcvec.Op
	form  CheckForm
	// With AVX-512 (GenerateChecked's gather): the gather form's
	// vectors, their constants, and which group hosts each.
	gather []ubcvec.Gather
	gtab   Mem
}

// bufMem is the buffer's place of W[x], the word x of groups 8..16.
func bufMem(x int) Mem { return Mem{Base: checkBuf, Disp: 4 * (4*checkHi + 3 - x)} }

// groupMem is group g's 16 bytes in the buffer (aligned).
func groupMem(g int) Mem { return bufMem(4*g + 3) }

// afterGroup stores group g's words if the check reads them, then emits
// the check's operations of rounds 4g..4g+3.
func (k *checker) afterGroup(g int) {
	c := k.ctx
	if k.gather != nil {
		k.afterGroupGather(g)
		return
	}
	if checkLo <= g && g <= checkHi {
		c.MOVO(k.reg(of(0, window(g))), groupMem(g))
	}
	for r := 4 * g; r < 4*g+4; r++ {
		for _, op := range k.dealt[r] {
			k.lower(op)
		}
	}
}

// lower emits check operation op with SSE instructions.
func (k *checker) lower(op ubcvec.Op) {
	c := k.ctx
	r := func(q ubcvec.Reg) reg.VecPhysical {
		switch q.Kind {
		case ubcvec.Temp:
			return checkT[q.N]
		case ubcvec.Acc:
			return checkAcc
		}
		panic(fmt.Sprintf("sha1shani: %v is in memory", q))
	}
	// into sets dst to operand a, a register or a group in the buffer.
	into := func(dst reg.VecPhysical, a ubcvec.Reg) {
		switch {
		case a.Kind == ubcvec.Group:
			c.MOVO(groupMem(a.N), dst)
		case r(a) != dst:
			c.MOVO(r(a), dst)
		}
	}
	switch op.Kind {
	case ubcvec.Align:
		// Lane i of W[4g..4g+7] (group g above group g+1) is
		// W[4g+7-i]: W[Start+3], the window's lane 0, is lane 4-j.
		g, j := op.Start/4, op.Start%4
		c.MOVO(groupMem(g), r(op.Dst))
		c.PALIGNR(U8(4*(4-j)), groupMem(g+1), r(op.Dst))
	case ubcvec.Shl, ubcvec.Shr:
		d := r(op.Dst)
		into(d, op.A)
		if op.Kind == ubcvec.Shl {
			c.PSLLL(U8(op.N), d)
		} else {
			c.PSRLL(U8(op.N), d)
		}
	case ubcvec.Xor:
		d, a, b := r(op.Dst), op.A, op.B
		if b.Kind != ubcvec.Group && r(b) == d {
			a, b = b, a
		}
		into(d, a)
		if b.Kind == ubcvec.Group {
			c.PXOR(groupMem(b.N), d)
		} else {
			c.PXOR(r(b), d)
		}
	case ubcvec.Kill:
		// a's lanes hold the term's bit in their sign: each becomes its
		// DVs where the bit is set (Not: clear), zero elsewhere.
		a := r(op.A)
		switch {
		case k.form == CheckBlend && op.Not:
			c.MOVO(k.tab.D(op), checkDVs)
			c.VBLENDVPS(a, checkZero, checkDVs, a)
		case k.form == CheckBlend:
			c.VBLENDVPS(a, k.tab.D(op), checkZero, a)
		case op.Not:
			c.PSRAL(U8(31), a)
			c.PANDN(k.tab.D(op), a)
		default:
			c.PSRAL(U8(31), a)
			c.PAND(k.tab.D(op), a)
		}
		if op.First {
			c.MOVO(a, checkAcc)
		} else {
			c.POR(a, checkAcc)
		}
	case ubcvec.Reduce:
		t := r(op.Dst)
		c.PSHUFD(U8(0x4e), checkAcc, t)
		c.POR(t, checkAcc)
		c.PSHUFD(U8(0xb1), checkAcc, t)
		c.POR(t, checkAcc)
	default:
		panic(fmt.Sprintf("sha1shani: no lowering of check operation %v", op))
	}
}

// dealCheck places the check's operations: group g is in the buffer from
// the end of its group's instructions (round 4g+3 hosts what follows it)
// to the end of the block.
func dealCheck() ([][]ubcvec.Op, error) {
	items, reduce := ubcvec.Plan()
	live := ubcvec.Liveness{
		Ready: func(g int) int { return 4*g + 3 },
		Live:  func(int) int { return 79 },
	}
	return ubcvec.Deal(items, reduce, live, 4*(checkLo+1), 79, 80)
}

// GenerateChecked emits the checking kernel name into ctx: the
// one-stream kernel of Generate with the Checked contract of
// gen/internal/sha1sched (func(h *[5]uint32, p []byte) (n, mask uint32)),
// which stops before the first block whose UBC mask is not zero, with
// the check in form.
func GenerateChecked(ctx *build.Context, name string, form CheckForm) error {
	k, err := newChecker(ctx, form)
	if err != nil {
		return err
	}
	hp, end, ptr := reg.RDI, reg.RDX, reg.RSI

	mask := bswapTable(ctx, "shaniBswap")
	k.tab = sha1x86.NewCheckTable(ctx, "ubcD", 1, true)

	cn := sha1sched.Contract{Result: sha1sched.Checked}
	ctx.Function(name)
	ctx.Attributes(attr.NOSPLIT)
	ctx.SignatureExpr(cn.Signature())
	ctx.Doc(name+" absorbs len(p)/64 whole blocks of p into h with the SHA extensions, and stops before the first block whose UBC mask is not zero.",
		"It returns the blocks absorbed and that mask (0 if it absorbed them all).")
	if err := k.plan(1); err != nil {
		return err
	}
	buf := ctx.AllocLocal(16 * (checkHi - checkLo + 2)) // room to align
	ctx.MOVL(U32(0), k.result("n"))
	ctx.MOVL(U32(0), k.result("mask"))
	sha1x86.BlockArgs(ctx, hp, ptr, end)
	ctx.MOVQ(ptr, checkP0)
	ctx.Comment("The buffer of W[32..67], aligned to 16 bytes.")
	ctx.LEAQ(buf.Offset(15), checkBuf)
	ctx.ANDQ(I8(-16), checkBuf)

	ctx.Comment("A..D with A in the top lane; E in the top lane of e0, zeros below.")
	x, e := k.reg(of(0, abcd)), k.reg(of(0, e0))
	ctx.MOVOU(Mem{Base: hp}, x)
	ctx.PSHUFD(U8(0x1b), x, x)
	ctx.PXOR(e, e)
	ctx.PINSRD(U8(3), Mem{Base: hp, Disp: 16}, e)
	ctx.MOVOU(mask, k.reg(bswap))

	ctx.Label("loop")
	block(k, 1)
	ctx.Comment("Stop before this block, not absorbing it, if a DV survives its check.")
	if k.gather != nil {
		ctx.VMOVD(gAcc.AsX(), checkMask.As32())
	} else {
		ctx.MOVQ(checkAcc, checkMask)
	}
	ctx.XORL(I32(-1), checkMask.As32()) // the mask, and ZF if it is zero
	ctx.JNZ(LabelRef("flagged"))
	ctx.ADDQ(U8(64), ptr)
	ctx.CMPQ(ptr, end)
	ctx.JNE(LabelRef("loop"))
	k.finish(x, e, hp)
	k.ret()

	ctx.Label("flagged")
	ctx.Comment("h as before the flagged block, and its mask.")
	k.finish(k.reg(of(0, abcdSaved)), k.reg(of(0, eSaved)), hp)
	ctx.MOVL(checkMask.As32(), k.result("mask"))
	ctx.Label("done")
	k.ret()
	return nil
}

// newChecker returns the checker of a kernel with the check in form,
// its operations dealt over the rounds, with its gather table if form is
// CheckGather.
func newChecker(ctx *build.Context, form CheckForm) (*checker, error) {
	dealt, err := dealCheck()
	if err != nil {
		return nil, fmt.Errorf("sha1shani: %w", err)
	}
	k := &checker{emitter: &emitter{ctx: ctx, ptr: []reg.GPPhysical{reg.RSI}}, dealt: dealt, form: form}
	if form == CheckGather {
		k.gatherTable(ctx)
	}
	return k, nil
}

// plan places the stream's registers (emitter.plan) and, with
// CheckBlend, clears the register its Kills take their zeros from, so
// that no kernel or test of the check can leave it out.
func (k *checker) plan(streams int) error {
	if err := k.emitter.plan(streams); err != nil {
		return err
	}
	own := []reg.VecPhysical{checkT[0], checkT[1], checkAcc, checkZero, checkDVs}
	for v, op := range k.at {
		if r, ok := op.(reg.VecPhysical); ok && slices.Contains(own, r) {
			return fmt.Errorf("sha1shani: the stream's %v is in %v, one of the check's registers", v, r)
		}
	}
	if k.form == CheckBlend {
		k.ctx.PXOR(checkZero, checkZero)
	}
	return nil
}

// ret returns, clearing the upper halves of the vector registers first
// when the check used ZMM registers.
func (k *checker) ret() {
	if k.gather != nil {
		k.ctx.VZEROUPPER()
	}
	k.ctx.RET()
}

// finish stores the state x, e into h, in h's order, and the blocks
// absorbed, the distance of the block pointer from p's first block.
func (k *checker) finish(x, e reg.VecPhysical, hp reg.GPPhysical) {
	c := k.ctx
	c.Comment("Store the state in h's order, and the blocks absorbed.")
	c.PSHUFD(U8(0x1b), x, x)
	c.MOVOU(x, Mem{Base: hp})
	c.PEXTRD(U8(3), e, Mem{Base: hp, Disp: 16})
	c.SUBQ(checkP0, k.ptr[0])
	c.SHRQ(U8(6), k.ptr[0])
	c.MOVL(k.ptr[0].As32(), k.result("n"))
}

// result is the memory of the result called name.
func (k *checker) result(name string) Mem { return avogen.Addr(k.ctx.Return(name)) }

// The gather form (AVX-512), on registers the SHA instructions' legacy SSE
// encodings cannot name, so that the two never share one: the two tables
// of W, the accumulator, the gathered operands, and K1. The tables are
// built from the message registers as each group is done, 128 bits at a
// time (VINSERTI32X4), each group in its register's reversed order: the
// second table holds groups 12, 11, 10, 9 and the first 16, 15, 14, 13,
// so W[x] is at 67-x for W[36..64]; W[67], unused, gives its place to
// W[35], blended into group 16's copy from group 8's (saved in X13). Each
// vector of 16 terms runs right after the group that completes its words
// (ubcvec.GatherPlan's order), so most of the check runs while the rounds
// do, and the mask is known soon after group 16.
var (
	gTab   = [2]reg.VecPhysical{reg.Z16, reg.Z17}
	gAcc   = reg.Z18
	gA, gB = reg.Z19, reg.Z20
	gK     = reg.K1
	gG8    = reg.X13 // group 8's words, until group 16
)

// gConstants is the number of constants of a vector: IdxA, IdxB, Rot,
// Eq, Bit, D.
const gConstants = 6

// gatherPos is the table position of W[x].
func gatherPos(x int) int {
	if x == 35 {
		return 0
	}
	return 67 - x
}

// gatherReady is the group after which W[x] is in its table.
func gatherReady(x int) int {
	if x == 35 {
		return checkHi
	}
	return x / 4
}

// gatherTable plans the gather form and emits its constants.
func (k *checker) gatherTable(ctx *build.Context) {
	k.gather = ubcvec.GatherPlan(16, gatherPos, gatherReady)
	var words []uint32
	for _, g := range k.gather {
		for _, c := range [][]uint32{g.IdxA, g.IdxB, g.Rot, g.Eq, g.Bit, g.D} {
			words = append(words, c...)
		}
	}
	k.gtab = avogen.Table(ctx, "ubcGather", words)
}

// afterGroupGather emits the gather form's share of group g: group g into
// its table, then the vectors whose words are now all there, and after
// the last of them the accumulator's lanes ORed together.
func (k *checker) afterGroupGather(g int) {
	c := k.ctx
	w := k.reg(of(0, window(g)))
	switch {
	case g == checkLo:
		c.MOVO(w, gG8)
		c.VPXORD(gAcc, gAcc, gAcc)
	case g > checkLo && g <= 12:
		c.VINSERTI32X4(U8(12-g), w, gTab[1], gTab[1])
	case g > 12 && g < checkHi:
		c.VINSERTI32X4(U8(16-g), w, gTab[0], gTab[0])
	case g == checkHi:
		c.VPBLENDD(U8(1), gG8, w, gG8) // W[35] where W[67] was
		c.VINSERTI32X4(U8(0), gG8, gTab[0], gTab[0])
	}
	last := 0
	for v, vec := range k.gather {
		last = max(last, vec.Ready(gatherReady))
		if vec.Ready(gatherReady) != g {
			continue
		}
		cm := func(i int) Mem { return k.gtab.Offset(64 * (gConstants*v + i)) }
		c.Comment(fmt.Sprintf("The check's vector %d: a = W[A], b = rol(W[B], KA-KB), a ^ b ^ Eq<<KA in bit KA; where set, acc |= DVs.", v))
		c.VMOVDQU32(cm(0), gA)
		c.VPERMI2D(gTab[1], gTab[0], gA)
		c.VMOVDQU32(cm(1), gB)
		c.VPERMI2D(gTab[1], gTab[0], gB)
		c.VPROLVD(cm(2), gB, gB)
		c.VPTERNLOGD(U8(0x96), cm(3), gB, gA)
		c.VPTESTMD(cm(4), gA, gK)
		c.VPORD(cm(5), gAcc, gK, gAcc)
	}
	if g == last {
		c.Comment("The accumulator's lanes ORed into lane 0.")
		c.VEXTRACTI64X4(U8(1), gAcc, gA.AsY())
		c.VPORD(gA.AsY(), gAcc.AsY(), gAcc.AsY())
		c.VEXTRACTI32X4(U8(1), gAcc.AsY(), gA.AsX())
		c.VPORD(gA.AsX(), gAcc.AsX(), gAcc.AsX())
		c.VPSHUFD(U8(0x4e), gAcc.AsX(), gA.AsX())
		c.VPORD(gA.AsX(), gAcc.AsX(), gAcc.AsX())
		c.VPSHUFD(U8(0xb1), gAcc.AsX(), gA.AsX())
		c.VPORD(gA.AsX(), gAcc.AsX(), gAcc.AsX())
	}
}
