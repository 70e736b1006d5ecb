// Command ghash_pclmul generates the amd64 GHASH kernels of package ghash
// from one description of GHASH (ghash.go) at the vector width -width:
//
//   - 128 (ghash_amd64.s): ghashPCLMUL, in SSE encodings (SSE2, SSSE3,
//     PCLMULQDQ); ghashPCLMULAVX, the same in VEX encodings (AVX,
//     PCLMULQDQ); and ghashPowers, which fills the key's powers of H for
//     every kernel. Groups of 8 blocks per reduction.
//   - 256 (ghash_vpclmul256_amd64.s): ghashVPCLMUL256, VEX on YMM (AVX2,
//     VPCLMULQDQ): groups of -blocks blocks, two per instruction, from
//     -threshold blocks up; then the 128-bit loop for what is left.
//   - 512 (ghash_vpclmul512_amd64.s): ghashVPCLMUL512, EVEX on ZMM
//     (AVX512F, AVX512BW, VPCLMULQDQ): groups of -blocks blocks, four per
//     instruction, from -threshold blocks up; then the 256-bit loop of 16
//     blocks (if -blocks or -threshold is above 16) and the 128-bit one.
//
// Each width's file also holds clmulLoop<width>, a loop of independent
// carry-less multiplies that the benchmarks time to measure the core's
// multiplier throughput.
//
// The schedule of each width's own loop is a choice of knobs
// (schedule.go): -mul karatsuba|schoolbook, -halves pshufd|unpack|pair
// (how a block's Karatsuba middle operand is made), -reduction
// clmul|shift, -reduce-at after|front|spread|back (where a group's
// reduction runs: after it, or software-pipelined among the next group's
// products) and -fold every|once (when a wide loop's lanes are added
// together). Each width has its defaults (defaultShape); the 128-bit knobs
// shape both 128-bit kernels, and the wide kernels' 128-bit loops take the
// 128-bit defaults. Every generated function prints its knobs in a
// "Knobs:" comment.
//
// Every kernel reads the same key layout (ghash.go). Usage, from the ghash
// package directory:
//
//	go -C ../gen run ./ghash_pclmul -out ../ghash/ghash_amd64.s
//	go -C ../gen run ./ghash_pclmul -width 256 -out ../ghash/ghash_vpclmul256_amd64.s
package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/knob"
)

// Width is the -width knob: the vector width of the kernels to write.
type Width int

// The widths.
const (
	W128 Width = iota
	W256
	W512
)

var widthSpec = &knob.Spec{Flag: "width", What: "vector width of the kernels to write:",
	Choices: []knob.Choice{
		W128: {Name: "128", Help: "ghashPCLMUL (SSE), ghashPCLMULAVX (VEX) and ghashPowers, into ghash_amd64.s"},
		W256: {Name: "256", Help: "ghashVPCLMUL256 (VEX on YMM), into ghash_vpclmul256_amd64.s"},
		W512: {Name: "512", Help: "ghashVPCLMUL512 (EVEX on ZMM), into ghash_vpclmul512_amd64.s"},
	}}

func (w Width) String() string      { return widthSpec.Name(int(w)) }
func (w *Width) Set(s string) error { return knob.SetEnum(w, widthSpec, s) }
func (*Width) Spec() *knob.Spec     { return widthSpec }

// Blocks is the -blocks knob: blocks per reduction in the widest loop,
// and so the powers of H the kernel's keys hold.
type Blocks int

// The group sizes; BlocksAuto is the width's default (defaultBlocks).
const (
	BlocksAuto Blocks = iota
	Blocks16
	Blocks32
)

var blocksSpec = &knob.Spec{Flag: "blocks", What: "blocks per reduction in the widest loop (256 and 512 bits):",
	Choices: []knob.Choice{
		BlocksAuto: {Name: "auto", Help: "the width's default: 16 (docs/ghash-vpclmul.md)"},
		Blocks16:   {Name: "16", Help: "8 blocks per lane at 256 bits, 4 at 512"},
		Blocks32:   {Name: "32", Help: "16 blocks per lane at 256 bits, 8 at 512; needs tableBlocks = 32 in gen/ghash_pclmul/ghash.go and ghash/kernel_amd64.go (a 768-byte key layout)"},
	}}

