package sha1x86

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/frame32"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
	"github.com/simdhash/simdhash/gen/internal/ubcvec"
)

type step = sha1sched.Step

// backend is the x86 backend of sha1sched: it holds the register plan of
// one kernel while the description is emitted through it. The pair kernel
// (avx2.go) uses the same backend with its own driver.
type backend struct {
	ctx *build.Context
	isa ISA
	k   Kernel
	p   Params

	w          [8]reg.VecPhysical // the schedule window: sha1sched.Window(g) is w[g%8]
	t0, t1     reg.VecPhysical    // sha1sched.T0 and T1
	bswap      reg.VecPhysical    // PSHUFB indexes reversing each 32-bit word
	tmp        reg.GPPhysical     // scalar temporary
	scratch    reg.GPPhysical     // tmp as a 64-bit register
	hp         reg.GPPhysical     // *[5]uint32 state; only before h[0] (the same register) is set
	h          [5]Op              // the state, while the loop runs: registers, or (386) h itself
	endMem     Mem                // end, on the stack
	ptr        reg.GPPhysical     // this block; the next one from round 80-Lookahead on
	end        reg.GPPhysical     // one past the last whole block, until stored in endMem (h[1] is the same register)
	ktab, ring Mem                // K table, and the W+K ring on the stack
	bswapMem   Mem                // the PSHUFB byte-swap indexes
	c          sha1sched.Contract // what the kernel keeps and returns besides h
	trace      [2]Mem             // with c.Trace: W and the states, on the stack until Finish copies them out
	spills     Mem                // the spill slots, with fewer than 10 registers for the description
	ret        Mem                // with c.Result: the blocks absorbed, counted in the result slot
	regs       vars               // the registers of round 0 (vars)
	frame      *frame32.Frame     // the argument frame of a 386 kernel (x386.go), laid out for 386; nil on amd64
	// free is, of carry and spare, the register that no round needs at
	// this point of the emission: the rounds note it as they are emitted
	// (freed), and a 386 kernel, which has no register to spare, borrows
	// it for the block pointer and as the rounds' temporary.
	free reg.GPPhysical

	lanes int        // blocks per vector register: 1, or 2 for the pair kernel
	pair  *pairPlan  // the pair kernel's buffers and pointers, else nil
	chk   *checkPlan // with a Checked contract: the UBC check's registers and constants
}

// newBackend returns the backend of a one-block kernel, its constants
// already emitted into ctx.
func newBackend(ctx *build.Context, k Kernel, p Params) *backend {
	e := &backend{
		ctx: ctx, isa: k.isa(ctx), k: k, p: p,
		w:     [8]reg.VecPhysical{reg.X0, reg.X1, reg.X2, reg.X3, reg.X4, reg.X5, reg.X6, reg.X7},
		t0:    reg.X8,
		t1:    reg.X9,
		bswap: reg.X10,
		tmp:   reg.R13L, scratch: reg.R13,
		hp: reg.R9, ptr: reg.R10, end: reg.R11,
		h:     [5]Op{reg.R9L, reg.R11L, reg.R12L, reg.R14L, reg.R15L},
		regs:  vars{a: reg.EAX, b: reg.EBX, c: reg.ECX, d: reg.EDX, e: reg.ESI, carry: reg.EDI, spare: reg.R8L},
		lanes: 1,
	}
	e.constants()
	return e
}

// constants emits the read-only tables: K for each 20 rounds, in every
// lane, and the PSHUFB indexes that byte-swap each 32-bit word.
func (e *backend) constants() {
	e.ktab = avogen.Table(e.ctx, "sha1K", sha1sched.KTable(4*e.lanes))
	e.bswapMem = avogen.Table(e.ctx, "sha1Bswap", sha1sched.ByteSwapTable(4*e.lanes))
}

// --- The function (sha1sched.Backend) ---

