package main

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/simdhash/simdhash/gen/internal/knob"
	"github.com/simdhash/simdhash/gen/internal/x86emu"
	"github.com/simdhash/simdhash/internal/ref"
)

// This file runs the generated functions, as avo holds them before they
// are printed, on the emulator of gen/internal/x86emu. The 512-bit kernel
// cannot run on this project's machine, and no qemu model has VPCLMULQDQ;
// the emulator checks the description's arithmetic, addressing and control
// flow at every width, and that no function touches memory outside its
// arguments. The native tests (and, for AVX-512, a CPU model that has it)
// run the encodings.

// emulated generates p's functions and returns them by name.
func emulated(t *testing.T, p params) (*ir.File, map[string]*ir.Function) {
	t.Helper()
	ctx := build.NewContext()
	if err := generate(ctx, p); err != nil {
		t.Fatal(err)
	}
	f, err := ctx.Result()
	if err != nil {
		t.Fatal(err)
	}
	fns := map[string]*ir.Function{}
	for _, fn := range f.Functions() {
		fns[fn.Name] = fn
	}
	return f, fns
}

// emuKeyBytes returns the expanded key of h with the powers H^1..H^n, as
// f's ghashPowers, emulated, makes them; the rest of the key is garbage
// from rng if rng is not nil, so that a kernel reading a power it was not
// given gets a wrong answer.
func emuKeyBytes(t *testing.T, f *ir.File, h [16]byte, n int, rng *rand.Rand) []byte {
	t.Helper()
	key := make([]byte, 8*keyWords)
	if rng != nil {
		fill(rng, key)
	}
	tw := twisted(h)
	binary.LittleEndian.PutUint64(key[powerAddr(1):], tw[0])
	binary.LittleEndian.PutUint64(key[powerAddr(1)+8:], tw[1])
	binary.LittleEndian.PutUint64(key[sumAddr(1):], tw[0]^tw[1])
	if n == 1 {
		return key
	}
	m := x86emu.New(f)
	k := m.Alloc("key", key, true)
	m.Args["key"], m.Args["n"] = k, uint64(n)
	m.Run(x86emu.Function(f, "ghashPowers"), 1<<20)
	copy(key, m.Bytes(k, len(key)))
	return key
}

// TestEmulatedPowers checks the powers ghashPowers writes, emulated:
// the twisted H^i and their sums at sumAddr, for every n, and nothing
// beyond H^n, nor beyond the key when n is larger than it holds.
func TestEmulatedPowers(t *testing.T) {
	f, _ := emulated(t, params{width: W128})
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 4; trial++ {
		var h [16]byte
		binary.LittleEndian.PutUint64(h[:8], rng.Uint64())
		binary.LittleEndian.PutUint64(h[8:], rng.Uint64())
		for _, n := range []int{2, 3, 8, tableBlocks - 1, tableBlocks, tableBlocks + 1, 1 << 40} {
			key := emuKeyBytes(t, f, h, n, nil)
			pow := h
			for i := 1; i <= tableBlocks; i++ {
				lo := binary.LittleEndian.Uint64(key[powerAddr(i):])
				hi := binary.LittleEndian.Uint64(key[powerAddr(i)+8:])
				s := binary.LittleEndian.Uint64(key[sumAddr(i):])
				if i > min(n, tableBlocks) {
					if lo|hi|s != 0 {
						t.Fatalf("n = %d: H^%d was written", n, i)
					}
					continue
				}
				if want := twisted(pow); lo != want[0] || hi != want[1] || s != lo^hi {
					t.Fatalf("n = %d: H^%d = %016x%016x (sum %016x), want %016x%016x", n, i, hi, lo, s, want[1], want[0])
				}
				pow = ref.GHASHMul(pow, h)
			}
		}
	}
}

