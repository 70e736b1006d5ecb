// Package ubcrecomp describes the recompression of SHA-1 collision
// detection for sixteen blocks at once, one a 32-bit lane of the AVX-512
// registers, for package sha1dc's SumMany: its multi-lane kernels record
// the blocks that have a surviving DV (about 4.7% of them on any data),
// and recompressing those one at a time in Go costs more than hashing
// them did.
//
// A job is sixteen blocks, each with the chaining value before it and one
// DV (gen/internal/ubc), all with the same test step T (58 or 65; the
// kernel is generated for one). For each lane the kernel computes the
// block's W from its bytes (gathered through the blocks' pointers),
// runs the 80 steps from the chaining value, keeping the state before
// step T and the chaining value after the block, then recompresses with
// W XOR the DV's message difference: backwards from the kept state to
// step 0 and forwards to step 80. The lanes whose two ends make the same
// chaining value are halves of collisions; the kernel returns them as a
// mask, bit l for lane l.
//
//	func(j *job, dm *[80][32]uint32) uint32
//
// where job is {blocks [16][64]byte; h [5][16]uint32; dv [16]uint32} and dm[t][i]
// is word t of the difference of DV i (the table sha1dc builds from its
// generated dvTable). W and the differences go through a stack buffer;
// a row of dm is two ZMM registers, from which VPERMI2D picks each lane's
// DV's word.
package ubcrecomp

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
	"github.com/simdhash/simdhash/gen/internal/ubc"
)

// Lanes is the number of blocks of a job.
const Lanes = 16

// The job's layout: the blocks, their chaining values, their DVs. The
// job holds copies of its blocks rather than pointers to them, so that
// the Go side keeps no pointer to its caller's buffers in it.
const (
	jobBlocks = 0
	jobH      = 64 * Lanes
	jobDV     = jobH + 5*4*Lanes
	jobBytes  = jobDV + 4*Lanes
)

// Signature is the kernels' Go signature, with job's type spelled out.
var Signature = fmt.Sprintf("func(j *[%d]uint32, dm *[80][32]uint32) uint32", jobBytes/4)

// Registers.
var (
	jp, dmp   = reg.RDI, reg.RSI                                           // the job and the differences
	wbuf      = reg.R8                                                     // W, 64-byte aligned on the stack
	s         = [5]reg.VecPhysical{reg.Z0, reg.Z1, reg.Z2, reg.Z3, reg.Z4} // a..e
	kept      = [5]reg.VecPhysical{reg.Z5, reg.Z6, reg.Z7, reg.Z8, reg.Z9} // the state before step T
	hOut      = [5]reg.VecPhysical{reg.Z10, reg.Z11, reg.Z12, reg.Z13, reg.Z14}
	t0, t1    = reg.Z15, reg.Z16
	offs      = reg.Z17 // each lane's block's offset in the job
	dvs       = reg.Z19
	tab0      = reg.Z20
	bswap     = reg.Z21
	gmask     = reg.K1
	eq        = reg.K2
	eqAll     = reg.K3
	ktab, bsw Mem
	offTab    Mem // 64*l in lane l
)

// wMem is W[t] (t < 80) of every lane in the stack buffer.
func wMem(t int) Mem { return Mem{Base: wbuf, Disp: 64 * t} }

// Generate emits into ctx a kernel for each test step of the DVs
// (ubc.TestSteps), named prefix and the step: recompress58, recompress65.
func Generate(ctx *build.Context, prefix string) error {
	ktab = avogen.Table(ctx, "recompK", sha1sched.KTable(1))
	bsw = avogen.Table(ctx, "recompBswap", sha1sched.ByteSwapTable(16))
	var o []uint32
	for l := range Lanes {
		o = append(o, 64*uint32(l))
	}
	offTab = avogen.Table(ctx, "recompOffsets", o)
	for _, t := range ubc.TestSteps() {
		if err := generate(ctx, fmt.Sprintf("%s%d", prefix, t), t); err != nil {
			return err
		}
	}
	return nil
}