func (e *backend) Comment(format string, args ...any) { e.ctx.Commentf(format, args...) }
func (e *backend) Label(name string)                  { e.ctx.Label(name) }
func (e *backend) Jump(label string)                  { e.ctx.JMP(LabelRef(label)) }

// Begin emits the TEXT, the argument loads, h into registers, round 0's
// plain b, and the byte-swap indexes; the ring and end live on the stack,
// and so does a trace until Finish.
func (e *backend) Begin(name string, k sha1sched.Contract) {
	c := e.ctx
	how := "with the " + e.isa.Name() + " instruction set"
	if k.Result == sha1sched.Checked {
		how += ", and stops before the first block whose UBC mask is not zero"
		e.chk = newCheckPlan(c, "ubcD", [ubcvec.Temps]reg.VecPhysical{reg.X11, reg.X12}, reg.X13, 1)
	}
	e.begin(name, attr.NOSPLIT, how, k)
	e.ring = c.AllocLocal(4 * sha1sched.RingWords)
	e.endMem = c.AllocLocal(8)
	if k.Trace != nil {
		e.trace = [2]Mem{c.AllocLocal(4 * 80), c.AllocLocal(20 * len(k.Trace))}
	}
	if e.Registers() < 10 {
		e.spills = c.AllocLocal(16 * 8)
	}
	v := e.vars(0)
	e.loadArgs(e.end, e.endMem, v)
	c.Comment("h kept in registers until the end.")
	for i, r := range []reg.GPPhysical{v.a, v.b, v.c, v.d, v.e} {
		c.MOVL(r, e.h[i])
	}
	c.MOVL(v.b, v.carry) // round 0's plain b
	e.isa.Load(e.bswap, e.bswapMem)
}

func (e *backend) Advance(label string) {
	c := e.ctx
	c.ADDQ(U8(64), e.ptr)
	c.CMPQ(e.ptr, e.endMem)
	c.JAE(LabelRef(label))
}

// KeepState stores a..e after t rounds on the stack, b rotated back from
// the rol5(b) its register holds.
func (e *backend) KeepState(i, t int) {
	c, v := e.ctx, e.vars(t)
	s := e.trace[1].Offset(20 * i)
	c.MOVL(v.b, e.tmp)
	c.RORL(U8(5), e.tmp)
	for j, r := range []reg.GPPhysical{v.a, e.tmp, v.c, v.d, v.e} {
		c.MOVL(r, s.Offset(4*j))
	}
}

func (e *backend) NextBlock() {
	e.checkExit()
	e.count()
	v := e.vars(80)
	for i, r := range e.sum(v) {
		e.ctx.MOVL(r, e.h[i])
	}
	e.ctx.MOVL(v.carry, v.b) // b itself, not rol5(b), for round 0
}

func (e *backend) Finish() {
	e.checkExit()
	e.finish(func(p string) { e.ctx.Load(e.ctx.Param(p), e.ptr) }, e.ptr, e.tmp)
	e.flaggedExit()
}

// finish adds a..e into h and stores it through ptr, which load sets to
// the parameter it names, copies the trace through tmp, and returns.
func (e *backend) finish(load func(param string), ptr, tmp reg.GPPhysical) {
	c := e.ctx
	e.count()
	c.Comment("Store h.")
	load("h")
	for i, r := range e.sum(e.vars(80)) {
		c.MOVL(r, Mem{Base: ptr, Disp: 4 * i})
	}
	if e.c.Trace != nil {
		e.copyTrace(load, ptr, tmp)
	}
	c.Label("done")
	c.RET()
}

// copyTrace copies the trace from the stack to the caller's w and s, each
// pointed at by ptr once load has loaded it, through tmp.
func (e *backend) copyTrace(load func(param string), ptr, tmp reg.GPPhysical) {
	e.ctx.Comment("The trace of the last block.")
	for i, p := range []string{"w", "s"} {
		load(p)
		for off := 0; off < []int{4 * 80, 20 * len(e.c.Trace)}[i]; off += 4 {
			e.ctx.MOVL(e.trace[i].Offset(off), tmp)
			e.ctx.MOVL(tmp, Mem{Base: ptr, Disp: off})
		}
	}
}