func (b Blocks) String() string      { return blocksSpec.Name(int(b)) }
func (b *Blocks) Set(s string) error { return knob.SetEnum(b, blocksSpec, s) }
func (*Blocks) Spec() *knob.Spec     { return blocksSpec }

// n returns the number of blocks, once resolve has replaced BlocksAuto.
func (b Blocks) n() int {
	if n := map[Blocks]int{Blocks16: 16, Blocks32: 32}[b]; n > 0 {
		return n
	}
	panic("-blocks not resolved")
}

// Threshold is the -threshold knob: the input length, in blocks, from
// which the widest loop is used; 0 means -blocks.
type Threshold int

var thresholdSpec = func() *knob.Spec {
	s := &knob.Spec{Flag: "threshold", What: "blocks from which the widest loop is used, at least -blocks (256 and 512 bits; 0: -blocks)"}
	s.Choices = append(s.Choices, knob.Choice{Name: "0"})
	for n := 16; n <= 4*tableBlocks; n += 8 {
		s.Choices = append(s.Choices, knob.Choice{Name: strconv.Itoa(n)})
	}
	return s
}()

func (t Threshold) String() string { return strconv.Itoa(int(t)) }
func (t *Threshold) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("%q is not a number of blocks", s)
	}
	*t = Threshold(n)
	return knob.Check(t)
}
func (*Threshold) Spec() *knob.Spec { return thresholdSpec }

// Mul is the -mul knob: how a block and a key power are multiplied.
type Mul int

// The multiplications; MulAuto is the width's default (defaultShape).
const (
	MulAuto Mul = iota
	MulKaratsuba
	MulSchoolbook
)

var mulSpec = &knob.Spec{Flag: "mul", What: "how each block is multiplied by its key power:",
	Choices: []knob.Choice{
		MulAuto:       {Name: "auto", Help: "the width's default"},
		MulKaratsuba:  {Name: "karatsuba", Help: "three carry-less products (lo, hi, and the middle from the halves' sums), the key's sums precomputed"},
		MulSchoolbook: {Name: "schoolbook", Help: "four products (lo, hi and both cross products), no sums"},
	}}

func (m Mul) String() string      { return mulSpec.Name(int(m)) }
func (m *Mul) Set(s string) error { return knob.SetEnum(m, mulSpec, s) }
func (*Mul) Spec() *knob.Spec     { return mulSpec }

// Halves is the -halves knob: how a block's Karatsuba middle operand, the
// sum of its two 64-bit halves, is formed.
type Halves int

// The forms; HalvesAuto is the width's default.
const (
	HalvesAuto Halves = iota
	HalvesPSHUFD
	HalvesUnpack
	HalvesPair
)

var halvesSpec = &knob.Spec{Flag: "halves", What: "how a block's halves are summed for the Karatsuba middle product (-mul karatsuba):",
	Choices: []knob.Choice{
		HalvesAuto:   {Name: "auto", Help: "the width's default"},
		HalvesPSHUFD: {Name: "pshufd", Help: "the block with its halves exchanged (PSHUFD), added to it: the sum in both halves"},
		HalvesUnpack: {Name: "unpack", Help: "the block's high half in both halves (PUNPCKHQDQ), added to it: the sum in the low half"},
		HalvesPair:   {Name: "pair", Help: "two adjacent blocks' sums from the bytes as loaded, one byte reversal for both (128 bits only); the block y is added to keeps pshufd"},
	}}

func (h Halves) String() string      { return halvesSpec.Name(int(h)) }
func (h *Halves) Set(s string) error { return knob.SetEnum(h, halvesSpec, s) }
func (*Halves) Spec() *knob.Spec     { return halvesSpec }

// Reduction is the -reduction knob: how a Montgomery step's product of
// the low 64 bits and 0xc2<<56 is made.
type Reduction int

// The forms; ReductionAuto is the width's default.
const (
	ReductionAuto Reduction = iota
	ReductionCLMUL
	ReductionShift
	ReductionMixed
)

