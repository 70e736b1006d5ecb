package sha1x86

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// emitter holds the register plan of one kernel while it is emitted.
type emitter struct {
	ctx *build.Context
	isa ISA
	p   Params

	w          [windowGroups]reg.VecPhysical // the schedule window, group g in w[g%8]
	t0, t1     reg.VecPhysical               // vector temporaries
	bswap      reg.VecPhysical               // PSHUFB indexes reversing each 32-bit word
	tmp        reg.GPPhysical                // scalar temporary
	scratch    reg.GPPhysical                // tmp as a 64-bit register
	hp         reg.GPPhysical                // *[5]uint32 state; only before h[0] (the same register) is set
	h          [5]reg.GPPhysical             // the state, while the loop runs
	endMem     Mem                           // end, on the stack
	ptr        reg.GPPhysical                // this block; the next one from round 80-Lookahead on
	end        reg.GPPhysical                // one past the last whole block, until stored in endMem (h[1] is the same register)
	ktab, ring Mem                           // K table, and the W+K ring on the stack
	bswapMem   Mem                           // the PSHUFB byte-swap indexes

	model []ringEvent // ring accesses, in emission order

	lanes int       // blocks per vector register: 1, or 2 for the pair kernel
	pair  *pairPlan // the pair kernel's buffers and pointers, else nil
}

// Generate emits the kernel block<ISA>(h *[5]uint32, p []byte) into ctx
// (blockAVX, blockSSSE3): it absorbs len(p)/64 whole blocks of p into h.
func Generate(ctx *build.Context, isa ISA, p Params) error {
	return GenerateFunc(ctx, isa, p, "block"+upper(isa.Name()))
}

// GenerateFunc is Generate with the function named name.
func GenerateFunc(ctx *build.Context, isa ISA, p Params, name string) error {
	if err := p.Validate(); err != nil {
		return err
	}
	return generate(ctx, isa, p, name)
}

// generate is GenerateFunc without the up-front Validate, so that tests can
// show the ring model rejecting what Validate would have.
func generate(ctx *build.Context, isa ISA, p Params, name string) error {
	e := &emitter{
		ctx: ctx, isa: isa, p: p,
		w:     [windowGroups]reg.VecPhysical{reg.X0, reg.X1, reg.X2, reg.X3, reg.X4, reg.X5, reg.X6, reg.X7},
		t0:    reg.X8,
		t1:    reg.X9,
		bswap: reg.X10,
		tmp:   reg.R13L, scratch: reg.R13,
		hp: reg.R9, ptr: reg.R10, end: reg.R11,
		h:     [5]reg.GPPhysical{reg.R9L, reg.R11L, reg.R12L, reg.R14L, reg.R15L},
		lanes: 1,
	}
	e.constants()
	return e.function(name)
}

// constants emits the read-only tables: K for each 20 rounds, four copies
// per 16 bytes, and the PSHUFB indexes that byte-swap each 32-bit word.
func (e *emitter) constants() {
	c := e.ctx
	e.ktab = c.StaticGlobal("sha1K")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	per := 4 * e.lanes // copies of each K
	for i := 0; i < 4*per; i++ {
		c.AddDatum(4*i, U32(roundK(20*(i/per))))
	}
	mask := c.StaticGlobal("sha1Bswap")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for i := 0; i < 4*e.lanes; i++ {
		// Little-endian word i holds the byte indexes 4i+3, 4i+2, 4i+1, 4i.
		b := uint32(4 * (i % 4))
		c.AddDatum(4*i, U32(b+3|(b+2)<<8|(b+1)<<16|b<<24))
	}
	e.bswapMem = mask
}

func (e *emitter) comment(format string, args ...any) { e.ctx.Commentf(format, args...) }

