package sha1shani

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// The Lanes form: the interleaved streams as a multi-lane kernel of
// sha1.SumMany (sha1sched.Lanes, whose contract gen/internal/sha1many
// states), one stream per lane. The rounds are block's, stream by stream
// within each group; around them:
//
//   - the state is h[i][l], one word of every lane per row, so a stream's
//     A..D is gathered from four rows (PINSRD) and scattered back
//     (PEXTRD) once per call;
//   - each stream's block pointer advances as the vector kernels' do: to
//     the next block, to p[1][l] at block c[0][l], and not at all once
//     its count c[1][l] has run out, where it rereads its last block;
//   - a stream whose count has run out retires: before the block's result
//     is added to its saved state, retire ANDs the result with a mask of
//     zeros (all ones while the stream absorbs blocks), so its state stays
//     as it was.
//
// Registers. A stream needs nine roles (abcd .. eSaved), and all share
// bswap: 19 for two streams, 28 for three, 37 for four, against the 16
// XMM registers. lanePlan keeps in registers, in this order, every
// stream's abcd, their schedule windows, the E registers, and bswap, as
// many as fit beside one scratch register, and puts the rest in 16-byte
// aligned stack slots: the saved states first (written and read once a
// block), then the E registers (two stores and a load a group), then
// bswap (read four times a block), then window registers. A role in a
// slot is read as the instruction's memory operand (aligned, as the SSE
// encodings need), and written through the scratch register, which keeps
// the last role written there until another needs it (storing it back
// first, unless it is an E register just read by its SHA1RNDS4, after
// which E is dead).

// laneRegs are the general registers of the Lanes kernels.
var (
	lhp   = reg.RDI // h
	lpp   = reg.RSI // p
	lcp   = reg.RDX // c
	lend  = reg.RCX // n
	loff  = reg.RBX // the blocks done
	ladv  = reg.RAX // a stream's next block pointer
	lbase = reg.R12 // the stack slots, aligned to 16 bytes
	lmask = reg.R13 // a stream's retire mask, as an integer
	lptr  = []reg.GPPhysical{reg.R8, reg.R9, reg.R10, reg.R11}
)

// maxLanes is the room for lanes in the arrays of the Lanes form.
const maxLanes = 16

// laneEmitter implements machine with avo for the Lanes form, on the
// places of lanePlan.
type laneEmitter struct {
	ctx     *build.Context
	at      map[vec]Op      // each role: an XMM register, or a slot (Mem on lbase)
	scratch reg.VecPhysical // holds the role cached, if any
	cached  vec             // the role in scratch, or none
	dirty   bool            // scratch holds a value its slot does not
	slots   int             // the stack slots used
}

// none is no role: the scratch register caches nothing.
const none vec = -2

// lanePlan places the roles of streams streams.
func (a *laneEmitter) plan(streams int) {
	xmm := []reg.VecPhysical{reg.X0, reg.X1, reg.X2, reg.X3, reg.X4, reg.X5, reg.X6, reg.X7,
		reg.X8, reg.X9, reg.X10, reg.X11, reg.X12, reg.X13, reg.X14}
	a.scratch, a.cached = reg.X15, none
	var order []vec // the roles, most deserving of a register first
	for s := range streams {
		order = append(order, of(s, abcd))
	}
	for s := range streams {
		for r := msg0; r <= msg3; r++ {
			order = append(order, of(s, r))
		}
	}
	for s := range streams {
		order = append(order, of(s, e0), of(s, e1))
	}
	order = append(order, bswap)
	// Window registers go to slots last stream first, the highest first,
	// after the others; the saved states never get a register.
	regs := order
	if len(regs) > len(xmm) {
		regs = regs[:len(xmm)]
	}
	a.at = map[vec]Op{}
	for i, v := range regs {
		a.at[v] = xmm[i]
	}
	slot := func(v vec) {
		if _, ok := a.at[v]; !ok {
			a.at[v] = Mem{Base: lbase, Disp: 16 * a.slots}
			a.slots++
		}
	}
	for s := range streams {
		slot(of(s, abcdSaved))
		slot(of(s, eSaved))
	}
	for _, v := range order {
		slot(v)
	}
}

// flush stores the cached role back to its slot if it changed there, and
// empties the cache: before branches and labels, and before other uses of
// scratch.
func (a *laneEmitter) flush() {
	if a.cached != none && a.dirty {
		a.ctx.MOVOA(a.scratch, a.at[a.cached])
	}
	a.cached, a.dirty = none, false
}

// src is v as a source operand: its register, the scratch register if it
// caches v, or its slot.
func (a *laneEmitter) src(v vec) Op {
	if v == a.cached {
		return a.scratch
	}
	return a.at[v]
}