var reductionSpec = &knob.Spec{Flag: "reduction", What: "how each of the reduction's two steps multiplies the low 64 bits by 0xc2<<56:",
	Choices: []knob.Choice{
		ReductionAuto:  {Name: "auto", Help: "the width's default"},
		ReductionCLMUL: {Name: "clmul", Help: "one carry-less multiply"},
		ReductionShift: {Name: "shift", Help: "shifts by 57, 62 and 63 left and 7, 2 and 1 right, and a blend: no multiply"},
		ReductionMixed: {Name: "mixed", Help: "the first step with shifts, the second with a multiply"},
	}}

func (r Reduction) String() string      { return reductionSpec.Name(int(r)) }
func (r *Reduction) Set(s string) error { return knob.SetEnum(r, reductionSpec, s) }
func (*Reduction) Spec() *knob.Spec     { return reductionSpec }

// ReduceAt is the -reduce-at knob: where a group's reduction is placed.
type ReduceAt int

// The placements; ReduceAtAuto is the width's default.
const (
	ReduceAtAuto ReduceAt = iota
	ReduceAtAfter
	ReduceAtFront
	ReduceAtSpread
	ReduceAtBack
)

var reduceAtSpec = &knob.Spec{Flag: "reduce-at", What: "where the reduction of a group runs in the loop:",
	Choices: []knob.Choice{
		ReduceAtAuto:   {Name: "auto", Help: "the width's default"},
		ReduceAtAfter:  {Name: "after", Help: "after the group's products, before the next group's"},
		ReduceAtFront:  {Name: "front", Help: "among the next group's first products, one of its steps after each of theirs (software-pipelined)"},
		ReduceAtSpread: {Name: "spread", Help: "spread evenly among the next group's products that do not need y (software-pipelined)"},
		ReduceAtBack:   {Name: "back", Help: "after the next group's products that do not need y, before the one that does (software-pipelined)"},
	}}

func (r ReduceAt) String() string      { return reduceAtSpec.Name(int(r)) }
func (r *ReduceAt) Set(s string) error { return knob.SetEnum(r, reduceAtSpec, s) }
func (*ReduceAt) Spec() *knob.Spec     { return reduceAtSpec }

// pipelined reports whether the reduction of a group runs among the next
// group's products.
func (r ReduceAt) pipelined() bool { return r != ReduceAtAfter }

// Fold is the -fold knob: when a wide loop adds its lanes together.
type Fold int

// The folds; FoldAuto is the width's default.
const (
	FoldAuto Fold = iota
	FoldEvery
	FoldOnce
)

var foldSpec = &knob.Spec{Flag: "fold", What: "when the widest loop adds its lanes into one (256 and 512 bits):",
	Choices: []knob.Choice{
		FoldAuto:  {Name: "auto", Help: "the width's default"},
		FoldEvery: {Name: "every", Help: "after each group's reduction; every block takes its own power, as a lane of the key's powers"},
		FoldOnce:  {Name: "once", Help: "after the last group only: the groups before it give each lane of a vector the same power, and the last one's per-lane powers bring each lane's sum to its place (512 bits only: the powers take eight registers)"},
	}}

func (f Fold) String() string      { return foldSpec.Name(int(f)) }
func (f *Fold) Set(s string) error { return knob.SetEnum(f, foldSpec, s) }
func (*Fold) Spec() *knob.Spec     { return foldSpec }

// Blend is the -blend knob: how the 128-bit VEX loops put one register's
// low half and another's high half together (the pairs of -halves pair,
// the shift reduction's two halves).
type Blend int

// The blends; BlendAuto is the loop's default.
const (
	BlendAuto Blend = iota
	BlendBlendpd
	BlendMask
)

var blendSpec = &knob.Spec{Flag: "blend", What: "how the 128-bit VEX loop joins two registers' halves (-halves pair, -reduction shift or mixed; SSE always uses MOVSD, 256 bits VPBLENDD, 512 VPTERNLOGQ):",
	Choices: []knob.Choice{
		BlendAuto:    {Name: "auto", Help: "the loop's default"},
		BlendBlendpd: {Name: "blendpd", Help: "one VBLENDPD"},
		BlendMask:    {Name: "mask", Help: "b + ((a + b) & the low halves' mask): three operations on any vector port (on Zen, VBLENDPD shares the multiplier's pipes)"},
	}}

