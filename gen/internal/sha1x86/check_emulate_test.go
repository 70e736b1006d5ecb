package sha1x86

import (
	"math/rand/v2"
	"testing"

	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/gentest"
	"github.com/simdhash/simdhash/gen/internal/ubcvec"
)

// checkOnly emits check(w *[160]uint32) uint64: the UBC check of
// ubcvec.Ops as kernel k lowers it, on groups 8..16 of one W (w[0:80]),
// or for the pair kernel of two (the second at w[80:160], in the upper
// 128-bit lanes), each group in a register of its own; the result holds
// the first block's mask in its low word and the second's in its high.
func checkOnly(ctx *build.Context, k Kernel) {
	e := &backend{ctx: ctx, isa: k.isa(ctx), k: k}
	lanes, regs := 1, []reg.VecPhysical{reg.X0, reg.X1, reg.X2, reg.X3, reg.X4, reg.X5, reg.X6, reg.X7, reg.X8}
	t, acc := [ubcvec.Temps]reg.VecPhysical{reg.X11, reg.X12}, reg.VecPhysical(reg.X13)
	if k.pair {
		lanes, regs = 2, []reg.VecPhysical{reg.Y0, reg.Y1, reg.Y2, reg.Y3, reg.Y4, reg.Y5, reg.Y6, reg.Y7, reg.Y8}
		t, acc = [ubcvec.Temps]reg.VecPhysical{reg.Y11, reg.Y12}, reg.Y13
	}
	p := newCheckPlan(ctx, "ubcD", t, acc, lanes)
	ctx.Function("check")
	ctx.SignatureExpr("func(w *[160]uint32) uint64")
	ctx.Load(ctx.Param("w"), reg.RDI)
	for g := 8; g <= 16; g++ {
		x := regs[g-8]
		e.isa.Load(x.AsX().(reg.VecPhysical), Mem{Base: reg.RDI, Disp: 16 * g})
		if k.pair {
			ctx.VINSERTI128(U8(1), Mem{Base: reg.RDI, Disp: 320 + 16*g}, x, x)
		}
	}
	group := func(g int) reg.VecPhysical { return regs[g-8] }
	for _, op := range ubcvec.Ops() {
		for _, s := range p.lower(e.isa, op, group) {
			s()
		}
	}
	ctx.MOVQ(acc.AsX(), reg.RAX)
	ctx.XORL(I32(-1), reg.EAX)
	if k.pair {
		ctx.VEXTRACTI128(U8(1), acc, t[0].AsX())
		ctx.MOVQ(t[0].AsX(), reg.RBX)
		ctx.XORL(I32(-1), reg.EBX)
		ctx.SHLQ(U8(32), reg.RBX)
		ctx.ORQ(reg.RBX, reg.RAX)
	}
	ctx.Store(reg.RAX, ctx.ReturnIndex(0))
	ctx.RET()
}

// The check of each kernel, as it lowers gen/internal/ubcvec's plan, gives
// ubc.Mask on the emulator: on random words, on words that reach each DV
// (ubc.Reach), and on those with each of the DV's terms broken in turn.
func TestCheckEmulated(t *testing.T) {
	for _, k := range Kernels {
		t.Run(k.Name, func(t *testing.T) {
			ctx := build.NewContext()
			checkOnly(ctx, k)
			gentest.EmulatedMasks(t, ctx, rand.New(rand.NewPCG(22, uint64(len(k.Name)))), true, k.pair)
		})
	}
}
