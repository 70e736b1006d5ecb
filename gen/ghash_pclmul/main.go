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
	switch b {
	case Blocks16:
		return 16
	case Blocks32:
		return 32
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

// params are the generator's knobs.
type params struct {
	width     Width
	blocks    Blocks
	threshold Threshold
}

func (p *params) knobs() []knob.Knob { return []knob.Knob{&p.width, &p.blocks, &p.threshold} }

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

// kernels returns the update functions of p's width.
func kernels(ctx *build.Context, p params) []kernelSpec {
	v128 := loop{vex{ctx, 128}, pclmulGroup}
	switch p.width {
	case W128:
		return []kernelSpec{
			{namePCLMUL, []loop{{sse{ctx}, pclmulGroup}}, pclmulGroup, ""},
			{namePCLMULAVX, []loop{v128}, pclmulGroup, ""},
		}
	case W256:
		return []kernelSpec{{nameVPCLMUL + "256", []loop{{vex{ctx, 256}, p.blocks.n()}, v128}, int(p.threshold), knob.Format(p.knobs()...)}}
	case W512:
		// The 256-bit loop of 16 blocks serves only what the 512-bit one
		// leaves when that takes more, or starts later, than 16 blocks.
		loops := []loop{{evex{ctx}, p.blocks.n()}}
		if p.blocks.n() > 16 || p.threshold > 16 {
			loops = append(loops, loop{vex{ctx, 256}, 16})
		}
		return []kernelSpec{{nameVPCLMUL + "512", append(loops, v128), int(p.threshold), knob.Format(p.knobs()...)}}
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
	for _, k := range ks {
		update(ctx, k, bswap, poly)
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