func (b Blend) String() string      { return blendSpec.Name(int(b)) }
func (b *Blend) Set(s string) error { return knob.SetEnum(b, blendSpec, s) }
func (*Blend) Spec() *knob.Spec     { return blendSpec }

// Only is the -kernel knob: which of the 128-bit kernels the schedule's
// knobs shape.
type Only int

// The choices.
const (
	OnlyBoth Only = iota
	OnlyAVX
	OnlySSE
)

var onlySpec = &knob.Spec{Flag: "kernel", What: "which 128-bit kernel the schedule's knobs shape (-width 128); the other takes its defaults:",
	Choices: []knob.Choice{
		OnlyBoth: {Name: "both", Help: "pclmul (ghashPCLMULAVX) and pclmul-sse (ghashPCLMUL)"},
		OnlyAVX:  {Name: "pclmul", Help: "ghashPCLMULAVX, in VEX encodings"},
		OnlySSE:  {Name: "pclmul-sse", Help: "ghashPCLMUL, in SSE encodings"},
	}}

func (o Only) String() string      { return onlySpec.Name(int(o)) }
func (o *Only) Set(s string) error { return knob.SetEnum(o, onlySpec, s) }
func (*Only) Spec() *knob.Spec     { return onlySpec }

// shape is the schedule of one loop's groups: the knobs that describe
// how a group's work is done and ordered.
type shape struct {
	mul       Mul
	halves    Halves
	reduction Reduction
	reduceAt  ReduceAt
	fold      Fold
	blend     Blend
}

func (s *shape) knobs() []knob.Knob {
	return []knob.Knob{&s.mul, &s.halves, &s.reduction, &s.reduceAt, &s.fold, &s.blend}
}

// A target is a kind of loop with a default shape of its own: a width,
// and at 128 bits the encoding.
type target int

const (
	targetSSE  target = iota // ghashPCLMUL
	targetAVX                // ghashPCLMULAVX
	targetTail               // the 128-bit loops of the wide kernels (VEX), which no knob shapes
	target256
	target512
)

func (t target) width() Width {
	return map[target]Width{targetSSE: W128, targetAVX: W128, targetTail: W128, target256: W256, target512: W512}[t]
}

// defaultShape is each target's schedule; docs/ghash-vpclmul.md has the
// measurements and llvm-mca models behind each choice. The wide kernels'
// 128-bit loops keep the plain one: they run on cores with VPCLMULQDQ,
// where pclmul's shape (for the cores without it) models slower.
var defaultShape = map[target]shape{
	targetSSE:  {MulKaratsuba, HalvesPSHUFD, ReductionCLMUL, ReduceAtAfter, FoldEvery, BlendBlendpd},
	targetAVX:  {MulKaratsuba, HalvesPair, ReductionShift, ReduceAtSpread, FoldEvery, BlendBlendpd},
	targetTail: {MulKaratsuba, HalvesPSHUFD, ReductionCLMUL, ReduceAtAfter, FoldEvery, BlendBlendpd},
	target256:  {MulKaratsuba, HalvesPSHUFD, ReductionCLMUL, ReduceAtFront, FoldEvery, BlendBlendpd},
	target512:  {MulKaratsuba, HalvesPSHUFD, ReductionCLMUL, ReduceAtAfter, FoldOnce, BlendBlendpd},
}

// params are the generator's knobs.
type params struct {
	width     Width
	blocks    Blocks
	threshold Threshold
	kernel    Only
	shape     shape // as given; the targets' own are in shapes once resolved
	shapes    map[target]shape
}

func (p *params) knobs() []knob.Knob {
	return append([]knob.Knob{&p.width, &p.blocks, &p.threshold, &p.kernel}, p.shape.knobs()...)
}