// TestEmulatedKernels runs every update function of every width, with
// the default knobs and others, on inputs of 0..maxBlocks blocks (and a
// partial block it must leave alone) against the reference, on a key with
// only the powers the input's length uses, H^1..H^min(n, group size), and
// garbage after them.
func TestEmulatedKernels(t *testing.T) {
	variants := append([]params{
		{width: W128},
		{width: W256},
		{width: W256, threshold: 40},
		{width: W512},
		{width: W512, threshold: 48},
	}, shapeVariants()...)
	maxBlocks := 3*tableBlocks + 2*pclmulGroup
	if testing.Short() {
		variants = append([]params{{width: W128}, {width: W256}, {width: W512}}, shapeVariants()...)
		maxBlocks = 2*tableBlocks + pclmulGroup + 3
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, p := range variants {
		if err := p.resolve(); err != nil {
			t.Fatal(err)
		}
		f, fns := emulated(t, p)
		var names []string
		for name, fn := range fns {
			switch {
			case strings.HasSuffix(name, "Group"):
				// The group size the Go side reads.
				m := x86emu.New(f)
				m.Run(fn, 100)
				if got := m.Args["ret"]; int(got) != p.blocks.n() {
					t.Errorf("%s returns %d, want -blocks %d", name, got, p.blocks.n())
				}
			case strings.HasPrefix(name, "ghash") && name != "ghashPowers":
				names = append(names, name)
			}
		}
		slices.Sort(names)
		pf, _ := emulated(t, params{width: W128})
		for _, name := range names {
			t.Run(fmt.Sprintf("%s/%s", name, strings.ReplaceAll(fnKnobs(f, name), " ", "/")), func(t *testing.T) {
				fn := fns[name]
				for n := 0; n <= maxBlocks; n++ {
					var h, y0 [16]byte
					fill(rng, h[:])
					fill(rng, y0[:])
					data := make([]byte, 16*n+rng.IntN(16))
					fill(rng, data)
					want := y0
					for i := 0; i+16 <= len(data); i += 16 {
						var x [16]byte
						copy(x[:], data[i:])
						for j := range x {
							x[j] ^= want[j]
						}
						want = ref.GHASHMul(x, h)
					}
					group := pclmulGroup
					if p.width != W128 {
						group = p.blocks.n()
					}
					key := emuKeyBytes(t, pf, h, max(1, min(n, group)), rng)
					m := x86emu.New(f)
					y := m.Alloc("y", y0[:], true)
					m.Args["y"], m.Args["key"] = y, m.Alloc("key", key, false)
					m.Args["p_base"], m.Args["p_len"] = m.Alloc("p", data, false), uint64(len(data))
					m.Run(fn, 1<<20)
					got := [16]byte(m.Bytes(y, 16))
					if got != want {
						t.Fatalf("%d blocks (+%d bytes): y = %x, want %x", n, len(data)%16, got, want)
					}
				}
			})
		}
	}
}

// shapeVariants returns, for each width, its default shape with each
// other choice of each schedule knob that the width takes, and a few
// combinations of them: those that pipeline the reduction with another
// form of its steps, and the 512-bit fold once with each; at 128 bits
// for both kernels, and for each alone.
func shapeVariants() []params {
	var out []params
	valid := func(p params) error { q := p; return q.resolve() }
	for _, w := range []Width{W128, W256, W512} {
		kernels := []Only{OnlyBoth}
		if w == W128 {
			kernels = []Only{OnlyBoth, OnlyAVX, OnlySSE}
		}
		for _, k := range kernels {
			base := params{width: w, kernel: k}
			out = append(out, knob.Variants(base, func(p *params) []knob.Knob { return p.shape.knobs() }, nil, valid)...)
			for _, at := range []ReduceAt{ReduceAtFront, ReduceAtSpread, ReduceAtBack} {
				for _, s := range []shape{
					{mul: MulSchoolbook},
					{reduction: ReductionShift},
					{reduction: ReductionMixed},
					{halves: HalvesUnpack},
					{halves: HalvesPair},
					{halves: HalvesPair, reduction: ReductionShift, blend: BlendMask},
					{halves: HalvesPair, reduction: ReductionShift, blend: BlendBlendpd},
					{fold: FoldOnce},
					{fold: FoldOnce, mul: MulSchoolbook, reduction: ReductionShift},
				} {
					s.reduceAt = at
					if p := (params{width: w, kernel: k, shape: s}); valid(p) == nil {
						out = append(out, p)
					}
				}
			}
		}
	}
	// Each distinct set of functions once: the shapes of every target.
	var uniq []params
	seen := map[string]bool{}
	for _, p := range out {
		if err := p.resolve(); err != nil {
			panic(err)
		}
		var key []string
		changed := false
		for _, t := range p.targets() {
			s := p.shapeOf(t)
			key = append(key, knob.Format(s.knobs()...))
			changed = changed || s != defaultShape[t]
		}
		if k := fmt.Sprint(p.width, key); changed && !seen[k] {
			seen[k] = true
			uniq = append(uniq, p)
		}
	}
	return uniq
}

// fnKnobs returns the knobs that function name prints in its "Knobs:"
// comment.
func fnKnobs(f *ir.File, name string) string {
	for _, n := range x86emu.Function(f, name).Nodes {
		if c, ok := n.(*ir.Comment); ok {
			for _, line := range c.Lines {
				if k, ok := strings.CutPrefix(line, "Knobs: "); ok {
					return k
				}
			}
		}
	}
	return "no knobs"
}

func fill(rng *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
}

// TestEmulatedGCM runs the GCM functions of the last group, emulated, on every
// split of up to eight blocks into A and C (sixteen for gcmVPCLMUL256,
// beyond eight a sample of them), whole or with a partial block, half of
// them as a whole short message and half as the end of a longer one (y
// given, the lengths larger), against the reference, on a key with H^1..H^m (m the blocks, length
// block included) and garbage above: each may read only the powers its
// message uses, and no byte outside A, C and y.
func TestEmulatedGCM(t *testing.T) {
	pf, _ := emulated(t, params{width: W128})
	wf, _ := emulated(t, params{width: W256})
	rng := rand.New(rand.NewPCG(9, 10))
	// The 128-bit functions serve keys of pclmulGroup powers, the 256-bit
	// one keys of tableBlocks.
	for _, c := range []struct {
		f    *ir.File
		name string
		most int
	}{{pf, gcmPCLMUL, pclmulGroup - 1}, {pf, gcmPCLMULAVX, pclmulGroup - 1}, {wf, gcmVPCLMUL256, tableBlocks - 1}} {
		f, name, fn, most := c.f, c.name, x86emu.Function(c.f, c.name), c.most
		t.Run(name, func(t *testing.T) {
			for la := 0; la <= most*blockBytes; la++ {
				for lc := 0; (la+15)/16+(lc+15)/16 <= most; lc++ {
					m := (la+15)/16 + (lc+15)/16 + 1
					sample := la%5 == 0 || lc%3 == 0
					if (testing.Short() || m > pclmulGroup) && !sample {
						continue
					}
					var h [16]byte
					fill(rng, h[:])
					a, c := make([]byte, la), make([]byte, lc)
					fill(rng, a)
					fill(rng, c)
					key := emuKeyBytes(t, pf, h, m, rng)
					// withY: the end of a longer message, y the GHASH
					// of what came before, the lengths those of the
					// whole; else a whole short message from zero (y is
					// garbage, only written).
					withY := (la+lc)%2 == 1
					var y0 [16]byte
					fill(rng, y0[:])
					bitsA, bitsC := uint64(la)*8, uint64(lc)*8
					want := ref.GCMGHASH(h, a, c)
					if withY {
						// y0 is the GHASH of some earlier whole
						// blocks of the message, whose lengths are
						// the larger: the reference hashes those
						// blocks, then a and c padded and the
						// length block, in one go.
						prefix := make([]byte, 16*(1+rng.IntN(3)))
						fill(rng, prefix)
						y0 = refGHASH(t, h, prefix)
						bitsA += uint64(rng.IntN(1<<20)) * 128
						bitsC += uint64(rng.IntN(1<<20)) * 128
						input := append(prefix, ref.GCMGHASHInput(a, c)...)
						binary.BigEndian.PutUint64(input[len(input)-16:], bitsA)
						binary.BigEndian.PutUint64(input[len(input)-8:], bitsC)
						want = refGHASH(t, h, input)
					}
					mc := x86emu.New(f)
					y := mc.Alloc("y", y0[:], true)
					mc.Args["y"], mc.Args["key"] = y, mc.Alloc("key", key, false)
					mc.Args["a_base"], mc.Args["a_len"] = mc.Alloc("a", a, false), uint64(la)
					mc.Args["c_base"], mc.Args["c_len"] = mc.Alloc("c", c, false), uint64(lc)
					mc.Args["bitsA"], mc.Args["bitsC"] = bitsA, bitsC
					mc.Args["withY"] = map[bool]uint64{true: 1}[withY]
					mc.Run(fn, 1<<16)
					got := [16]byte(mc.Bytes(y, 16))
					if got != want {
						t.Fatalf("len(A) = %d, len(C) = %d, withY %v: y = %x, want %x", la, lc, withY, got, want)
					}
				}
			}
		})
	}
}

// refGHASH is ref.GHASH of whole blocks, failing t on an error.
func refGHASH(t *testing.T, h [16]byte, x []byte) [16]byte {
	t.Helper()
	v, err := ref.GHASH(h, x)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