// generate emits the kernel name for the DVs of test step testT.
func generate(ctx *build.Context, name string, testT int) error {
	if testT < 1 || testT > 79 {
		return fmt.Errorf("ubcrecomp: test step %d", testT)
	}
	c := ctx
	c.Function(name)
	c.Attributes(0) // 5 KB of W: over the nosplit limit
	c.SignatureExpr(Signature)
	c.Doc(fmt.Sprintf("%s recompresses the 16 blocks of a job, each along its DV (whose test step is %d), and returns the lanes that are halves of collisions.", name, testT))
	buf := c.AllocLocal(64*80 + 64)
	c.Load(c.Param("j"), jp)
	c.Load(c.Param("dm"), dmp)
	c.LEAQ(buf, wbuf)
	c.ADDQ(U8(63), wbuf)
	c.ANDQ(I8(-64), wbuf)
	c.VMOVDQU32(offTab, offs)
	c.VMOVDQU32(bsw, bswap)

	c.Comment("W[0..15]: word t of every block, gathered and byte-swapped.")
	for t := 0; t < 16; t++ {
		c.KXNORW(gmask, gmask, gmask)
		c.VPGATHERDD(Mem{Base: jp, Index: offs, Scale: 1, Disp: jobBlocks + 4*t}, gmask, t0)
		c.VPSHUFB(bswap, t0, t0)
		c.VMOVDQA32(t0, wMem(t))
	}
	c.Comment("W[16..79] = rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]).")
	for t := 16; t < 80; t++ {
		c.VMOVDQA32(wMem(t-3), t0)
		c.VMOVDQA32(wMem(t-8), t1)
		c.VPTERNLOGD(U8(0x96), wMem(t-14), t1, t0)
		c.VPXORD(wMem(t-16), t0, t0)
		c.VPROLD(U8(1), t0, t0)
		c.VMOVDQA32(t0, wMem(t))
	}

	c.Comment("The 80 steps from each block's chaining value; the state before step T kept.")
	for i := range 5 {
		c.VMOVDQU32(Mem{Base: jp, Disp: jobH + 64*i}, s[i])
	}
	v := s
	for t := 0; t < 80; t++ {
		if t == testT {
			for i := range 5 {
				c.VMOVDQA32(v[i], kept[i])
			}
		}
		v = forward(c, v, t)
	}
	c.Comment("The chaining value after each block.")
	for i := range 5 {
		c.VPADDD(Mem{Base: jp, Disp: jobH + 64*i}, v[i], hOut[i])
	}

	c.Comment("W ^= the DV's difference, lane by lane: row t of dm is two registers' worth, VPERMI2D picks each lane's.")
	c.VMOVDQU32(Mem{Base: jp, Disp: jobDV}, dvs)
	for t := 0; t < 80; t++ {
		c.VMOVDQU32(Mem{Base: dmp, Disp: 128 * t}, tab0)
		c.VMOVDQA32(dvs, t0)
		c.VPERMI2D(Mem{Base: dmp, Disp: 128*t + 64}, tab0, t0)
		c.VPXORD(wMem(t), t0, t0)
		c.VMOVDQA32(t0, wMem(t))
	}

	c.Comment("Forwards from the kept state to step 80, with W ^ difference (on a copy)...")
	f := s
	for i := range 5 {
		c.VMOVDQA32(kept[i], f[i])
	}
	for t := testT; t < 80; t++ {
		f = forward(c, f, t)
	}
	c.Comment("... and backwards from it to step 0.")
	back := kept
	for t := testT - 1; t >= 0; t-- {
		back = backward(c, back, t)
	}
	c.Comment("A collision where the two ends make each block's chaining value.")
	c.KXNORW(eqAll, eqAll, eqAll)
	for i := range 5 {
		c.VPADDD(back[i], f[i], t0)
		c.VPCMPEQD(hOut[i], t0, eqAll, eq)
		c.KMOVW(eq, eqAll)
	}
	c.KMOVW(eqAll, reg.EAX)
	c.Store(reg.EAX, c.ReturnIndex(0))
	c.VZEROUPPER()
	c.RET()
	return nil
}

// forward emits step t on the state v (a..e) and returns the renamed
// state: a = rol5(a) + f(b, c, d) + e + K + W[t] into e's register, b =
// rol30(b) in place.
func forward(c *build.Context, v [5]reg.VecPhysical, t int) [5]reg.VecPhysical {
	a, b, cc, d, e := v[0], v[1], v[2], v[3], v[4]
	c.VMOVDQA32(b, t0)
	c.VPTERNLOGD(U8(sha1sched.F(t).Ternary()), d, cc, t0) // f(b, c, d)
	c.VPADDD(wMem(t), e, e)
	c.VPADDD_BCST(ktab.Offset(4*(t/20)), e, e)
	c.VPADDD(t0, e, e)
	c.VPROLD(U8(5), a, t0)
	c.VPADDD(t0, e, e)
	c.VPROLD(U8(30), b, b)
	return [5]reg.VecPhysical{e, a, b, cc, d}
}

// backward emits the inverse of step t on the state v after it and
// returns the state before it: b' = rol2(c), e' = a - (rol5(b) + f(b',
// d, e) + K + W[t]) into a's register.
func backward(c *build.Context, v [5]reg.VecPhysical, t int) [5]reg.VecPhysical {
	a, b, cc, d, e := v[0], v[1], v[2], v[3], v[4]
	c.VPROLD(U8(2), cc, cc) // b'
	c.VMOVDQA32(cc, t0)
	c.VPTERNLOGD(U8(sha1sched.F(t).Ternary()), e, d, t0) // f(b', c', d') = f(rol2(c), d, e)
	c.VPADDD(wMem(t), t0, t0)
	c.VPADDD_BCST(ktab.Offset(4*(t/20)), t0, t0)
	c.VPROLD(U8(5), b, t1)
	c.VPADDD(t1, t0, t0)
	c.VPSUBD(t0, a, a) // e'
	return [5]reg.VecPhysical{b, cc, d, e, a}
}