// targets are the loops of the width whose shape the knobs give.
func (p *params) targets() []target {
	if p.width != W128 {
		return []target{map[Width]target{W256: target256, W512: target512}[p.width]}
	}
	return map[Only][]target{OnlyBoth: {targetSSE, targetAVX}, OnlyAVX: {targetAVX}, OnlySSE: {targetSSE}}[p.kernel]
}

// shapeOf returns target t's resolved shape: the knobs' if they shape it,
// else its default.
func (p *params) shapeOf(t target) shape {
	if s, ok := p.shapes[t]; ok {
		return s
	}
	return defaultShape[t]
}

// defaultBlocks is the group size of each wide width's widest loop
// (docs/ghash-vpclmul.md has the measurements behind the 256-bit one;
// the 512-bit one could not be measured on this project's machine, and
// takes the size of the key layout).
var defaultBlocks = map[Width]Blocks{W256: Blocks16, W512: Blocks16}

// resolve checks the knobs against the width and fills in the defaults.
func (p *params) resolve() error {
	if err := knob.Check(p.knobs()...); err != nil {
		return err
	}
	if p.kernel != OnlyBoth && p.width != W128 {
		return fmt.Errorf("-kernel chooses between the 128-bit kernels (-width 128)")
	}
	p.shapes = map[target]shape{}
	for _, t := range p.targets() {
		s := p.shape
		if err := s.resolve(t); err != nil {
			return err
		}
		p.shapes[t] = s
	}
	if p.width == W128 {
		if p.blocks != BlocksAuto || p.threshold != 0 {
			return fmt.Errorf("-blocks and -threshold are knobs of the 256- and 512-bit kernels, not of -width 128")
		}
		return nil
	}
	if p.blocks == BlocksAuto {
		p.blocks = defaultBlocks[p.width]
	}
	if p.blocks.n() > tableBlocks {
		return fmt.Errorf("-blocks %d: the key layout holds H^1..H^%d (tableBlocks in gen/ghash_pclmul/ghash.go and ghash/kernel_amd64.go; 32 makes every amd64 Key 384 bytes larger)", p.blocks.n(), tableBlocks)
	}
	if p.threshold == 0 {
		p.threshold = Threshold(p.blocks.n())
	}
	if int(p.threshold) < p.blocks.n() {
		return fmt.Errorf("-threshold %d is below -blocks %d: the widest loop needs a whole group", p.threshold, p.blocks.n())
	}
	return nil
}

// resolve fills in the target's defaults and rejects what the target
// cannot do.
func (s *shape) resolve(t target) error {
	d, w := defaultShape[t], t.width()
	if s.mul == MulAuto {
		s.mul = d.mul
	}
	if s.mul == MulSchoolbook {
		// No halves are summed: the form is pshufd's, whatever the default.
		if s.halves != HalvesAuto && s.halves != HalvesPSHUFD {
			return fmt.Errorf("-halves %s: -mul schoolbook sums no halves", s.halves)
		}
		s.halves = HalvesPSHUFD
	}
	for i, k := range s.knobs() { // those left at auto take the default
		if k.String() == "auto" {
			if err := k.Set(d.knobs()[i].String()); err != nil {
				panic(err)
			}
		}
	}
	if s.halves == HalvesPair && w != W128 {
		return fmt.Errorf("-halves pair pairs adjacent blocks of one lane: 128 bits only")
	}
	if s.fold == FoldOnce && w != W512 {
		return fmt.Errorf("-fold once needs registers for eight broadcast key vectors: 512 bits only")
	}
	if s.blend != BlendBlendpd && t != targetAVX {
		return fmt.Errorf("-blend %s: a knob of the 128-bit VEX loop (-width 128 -kernel pclmul)", s.blend)
	}
	return nil
}

// Kernel names, as the Go side declares them.
const (
	namePCLMUL    = "ghashPCLMUL"
	namePCLMULAVX = "ghashPCLMULAVX"
	nameVPCLMUL   = "ghashVPCLMUL" // followed by the width

	// The short-message GCM functions (gcm), in SSE and VEX encodings at
	// 128 bits and VEX at 256; every amd64 kernel uses one of them.
	gcmPCLMUL     = "gcmPCLMUL"
	gcmPCLMULAVX  = "gcmPCLMULAVX"
	gcmVPCLMUL256 = "gcmVPCLMUL256" // also the 512-bit kernel's
)

