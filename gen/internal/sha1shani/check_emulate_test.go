package sha1shani

import (
	"math/rand/v2"
	"testing"

	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/gentest"
	"github.com/simdhash/simdhash/gen/internal/sha1x86"
)

// checkOnly emits check(w *[80]uint32) uint32: the checking kernel's UBC
// check alone, in form, on one W: each group of W[0..79] loaded into its
// message register as the kernel has it (W[4g] in the top lane) where the
// kernel's rounds would have computed it, then the kernel's own work
// after the group (afterGroup); the mask as the kernel tests it.
func checkOnly(t *testing.T, ctx *build.Context, form CheckForm) {
	k, err := newChecker(ctx, form)
	if err != nil {
		t.Fatal(err)
	}
	if form != CheckGather {
		k.tab = sha1x86.NewCheckTable(ctx, "ubcD", 1, true)
	}
	ctx.Function("check")
	ctx.SignatureExpr("func(w *[80]uint32) uint32")
	ctx.Load(ctx.Param("w"), reg.RDI)
	ctx.MOVOU(Mem{Base: reg.RDI}, checkZero) // W's first words, not zero: k.plan must clear them
	if err := k.plan(1); err != nil {
		t.Fatal(err)
	}
	buf := ctx.AllocLocal(16 * (checkHi - checkLo + 2))
	ctx.LEAQ(buf.Offset(15), checkBuf)
	ctx.ANDQ(I8(-16), checkBuf)
	for g := 0; g < groups; g++ {
		w := k.reg(of(0, window(g)))
		ctx.MOVOU(Mem{Base: reg.RDI, Disp: 16 * g}, w)
		ctx.PSHUFD(U8(0x1b), w, w) // W[4g] in the top lane
		k.afterGroup(g)
	}
	if form == CheckGather {
		ctx.VMOVD(gAcc.AsX(), checkMask.As32())
	} else {
		ctx.MOVQ(checkAcc, checkMask)
	}
	ctx.XORL(I32(-1), checkMask.As32())
	ctx.Store(checkMask.As32(), ctx.ReturnIndex(0))
	ctx.RET()
}

// Every form of the SHA-NI kernels' check gives ubc.Mask on the emulator:
// on random words, on words that reach each DV (ubc.Reach), and on those
// with each of the DV's terms broken in turn.
func TestCheckEmulated(t *testing.T) {
	for form, name := range map[CheckForm]string{CheckSSE: "sse", CheckBlend: "blend", CheckGather: "avx512"} {
		t.Run(name, func(t *testing.T) {
			ctx := build.NewContext()
			checkOnly(t, ctx, form)
			gentest.EmulatedMasks(t, ctx, rand.New(rand.NewPCG(22, 1)), false, false)
		})
	}
}
