package sha1x86

import (
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The pair kernel ("avx2") runs the same schedule groups as the others on
// YMM registers: block N in the low 128-bit lane, block N+1 in the high
// one, so one pass of the vector steps computes W+K for two blocks. The
// result for a whole pair (2 x 80 words) goes to one of two stack buffers
// while the scalar rounds of the previous pair read the other: the
// precalculation runs a whole pair ahead, its 20 groups spread over the 160
// rounds of the pair being hashed (groups 0..9 during block N, 10..19 during
// block N+1), and the buffers swap roles after each pair. The rounds use
// BMI1 and BMI2: RORX rotates without a copy, ANDN gives ^b & d in one step.
//
// An odd last block is hashed alone: its high lane is loaded from the low
// block again and never read. Loads for the pair after the last one are
// pointed at the last pair, so nothing outside the input is read.

// AVX2 returns the ISA of the "avx2" pair kernel: VEX encodings on YMM
// registers (every schedule step acts lane by lane).
func AVX2(ctx *build.Context) ISA { return avx2{avx{ctx}} }

type avx2 struct{ avx }

func (avx2) Name() string { return "avx2" }

// pairPlan holds the registers and buffers of the pair kernel.
type pairPlan struct {
	bufs      [2]Mem         // two W+K buffers of 640 bytes: group g at 32g, block N then N+1
	cur, next reg.GPPhysical // the buffer the rounds read, and the one the schedule writes
	lo, hi    reg.GPPhysical // the next pair's first and second block
	end       Mem            // one past the last whole block (a stack slot)
}

const pairBufBytes = 2 * 4 * 80 // two blocks' 80 words

// slot is buffer b's 16 bytes for W[t..t+3]+K of the pair's first block;
// the second block's follow them.
func (pp *pairPlan) slot(b reg.GPPhysical, t int) Mem { return Mem{Base: b, Disp: 32*(t/4) + 4*(t%4)} }

// GenerateAVX2 emits the pair kernel name(h *[5]uint32, p []byte).
// Of Params it uses Align; the others describe the one-block kernels.
func GenerateAVX2(ctx *build.Context, p Params, name string) error {
	if err := p.Validate(); err != nil {
		return err
	}
	e := &emitter{
		ctx: ctx, isa: AVX2(ctx), p: p,
		w:     [windowGroups]reg.VecPhysical{reg.Y0, reg.Y1, reg.Y2, reg.Y3, reg.Y4, reg.Y5, reg.Y6, reg.Y7},
		t0:    reg.Y8,
		t1:    reg.Y9,
		bswap: reg.Y10,
		tmp:   reg.EDI, scratch: reg.RDI,
		hp: reg.R9, ptr: reg.R10,
		lanes: 2,
		pair:  &pairPlan{cur: reg.R12, next: reg.R13, lo: reg.R14, hi: reg.R11},
	}
	e.constants()
	return e.pairFunction(name)
}

func (e *emitter) pairFunction(name string) error {
	c, pp := e.ctx, e.pair
	// Not NOSPLIT: 1.3 KB of buffers is over the nosplit limit.
	e.begin(name, 0, "two blocks per vector pass, with AVX2, BMI1 and BMI2")
	pp.bufs = [2]Mem{c.AllocLocal(pairBufBytes), c.AllocLocal(pairBufBytes)}
	pp.end = c.AllocLocal(8)
	v := vars{a: reg.EAX, b: reg.EBX, c: reg.ECX, d: reg.EDX, e: reg.ESI}
	e.loadArgs(e.scratch, pp.end, v)
	e.isa.Load(e.bswap, e.bswapMem)
	c.LEAQ(pp.bufs[0], pp.cur)
	c.LEAQ(pp.bufs[1], pp.next)

	c.Comment("Prologue: W+K of the first pair, into the buffer the first rounds read.")
	c.XCHGQ(pp.cur, pp.next)
	c.MOVQ(e.ptr, pp.lo)
	e.pairPointers(pp.lo)
	for g := 0; g < groupsPerBlock; g++ {
		for _, s := range e.groupSteps(g, pp.lo) {
			s()
		}
	}
	c.XCHGQ(pp.cur, pp.next)

	c.Label("loop")
	c.Comment("The next pair: p+128 and p+192, each pointed back at the last block it would pass.")
	c.LEAQ(Mem{Base: e.ptr, Disp: 128}, pp.lo)
	e.pairPointers(pp.lo)
	for half := 0; half < 2; half++ {
		if half == 1 {
			c.Comment("An odd last block has no partner: stop after it.")
			c.LEAQ(Mem{Base: e.ptr, Disp: 64}, e.scratch)
			c.CMPQ(e.scratch, pp.end)
			c.JAE(LabelRef("done"))
		}
		for t := 0; t < 80; t++ {
			// Groups 10*half .. 10*half+9 of the next pair, one per 8 rounds.
			g := 10*half + t/8
			steps := e.groupSteps(g, pp.lo)
			n := len(steps)
			k := t % 8
			e.merge(e.bmiRoundSteps(t, half, v), steps[k*n/8:(k+1)*n/8])
			v = v.next()
		}
		c.Commentf("h += a..e after block %d of the pair.", half)
		for i, r := range []reg.GPPhysical{v.a, v.b, v.c, v.d, v.e} {
			m := Mem{Base: e.hp, Disp: 4 * i}
			c.ADDL(m, r)
			c.MOVL(r, m)
		}
	}
	c.ADDQ(U8(128), e.ptr)
	c.XCHGQ(pp.cur, pp.next)
	c.CMPQ(e.ptr, pp.end)
	c.JB(LabelRef("loop"))

	c.Label("done")
	c.VZEROUPPER()
	c.RET()
	return nil
}

// pairPointers sets the pair's load pointers from lo, which holds the
// first block's address or one past the end: lo = lo < end ? lo : p,
// hi = lo+64 < end ? lo+64 : lo. Branch-free (SBB), so no CMOV is needed.
func (e *emitter) pairPointers(lo reg.GPPhysical) {
	c, pp, s := e.ctx, e.pair, e.scratch
	c.CMPQ(lo, pp.end)
	c.SBBQ(s, s) // all ones if lo < end
	c.SUBQ(e.ptr, lo)
	c.ANDQ(s, lo)
	c.ADDQ(e.ptr, lo) // lo, or p
	c.LEAQ(Mem{Base: lo, Disp: 64}, pp.hi)
	c.CMPQ(pp.hi, pp.end)
	c.SBBQ(s, s)
	c.ANDQ(U8(64), s)
	c.LEAQ(Mem{Base: lo, Index: s, Scale: 1}, pp.hi)
}

// bmiRoundSteps returns the scalar instructions of round t of the pair's
// block half, with BMI1/BMI2:
//
//	e += W[t]+K;  e += f_t(b, c, d);  e += rorx(a, 27);  b = rorx(b, 2)
//
// Ch and Maj are each added into e as two halves with no bit in common.
func (e *emitter) bmiRoundSteps(t, half int, v vars) []step {
	c, pp := e.ctx, e.pair
	t1, t2 := reg.EDI, reg.R8L
	wk := pp.slot(pp.cur, t)
	wk.Disp += 16 * half
	steps := []step{func() {
		e.comment("Round %d of block %d", t, half)
		c.ADDL(wk, v.e)
	}}
	switch t / 20 {
	case 0: // Ch = (^b & d) + (b & c)
		steps = append(steps,
			func() { c.ANDNL(v.d, v.b, t1) },
			func() { c.ADDL(t1, v.e) },
			func() { c.MOVL(v.c, t2) },
			func() { c.ANDL(v.b, t2) },
			func() { c.ADDL(t2, v.e) },
		)
	case 1, 3: // Parity = b ^ c ^ d
		steps = append(steps,
			func() { c.MOVL(v.c, t1) },
			func() { c.XORL(v.d, t1) },
			func() { c.XORL(v.b, t1) },
			func() { c.ADDL(t1, v.e) },
		)
	case 2: // Maj = (c & d) + (b & (c ^ d))
		steps = append(steps,
			func() { c.MOVL(v.c, t1) },
			func() { c.ANDL(v.d, t1) },
			func() { c.ADDL(t1, v.e) },
			func() { c.MOVL(v.c, t2) },
			func() { c.XORL(v.d, t2) },
			func() { c.ANDL(v.b, t2) },
			func() { c.ADDL(t2, v.e) },
		)
	}
	steps = append(steps,
		func() { c.RORXL(U8(27), v.a, t1) }, // rol5(a)
		func() { c.ADDL(t1, v.e) },
		func() { c.RORXL(U8(2), v.b, v.b) }, // rol30(b)
	)
	return steps
}