// gcmForms lists the short-message GCM functions by the number that
// gcmShort, which jumps to them, takes for each (package ghash's gcmForm
// constants): 0 is no function.
var gcmForms = []string{1: gcmPCLMUL, 2: gcmPCLMULAVX, 3: gcmVPCLMUL256}

// gcmBadForm is the Go function gcmShort jumps to for a form it does not
// know, which panics.
const gcmBadForm = "gcmBadForm"

// kernels returns the update functions of p's width. The knobs shape the
// width's own loop; the narrower loops of the wide kernels take their
// widths' default shapes.
func kernels(ctx *build.Context, p params) []kernelSpec {
	v128 := loop{vex{ctx, 128}, pclmulGroup, defaultShape[targetTail]}
	// knobs prints the knobs of a function whose widest loop is t's.
	knobs := func(t target) string {
		s := p.shapeOf(t)
		k := s.knobs()
		if t != targetAVX {
			k = k[:len(k)-1] // -blend is the 128-bit VEX loop's alone
		}
		if p.width != W128 {
			k = append([]knob.Knob{&p.width, &p.blocks, &p.threshold}, k...)
		}
		return knob.Format(k...)
	}
	switch p.width {
	case W128:
		return []kernelSpec{
			{namePCLMUL, []loop{{sse{ctx}, pclmulGroup, p.shapeOf(targetSSE)}}, pclmulGroup, knobs(targetSSE)},
			{namePCLMULAVX, []loop{{vex{ctx, 128}, pclmulGroup, p.shapeOf(targetAVX)}}, pclmulGroup, knobs(targetAVX)},
		}
	case W256:
		return []kernelSpec{{nameVPCLMUL + "256", []loop{{vex{ctx, 256}, p.blocks.n(), p.shapeOf(target256)}, v128}, int(p.threshold), knobs(target256)}}
	case W512:
		// The 256-bit loop of 16 blocks serves only what the 512-bit one
		// leaves when that takes more, or starts later, than 16 blocks.
		loops := []loop{{evex{ctx}, p.blocks.n(), p.shapeOf(target512)}}
		if p.blocks.n() > 16 || p.threshold > 16 {
			loops = append(loops, loop{vex{ctx, 256}, 16, defaultShape[target256]})
		}
		return []kernelSpec{{nameVPCLMUL + "512", append(loops, v128), int(p.threshold), knobs(target512)}}
	}
	panic(fmt.Sprintf("width %d", p.width))
}

// generate emits the kernels of p's width, and with the 128-bit ones the
// powers function.
func generate(ctx *build.Context, p params) error {
	if err := p.resolve(); err != nil {
		return err
	}
	bswap, poly := constants(ctx)
	ks := kernels(ctx, p)
	var all []loop
	for _, k := range ks {
		all = append(all, k.loops...)
	}
	lc := loopConstants(ctx, all)
	for _, k := range ks {
		update(ctx, k, bswap, poly, lc)
		if p.width != W128 {
			groupSize(ctx, k)
		}
	}
	if p.width == W256 {
		gcm(ctx, gcmVPCLMUL256, vex{ctx, 256}, bswap, poly)
	}
	if p.width == W128 {
		gcm(ctx, gcmPCLMUL, sse{ctx}, bswap, poly)
		gcm(ctx, gcmPCLMULAVX, vex{ctx, 128}, bswap, poly)
		gcmShort(ctx)
		powers(ctx, sse{ctx}, poly)
	}
	// The calibration loop of the width, in the last kernel's encodings
	// (VEX at 128 bits).
	calibration(ctx, ks[len(ks)-1].loops[0].o)
	return nil
}

func main() {
	var p params
	avogen.Main("ghash_pclmul", "ghash", func(fs *flag.FlagSet) { knob.Register(fs, p.knobs()...) }, func(ctx *build.Context) error {
		return generate(ctx, p)
	})
}