// count adds the block just absorbed to the result, if the kernel returns
// the blocks it absorbed.
func (e *backend) count() {
	if e.c.Result == sha1sched.Absorbed || e.c.Result == sha1sched.Checked {
		e.ctx.ADDL(U8(1), e.ret)
	}
}

// sum emits a..e += h, with b the plain copy in carry, and returns the
// registers holding the sums: the new h, and the next block's a..e.
func (e *backend) sum(v vars) []reg.GPPhysical {
	e.Comment("a..e += h (b is the plain copy in carry).")
	regs := []reg.GPPhysical{v.a, v.carry, v.c, v.d, v.e}
	for i, r := range regs {
		e.ctx.ADDL(e.h[i], r)
	}
	return regs
}

// begin starts the TEXT name of contract k with attributes attrs, its
// signature and doc (how says how it hashes), and the schedule as a
// comment in the body, since avo prints no TEXT doc. A result starts at 0.
func (e *backend) begin(name string, attrs attr.Attribute, how string, k sha1sched.Contract) {
	c := e.ctx
	e.c = k
	sched := fmt.Sprintf("Schedule: %s.", e.k.Schedule(e.p))
	c.Function(name)
	c.Attributes(attrs)
	c.SignatureExpr(k.Signature())
	c.Doc(name+" absorbs len(p)/64 whole blocks of p into h, "+how+".", sched)
	c.Comment(sched)
	if k.Result == sha1sched.Absorbed || k.Result == sha1sched.Checked {
		if e.frame != nil {
			e.ret = e.arg("ret")
		} else {
			e.ret = avogen.Addr(c.ReturnIndex(0))
		}
		c.MOVL(U32(0), e.ret)
	}
	if k.Result == sha1sched.Checked {
		c.MOVL(U32(0), avogen.Addr(c.Return("mask")))
	}
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
func (e *backend) loadArgs(scratch reg.GPPhysical, endMem Mem, v vars) {
	c := e.ctx
	BlockArgs(c, e.hp, e.ptr, scratch)
	c.MOVQ(scratch, endMem)
	c.Comment("Working variables a..e from h.")
	for i, r := range []reg.GPPhysical{v.a, v.b, v.c, v.d, v.e} {
		c.MOVL(Mem{Base: e.hp, Disp: 4 * i}, r)
	}
}

// --- The vector schedule (sha1sched.Backend) ---

// Rotate: SSE and AVX rotate a register in place with two shifts and an OR.
func (e *backend) Rotate() sha1sched.RotateShape { return sha1sched.RotateInPlace }

// Registers is the XMM registers but the byte-swap indexes' (Params.Registers
// asks for fewer).
func (e *backend) Registers() int {
	if e.p.Registers > 0 {
		return e.p.Registers
	}
	return 15
}

// v is the register of role r.
func (e *backend) v(r sha1sched.VReg) reg.VecPhysical {
	switch {
	case r.WindowIndex() >= 0:
		return e.w[r.WindowIndex()]
	case r == sha1sched.T0:
		return e.t0
	case r == sha1sched.T1:
		return e.t1
	}
	panic(fmt.Sprintf("sha1x86: no register for %v", r))
}

// Vector lowers op to the ISA's instructions, one step each.
func (e *backend) Vector(op sha1sched.VOp) []step {
	x := e.isa
	reg := func(r sha1sched.VReg) reg.VecPhysical {
		if r == sha1sched.NoReg {
			return nil
		}
		return e.v(r)
	}
	d, a, b, s := reg(op.Dst), reg(op.A), reg(op.B), reg(op.Scratch)
	switch op.Kind {
	case sha1sched.LoadBE:
		return []step{
			func() { e.loadGroup(d, op.Group) },
			func() { x.Shuffle(d, d, e.bswap) },
		}
	case sha1sched.Xor:
		return []step{func() { x.Xor(d, a, b) }}
	case sha1sched.Straddle:
		return []step{func() { e.straddle(d, b, a) }}
	case sha1sched.WordsDown:
		return []step{func() { x.ShrBytes(d, a, 4*op.N) }}
	case sha1sched.WordsUp:
		return []step{func() { x.ShlBytes(d, a, 4*op.N) }}
	case sha1sched.Rol:
		if d != a || s == nil {
			panic(fmt.Sprintf("sha1x86: %v: a rotate here works in place, with a scratch register", op))
		}
		if op.N == 1 {
			return []step{
				func() { x.Add32(s, a, a) }, // a << 1, on the adders rather than the shifter
				func() { x.Shr32(a, a, 31) },
				func() { x.Or(a, a, s) },
			}
		}
		return []step{
			func() { x.Shr32(s, a, 32-op.N) },
			func() { x.Shl32(a, a, op.N) },
			func() { x.Or(a, a, s) },
		}
	case sha1sched.XorRol:
		// The two halves of rol(a) share no bit: XOR each into d.
		return []step{
			func() { x.Shl32(s, a, op.N) },
			func() { x.Shr32(a, a, 32-op.N) },
			func() { x.Xor(d, d, s) },
			func() { x.Xor(d, d, a) },
		}
	case sha1sched.AddK:
		return []step{func() { x.AddMem32(d, a, e.kConst(op.Word)) }}
	case sha1sched.Store:
		return []step{func() { x.Store(e.mem(op.WK.Record()), a) }}
	case sha1sched.KeepW:
		return []step{func() { x.Store(e.trace[0].Offset(4*op.Word), a) }}
	case sha1sched.Spill:
		return []step{func() { x.Store(e.spills.Offset(op.WK.Record().Off), a) }}
	case sha1sched.Reload:
		return []step{func() { x.Load(d, e.spills.Offset(op.WK.Record().Off)) }}
	}
	panic(fmt.Sprintf("sha1x86: no lowering of %v", op))
}

// straddle sets dst to the middle four words of hi:lo, [lo2 lo3 hi0 hi1],
// as Params.Align says. dst must not be hi.
func (e *backend) straddle(dst, hi, lo reg.VecPhysical) {
	if e.p.Align == AlignUnpack {
		e.isa.Shuffle32(dst, lo, 0x4e) // [lo2 lo3 lo0 lo1]
		e.isa.UnpackLo64(dst, dst, hi)
		return
	}
	e.isa.Align(dst, hi, lo, 8)
}

// kConst is the memory operand holding K for word t, replicated in every lane.
func (e *backend) kConst(t int) Mem { return e.ktab.Offset(e.lanes * 16 * (t / 20)) }

// loadGroup loads the message words 4g..4g+3 of the block being loaded
// into w: with two lanes, those of the pair's second block (at the pair's
// hi pointer) into the high lane.
func (e *backend) loadGroup(w reg.VecPhysical, g int) {
	if e.pair == nil {
		e.isa.Load(w, Mem{Base: e.ptr, Disp: 16 * g})
		return
	}
	e.isa.Load(w.AsX().(reg.VecPhysical), Mem{Base: e.pair.lo, Disp: 16 * g})
	e.ctx.VINSERTI128(U8(1), Mem{Base: e.pair.hi, Disp: 16 * g}, w, w)
}

// mem is the memory of a W+K slot: in the ring on the stack, or in the
// pair kernel's buffer that the slot's register points at.
func (e *backend) mem(s sha1sched.Slot) Mem {
	if e.pair != nil {
		return Mem{Base: e.pair.bufReg(s.Buf), Disp: s.Off}
	}
	return e.ring.Offset(s.Off)
}