// dst is the register in which to modify v (read and written): its own, or
// the scratch register with v loaded into it.
func (a *laneEmitter) dst(v vec) reg.VecPhysical {
	if x, ok := a.at[v].(reg.VecPhysical); ok {
		return x
	}
	if v != a.cached {
		a.flush()
		a.ctx.MOVOA(a.at[v], a.scratch)
		a.cached = v
	}
	a.dirty = true
	return a.scratch
}

func (a *laneEmitter) comment(text string) { a.ctx.Comment(text) }

func (a *laneEmitter) loadWords(dst vec, s, g int) {
	m := Mem{Base: lptr[s], Disp: 16 * g}
	if x, ok := a.at[dst].(reg.VecPhysical); ok {
		a.ctx.MOVOU(m, x)
		a.ctx.PSHUFB(a.src(bswap), x)
		return
	}
	if dst != a.cached {
		a.flush()
		a.cached = dst
	}
	a.dirty = true
	a.ctx.MOVOU(m, a.scratch)
	a.ctx.PSHUFB(a.src(bswap), a.scratch)
}

func (a *laneEmitter) copy(dst, src vec) {
	switch d := a.at[dst].(type) {
	case reg.VecPhysical:
		a.ctx.MOVO(a.src(src), d)
	case Mem:
		s, ok := a.src(src).(reg.VecPhysical)
		if !ok { // slot to slot, through the scratch register
			a.flush()
			a.ctx.MOVOA(a.at[src], a.scratch)
			a.cached, s = src, a.scratch
		}
		if dst == a.cached {
			a.cached, a.dirty = none, false
		}
		a.ctx.MOVOA(s, d)
	}
}

// rmw emits op(src, dst), dst read and written: if dst must take the
// scratch register from src, src is stored back and read from its slot.
func (a *laneEmitter) rmw(op func(src, dst Op), dst, src vec) {
	if _, ok := a.at[dst].(reg.VecPhysical); !ok && dst != a.cached && src == a.cached {
		a.flush()
	}
	s := a.src(src)
	op(s, a.dst(dst))
}

func (a *laneEmitter) add32(dst, src vec) { a.rmw(a.ctx.PADDL, dst, src) }
func (a *laneEmitter) xor(dst, src vec)   { a.rmw(a.ctx.PXOR, dst, src) }
func (a *laneEmitter) nexte(dst, src vec) { a.rmw(a.ctx.SHA1NEXTE, dst, src) }
func (a *laneEmitter) msg1(dst, src vec)  { a.rmw(a.ctx.SHA1MSG1, dst, src) }
func (a *laneEmitter) msg2(dst, src vec)  { a.rmw(a.ctx.SHA1MSG2, dst, src) }

// rnds4 runs the rounds; src is a group's E+W, dead once they have read
// it (its register's next value is a copy of A..D), so the scratch
// register need not store it back.
func (a *laneEmitter) rnds4(dst, src vec, f int) {
	a.rmw(func(s, d Op) { a.ctx.SHA1RNDS4(U8(f), s, d) }, dst, src)
	if src == a.cached {
		a.dirty = false
	}
}

// retire zeroes stream s's block result (A..D, and the A whose rol30 the
// final SHA1NEXTE adds to the saved E) unless the stream absorbs the block
// (c[1][s] > the blocks done): SBB turns the comparison into 0 or -1,
// which PSHUFD spreads over the four lanes.
func (a *laneEmitter) retire(s int) {
	c := a.ctx
	a.flush()
	c.CMPL(loff.As32(), Mem{Base: lcp, Disp: 4 * (maxLanes + s)}) // CF: blocks done < count
	c.SBBL(lmask.As32(), lmask.As32())
	c.MOVD(lmask.As32(), a.scratch)
	c.PSHUFD(U8(0), a.scratch, a.scratch)
	for _, v := range []vec{of(s, abcd), of(s, eReg(groups))} {
		if x, ok := a.at[v].(reg.VecPhysical); ok {
			c.PAND(a.scratch, x)
			continue
		}
		c.PAND(a.at[v], a.scratch)
		c.MOVOA(a.scratch, a.at[v])
		if v == of(s, abcd) {
			c.MOVD(lmask.As32(), a.scratch)
			c.PSHUFD(U8(0), a.scratch, a.scratch)
		}
	}
}

