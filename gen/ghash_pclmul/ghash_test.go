package main

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/internal/ref"
)

// vec128 is an XMM register as two 64-bit halves: [0] low, [1] high.
type vec128 [2]uint64

// model implements isa at 128 bits on a model of the registers, so that
// the arithmetic of the description (product and reduce) is checked
// against the SP 800-38D reference without a CPU that has PCLMULQDQ.
// The other operations (memory, shuffles, the schedule's forms) are not
// modelled: the nil isa it embeds panics on them.
type model struct {
	isa
	r map[reg.VecPhysical]vec128
}

func (m *model) width() int                        { return 128 }
func (m *model) narrower() isa                     { return nil }
func (m *model) memKey() bool                      { return false }
func (m *model) copy(dst, a reg.VecPhysical)       { m.r[dst] = m.r[a] }
func (m *model) swap(dst, a reg.VecPhysical)       { v := m.r[a]; m.r[dst] = vec128{v[1], v[0]} }
func (m *model) xor3(dst, a, b, c reg.VecPhysical) { twoXor(m, dst, a, b, c) }

func (m *model) xor(dst, a, b reg.VecPhysical) {
	x, y := m.r[a], m.r[b]
	m.r[dst] = vec128{x[0] ^ y[0], x[1] ^ y[1]}
}

// clmul: PCLMULQDQ's imm bit 0 picks a's half, bit 4 b's.
func (m *model) clmul(dst, a reg.VecPhysical, b Op, imm uint8) {
	hi, lo := ref.ClMul64(m.r[a][imm&1], m.r[b.(reg.VecPhysical)][imm>>4&1])
	m.r[dst] = vec128{lo, hi}
}

// reflected returns an SP 800-38D block as the kernels hold it after the
// byte reversal: the big-endian 128-bit integer.
func reflected(b [16]byte) vec128 {
	return vec128{binary.BigEndian.Uint64(b[8:]), binary.BigEndian.Uint64(b[:8])}
}

// twisted returns H·x^-1 in the reflected form: one bit left, the bit
// shifted out folded back in as x^-1 (bits 127, 126, 121 and 0).
func twisted(h [16]byte) vec128 {
	v := reflected(h)
	carry := v[1] >> 63
	v[1] = v[1]<<1 | v[0]>>63
	v[0] <<= 1
	if carry != 0 {
		v[1] ^= 0xc2 << 56
		v[0] ^= 1
	}
	return v
}

// mulModel runs product (with x as the first block) and reduce on the
// model: the description's a·b for a data value a and a twisted key b.
func mulModel(a, b vec128) vec128 {
	ctx := build.NewContext()
	ctx.Function("model")
	m := &model{r: map[reg.VecPhysical]vec128{}}
	d := &desc{ctx: ctx, r: plan}
	m.r[plan.poly] = vec128{polyConst, 0}
	m.r[plan.x], m.r[plan.k] = a, b
	m.r[plan.s] = vec128{b[0] ^ b[1], 0}
	d.product(m, plan.x, plan.k, plan.s, 0, true)
	d.reduce(m, plan.y)
	return m.r[plan.y]
}

// The description multiplies in GF(2^128) as SP 800-38D does, with the key
// twisted as ghash/kernel_amd64.go twists it.
func TestProductReduce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	random := func() (b [16]byte) {
		binary.LittleEndian.PutUint64(b[:8], rng.Uint64())
		binary.LittleEndian.PutUint64(b[8:], rng.Uint64())
		return b
	}
	one := [16]byte{0: 0x80}
	cases := [][2][16]byte{{one, one}, {one, random()}, {random(), one}}
	for i := 0; i < 200; i++ {
		cases = append(cases, [2][16]byte{random(), random()})
	}
	for _, c := range cases {
		x, h := c[0], c[1]
		want := reflected(ref.GHASHMul(x, h))
		if got := mulModel(reflected(x), twisted(h)); got != want {
			t.Fatalf("X = %x, H = %x: got %016x%016x, want %016x%016x", x, h, got[1], got[0], want[1], want[0])
		}
		// A twisted power times a twisted key is the twisted product,
		// the way ghashPowers builds H^2..H^8.
		if got, want := mulModel(twisted(x), twisted(h)), twisted(ref.GHASHMul(x, h)); got != want {
			t.Fatalf("twisted X·H: got %016x%016x, want %016x%016x", got[1], got[0], want[1], want[0])
		}
	}
}

// The generator describes every function of every width without an
// error from avo, and rejects knobs that do not fit the width.
func TestGenerate(t *testing.T) {
	for _, p := range []params{
		{width: W128},
		{width: W256},
		{width: W256, threshold: 40},
		{width: W512},
		{width: W512, blocks: Blocks16},
	} {
		ctx := build.NewContext()
		ctx.ConstraintExpr("amd64,!purego")
		if err := generate(ctx, p); err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
		if _, err := ctx.Result(); err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
	}
	for _, p := range []params{
		{width: W128, blocks: Blocks16},
		{width: W256, blocks: Blocks(7)},
		{width: W256, blocks: Blocks32}, // more powers than the key layout holds
		{width: W512, blocks: Blocks(9)},
		{width: W256, shape: shape{halves: HalvesPair}},                       // pairs are of one lane's blocks
		{width: W256, shape: shape{fold: FoldOnce}},                           // no registers for the broadcast powers
		{width: W128, shape: shape{fold: FoldOnce}},                           // nothing to fold
		{width: W128, shape: shape{mul: MulSchoolbook, halves: HalvesUnpack}}, // no halves to sum
		{width: W256, kernel: OnlyAVX},                                        // a choice of the 128-bit file
		{width: W128, shape: shape{blend: BlendMask}},                         // pclmul-sse blends with MOVSD
		{width: W512, shape: shape{blend: BlendMask}},                         // VPTERNLOGQ
	} {
		if err := generate(build.NewContext(), p); err == nil {
			t.Errorf("%+v: no error", p)
		}
	}
}