// function emits the TEXT: argument loads, the prologue that fills the
// ring for the first block, the loop body (its rounds up to where the
// look-ahead reaches the next block, then the rest), the copy of the last
// rounds that finishes the last block without the look-ahead, and the
// store of h.
func (e *emitter) function(name string) error {
	c := e.ctx
	e.begin(name, attr.NOSPLIT, "with the "+e.isa.Name()+" instruction set")
	e.ring = c.AllocLocal(4 * ringWords)
	e.endMem = c.AllocLocal(8)
	v := vars{a: reg.EAX, b: reg.EBX, c: reg.ECX, d: reg.EDX, e: reg.ESI, carry: reg.EDI, spare: reg.R8L}
	e.loadArgs(e.end, e.endMem, v)
	c.Comment("h kept in registers until the end.")
	for i, r := range []reg.GPPhysical{v.a, v.b, v.c, v.d, v.e} {
		c.MOVL(r, e.h[i])
	}
	c.MOVL(v.b, v.carry) // round 0's plain b
	e.isa.Load(e.bswap, e.bswapMem)

	c.Comment(fmt.Sprintf("Prologue: W+K for rounds 0..%d of the first block.", e.p.Lookahead-1))
	for r := -e.p.Lookahead; r < 0; r++ {
		for _, s := range e.precalc(r) {
			s()
		}
	}
	prologue := e.model
	e.model = nil

	c.Label("loop")
	// From round first on, the rounds host the look-ahead's steps for the
	// next block (its groups 0..3), which load from it. There the loop
	// advances to that block; after the last block it branches to a copy of
	// the remaining rounds without the look-ahead, so nothing past the input
	// is read and no block pointer has to be chosen without a branch.
	first := 80 - e.p.Lookahead
	for t := 0; t < first; t++ {
		e.merge(e.roundSteps(t, v), e.precalc(t))
		v = v.next()
	}
	head := e.model
	e.model = nil
	c.Comment("Advance to the next block, or finish the last one without the look-ahead.")
	c.ADDQ(U8(64), e.ptr)
	c.CMPQ(e.ptr, e.endMem)
	c.JAE(LabelRef("last"))
	vLast := v
	for t := first; t < 80; t++ {
		e.merge(e.roundSteps(t, v), e.precalc(t))
		v = v.next()
	}
	next := e.model
	e.model = nil
	for i, r := range e.sum(v) {
		c.MOVL(r, e.h[i])
	}
	c.MOVL(v.carry, v.b) // b itself, not rol5(b), for round 0
	c.JMP(LabelRef("loop"))

	c.Label("last")
	v = vLast
	for t := first; t < 80; t++ {
		e.merge(e.roundSteps(t, v), nil)
		v = v.next()
	}
	if err := checkRing(prologue, head, next, e.model); err != nil {
		return fmt.Errorf("%s with %s: %w", name, e.p, err)
	}
	c.Comment("Store h.")
	c.Load(c.Param("h"), e.ptr)
	for i, r := range e.sum(v) {
		c.MOVL(r, Mem{Base: e.ptr, Disp: 4 * i})
	}

	c.Label("done")
	c.RET()
	return nil
}

// sum emits a..e += h, with b the plain copy in carry, and returns the
// registers holding the sums: the new h, and the next block's a..e.
func (e *emitter) sum(v vars) []reg.GPPhysical {
	e.comment("a..e += h (b is the plain copy in carry).")
	regs := []reg.GPPhysical{v.a, v.carry, v.c, v.d, v.e}
	for i, r := range regs {
		e.ctx.ADDL(e.h[i], r)
	}
	return regs
}

// begin starts the TEXT name with attributes attrs, its signature and doc
// (how says how it hashes), and the schedule as a comment in the body, since
// avo prints no TEXT doc.
func (e *emitter) begin(name string, attrs attr.Attribute, how string) {
	c := e.ctx
	c.Function(name)
	c.Attributes(attrs)
	c.SignatureExpr("func(h *[5]uint32, p []byte)")
	c.Doc(name+" absorbs len(p)/64 whole blocks of p into h, "+how+".", fmt.Sprintf("Schedule: %s.", e.p))
	c.Comment(fmt.Sprintf("Schedule: %s.", e.p))
}

// BlockArgs emits the start of every SHA-1 block function's body,
// func(h *[5]uint32, p []byte): h into hp, p's base into ptr, and end = p +
// len(p) rounded down to whole blocks, with a jump to "done" when there is
// no whole block.
func BlockArgs(c *build.Context, hp, ptr, end reg.GPPhysical) {
	c.Load(c.Param("h"), hp)
	c.Load(c.Param("p").Base(), ptr)
	c.Load(c.Param("p").Len(), end)
	c.Comment("Nothing to do without a whole block; end = p + len(p) rounded down to blocks.")
	c.ANDQ(I32(-64), end)
	c.JZ(LabelRef("done"))
	c.ADDQ(ptr, end)
}

// loadArgs emits BlockArgs with end computed in scratch and stored into
// endMem, then loads the working variables a..e of v from h.
func (e *emitter) loadArgs(scratch reg.GPPhysical, endMem Mem, v vars) {
	c := e.ctx
	BlockArgs(c, e.hp, e.ptr, scratch)
	c.MOVQ(scratch, endMem)
	c.Comment("Working variables a..e from h.")
	for i, r := range []reg.GPPhysical{v.a, v.b, v.c, v.d, v.e} {
		c.MOVL(Mem{Base: e.hp, Disp: 4 * i}, r)
	}
}

// precalc returns the vector steps that round r hosts: one quarter of the
// group holding word r+Lookahead. Rounds 80-Lookahead..79 host the first
// groups of the next block, which ptr points at by then; negative rounds
// are the prologue.
func (e *emitter) precalc(r int) []step {
	w := r + e.p.Lookahead
	return e.chunk(e.groupSteps(w/wordsPerGroup, e.ptr), w%wordsPerGroup)
}

// merge emits a round's scalar steps with its vector steps after the first
// scalar step (the ring read): all together when Params.Placement is
// "front", else spread evenly between the scalar steps.
func (e *emitter) merge(scalar, vector []step) {
	n, m := len(scalar), len(vector)
	k := 0
	for i, s := range scalar {
		s()
		for ; k < m && (e.p.Placement == "front" || k*(n-1)/m <= i); k++ {
			vector[k]()
		}
	}
}

func upper(s string) string {
	b := []byte(s)
	for i, ch := range b {
		if 'a' <= ch && ch <= 'z' {
			b[i] = ch - 'a' + 'A'
		}
	}
	return string(b)
}