// GenerateLanes emits the kernel name of the Lanes form (sha1sched.Lanes)
// for streams streams, 2 to 4, one stream per lane: it absorbs lane l's
// c[1][l] of the n blocks into h[.][l], c[0][l] of them at p[0][l] and the
// rest at p[1][l], for l < streams, and leaves the other lanes of h alone;
// it prefetches p[2][l] and p[3][l] at its start; it reads nothing but the
// lanes' blocks.
func GenerateLanes(ctx *build.Context, name string, streams int) error {
	if streams < 2 || streams > len(lptr) {
		return fmt.Errorf("sha1shani: a Lanes kernel of %d streams: want 2 to %d", streams, len(lptr))
	}
	c := sha1sched.Contract{Form: sha1sched.Lanes}
	a := &laneEmitter{ctx: ctx}
	a.plan(streams)

	mask := bswapTable(ctx, fmt.Sprintf("shaniLanes%dBswap", streams))

	ctx.Function(name)
	var attrs attr.Attribute
	if a.slots == 0 {
		attrs = attr.NOSPLIT
	}
	ctx.Attributes(attrs)
	ctx.SignatureExpr(c.Signature())
	ctx.Comment(fmt.Sprintf("%s absorbs n blocks of each of %d lanes into h: %d streams of the SHA", name, streams, streams),
		"instructions, interleaved group by group (gen/internal/sha1shani, lanes.go).")
	ctx.Load(ctx.Param("h"), lhp)
	ctx.Load(ctx.Param("p"), lpp)
	ctx.Load(ctx.Param("c"), lcp)
	ctx.Load(ctx.Param("n"), lend)
	ctx.Comment("Nothing to do without a block.")
	ctx.TESTQ(lend, lend)
	ctx.JZ(LabelRef("done"))
	ctx.XORL(loff.As32(), loff.As32())
	if a.slots > 0 {
		m := ctx.AllocLocal(16*a.slots + 16)
		ctx.Comment("The stack slots, aligned to 16 bytes.")
		ctx.LEAQ(m, lbase)
		ctx.ADDQ(U8(15), lbase)
		ctx.ANDQ(I8(-16), lbase)
	}
	ctx.Comment("Prefetch the lanes' next messages (p[2], p[3]).")
	for i := 0; i < 2*streams; i++ {
		ctx.MOVQ(Mem{Base: lpp, Disp: 8 * (2*maxLanes + i%streams + maxLanes*(i/streams))}, ladv)
		ctx.PREFETCHT0(Mem{Base: ladv})
	}
	for s, p := range lptr[:streams] {
		ctx.MOVQ(Mem{Base: lpp, Disp: 8 * s}, p)
	}

	ctx.Comment("Each stream's A..D from h's rows, A in the top lane; E in the top lane of e0, zeros below.")
	ctx.MOVOU(mask, a.scratch)
	a.cached, a.dirty = bswap, true
	a.flush()
	for s := range streams {
		for _, v := range []vec{of(s, abcd), of(s, e0)} {
			x, inReg := a.at[v].(reg.VecPhysical)
			if !inReg {
				x = a.scratch
			}
			if v == of(s, abcd) {
				ctx.MOVD(Mem{Base: lhp, Disp: 3*4*maxLanes + 4*s}, x)
				for i := 1; i < 4; i++ {
					ctx.PINSRD(U8(i), Mem{Base: lhp, Disp: (3-i)*4*maxLanes + 4*s}, x)
				}
			} else {
				ctx.PXOR(x, x)
				ctx.PINSRD(U8(3), Mem{Base: lhp, Disp: 4*4*maxLanes + 4*s}, x)
			}
			if !inReg {
				ctx.MOVOA(x, a.at[v])
			}
		}
	}

	ctx.Label("loop")
	block(a, streams)
	a.flush()
	ctx.Comment("The next block: the one after, or p[1] at block c[0]; none from block c[1] on.")
	ctx.INCQ(loff)
	ctx.CMPQ(loff, lend)
	ctx.JAE(LabelRef("store"))
	for s, p := range lptr[:streams] {
		ctx.LEAQ(Mem{Base: p, Disp: 64}, ladv)
		ctx.CMPL(Mem{Base: lcp, Disp: 4 * s}, loff.As32())
		ctx.CMOVQEQ(Mem{Base: lpp, Disp: 8 * (maxLanes + s)}, ladv)
		ctx.CMPL(Mem{Base: lcp, Disp: 4 * (maxLanes + s)}, loff.As32())
		ctx.CMOVQGT(ladv, p)
	}
	ctx.JMP(LabelRef("loop"))

	ctx.Label("store")
	ctx.Comment("Each stream's state back into h's rows.")
	for s := range streams {
		for _, v := range []vec{of(s, abcd), of(s, e0)} {
			x, inReg := a.at[v].(reg.VecPhysical)
			if !inReg {
				x = a.scratch
				ctx.MOVOA(a.at[v], x)
			}
			if v == of(s, abcd) {
				for i := 0; i < 4; i++ {
					ctx.PEXTRD(U8(i), x, Mem{Base: lhp, Disp: (3-i)*4*maxLanes + 4*s})
				}
			} else {
				ctx.PEXTRD(U8(3), x, Mem{Base: lhp, Disp: 4*4*maxLanes + 4*s})
			}
		}
	}
	ctx.Label("done")
	ctx.RET()
	return nil
}
