package main

import (
	"fmt"
	"math/rand"
	"os"
	"testing"

	"github.com/simdhash/simdhash/gen/internal/gentest"
)

// TestSweep generates both kernels for every value of every knob, varied
// one at a time from each architecture's defaults (-arch arm64 and -arch
// arm), plus three combinations that vary several knobs, into a scratch
// package under testdata/, and runs them there against internal/ref's
// GHASH under qemu-aarch64 and qemu-arm.
// SIMDHASH_SWEEP=full takes every combination of the knobs instead (make
// sweep). SIMDHASH_SWEEP_KEEP=1 leaves the scratch package behind.
//
// The kernels are arm code, so the scratch tests are cross-compiled and
// run under qemu user-mode emulation with QEMU_CPU=max (which has the
// 64-bit polynomial multiply); without qemu the test is skipped.
func TestSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the sweep cross-compiles and runs every knob's kernels under qemu; run it without -short (make test) or with make sweep")
	}
	full := os.Getenv("SIMDHASH_SWEEP") == "full"
	gentest.NeedQemu(t)

	sw := gentest.NewSweep(t, sweepTest)
	for _, a := range gentest.QemuArches {
		var variants []options
		if full {
			variants = allOptions(a.GOARCH)
		} else {
			variants = append(oneAtATime(a.GOARCH), randomCombinations(a.GOARCH, 3)...)
		}
		features := "cpu.ARM64.HasPMULL, cpu.ARM64.HasASIMD"
		if a.GOARCH == "arm" {
			features = "cpu.ARM.HasPMULL, cpu.ARM.HasNEON"
		}
		sw.Head(a.GOARCH, fmt.Sprintf("import \"golang.org/x/sys/cpu\"\n\n"+sweepLayout+"\nvar hasPMULL, hasNEON = %s\n\n",
			asmKeyWords, pmullMaxBlocks, neonMaxBlocks, keyRotations, features))
		for _, o := range variants {
			file, _, err := generate(o)
			if err != nil {
				t.Fatalf("%s: %v", o.flags(), err)
			}
			sw.Add(a.GOARCH, file, o.flags(), []string{"ghashPMULL", "ghashNEON"}, "func(y *[16]byte, key *[asmKeyWords]uint64, p []byte)",
				func(names []string) string {
					return fmt.Sprintf("\t{%q, \"pmull\", %s},\n\t{%q, \"neon\", %s},\n", o.flags(), names[0], o.flags(), names[1])
				})
		}
	}
	n := sw.Run()
	t.Logf("%d variants (two kernels each) passed", n)
}

// flags is o as the generator's command-line flags, to reproduce a variant.
func (o options) flags() string {
	return fmt.Sprintf("-arch %s -pmull-blocks %d -pmull-ways %d -neon-blocks %d -neon-prerotated=%t -schedule=%t",
		o.arch, o.pmullBlocks, o.pmullWays, o.neonBlocks, o.neonPrerotated, o.schedule)
}

// sweepDefaults is what the generator runs with when given no knobs.
func sweepDefaults(arch string) options {
	return options{arch: arch, neonPrerotated: true, schedule: true}.withDefaults()
}

// oneAtATime returns the defaults of arch, then each other value of each
// knob with the rest at their defaults.
func oneAtATime(arch string) []options {
	def := sweepDefaults(arch)
	out := []options{def}
	pb, pw, nb := knobValues(arch)
	for _, k := range []struct {
		field  func(*options) *int
		values []int
	}{
		{func(o *options) *int { return &o.pmullBlocks }, pb},
		{func(o *options) *int { return &o.pmullWays }, pw},
		{func(o *options) *int { return &o.neonBlocks }, nb},
	} {
		for _, v := range k.values {
			o := def
			if *k.field(&o) == v {
				continue
			}
			*k.field(&o) = v
			out = append(out, o)
		}
	}
	o := def
	o.neonPrerotated = !o.neonPrerotated
	out = append(out, o)
	o = def
	o.schedule = !o.schedule
	return append(out, o)
}

// allOptions returns every combination of the knobs on arch, in a random
// (seeded) order, so that a failure early in the list is as likely to be
// any combination.
func allOptions(arch string) []options {
	pb, pw, nb := knobValues(arch)
	var out []options
	for _, b := range pb {
		for _, w := range pw {
			for _, n := range nb {
				for _, rot := range []bool{true, false} {
					for _, sched := range []bool{true, false} {
						out = append(out, options{arch: arch, pmullBlocks: b, pmullWays: w, neonBlocks: n, neonPrerotated: rot, schedule: sched})
					}
				}
			}
		}
	}
	rand.New(rand.NewSource(1)).Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// randomCombinations returns the first k combinations of allOptions (a
// seeded shuffle) that vary more than one knob from the defaults: the few
// random combinations of the reduced sweep.
func randomCombinations(arch string, k int) []options {
	def := sweepDefaults(arch)
	var out []options
	for _, o := range allOptions(arch) {
		if len(out) == k {
			break
		}
		if o.differences(def) > 1 {
			out = append(out, o)
		}
	}
	return out
}

// differences counts the knobs in which o and p differ.
func (o options) differences(p options) int {
	n := 0
	for _, d := range []bool{o.pmullBlocks != p.pmullBlocks, o.pmullWays != p.pmullWays, o.neonBlocks != p.neonBlocks, o.neonPrerotated != p.neonPrerotated, o.schedule != p.schedule} {
		if d {
			n++
		}
	}
	return n
}

// TestSweepVariants checks the sweep's lists of knobs: the one-at-a-time
// list starts with the defaults and varies each knob once per other value,
// the full list holds every valid combination once, and the reduced
// sweep's random combinations add three variants it does not already have.
func TestSweepVariants(t *testing.T) {
	for _, arch := range []string{"arm64", "arm"} {
		pb, pw, nb := knobValues(arch)
		// The defaults, then each other value of each knob: 1 + (len-1) per knob, +1 per bool.
		if got, want := len(oneAtATime(arch)), 1+len(pb)-1+len(pw)-1+len(nb)-1+2; got != want {
			t.Errorf("%s: %d one-at-a-time variants, want %d", arch, got, want)
		}
		seen := map[options]bool{}
		for _, o := range append(oneAtATime(arch), allOptions(arch)...) {
			if err := o.check(); err != nil {
				t.Errorf("%s: %v", o.flags(), err)
			}
			seen[o] = true
		}
		if got, want := len(seen), len(pb)*len(pw)*len(nb)*2*2; got != want {
			t.Errorf("%s: %d distinct variants in the full sweep, want %d", arch, got, want)
		}
		if def := sweepDefaults(arch); !seen[def] || oneAtATime(arch)[0] != def {
			t.Errorf("%s: the defaults %s are not the first variant", arch, def.flags())
		}
		rc := randomCombinations(arch, 3)
		if len(rc) != 3 {
			t.Errorf("%s: %d random combinations, want 3", arch, len(rc))
		}
		reduced := map[options]bool{}
		for _, o := range oneAtATime(arch) {
			reduced[o] = true
		}
		for _, o := range rc {
			if reduced[o] {
				t.Errorf("%s: random combination %s repeats another variant of the reduced sweep", arch, o.flags())
			}
			reduced[o] = true
		}
	}
}

// sweepLayout gives the scratch package the generator's key layout
// constants (asmKeyWords, pmullMaxBlocks, neonMaxBlocks, keyRotations).
const sweepLayout = `const (
	asmKeyWords    = %d
	pmullMaxBlocks = %d
	neonMaxBlocks  = %d
	keyRotations   = %d
)
`

// sweepTest checks each variant's kernel against SP 800-38D as
// internal/ref implements it. It expands the key itself, from the layout
// that gen/ghash_neon documents (ghash.go), with powers of H computed by
// ref.GHASHMul: for the pmull kernel H^max..H^1 and the Karatsuba sums of
// their halves two powers at a time, one 16-byte vector each; for the neon
// kernel the same operands for H^2, H^1, each as keyRotations vectors whose
// two 64-bit halves are rotated right by r bytes. Each variant absorbs 0 to
// 20 blocks plus a partial block it must ignore, from a random accumulator,
// and must leave its input, the bytes around it and the key unchanged.
const sweepTest = `//go:build arm64 || arm

package sweep

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"math/rand"
	"testing"

	"github.com/simdhash/simdhash/internal/ref"
)

type variant struct {
	flags, kernel string
	update        func(y *[16]byte, key *[asmKeyWords]uint64, p []byte)
}

// halves is a block in the kernels' order: the bits of each byte reversed,
// read as two little-endian 64-bit words (bit j is the coefficient of x^j).
func halves(b [16]byte) [2]uint64 {
	for i := range b {
		b[i] = bits.Reverse8(b[i])
	}
	return [2]uint64{binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:])}
}

// operands lists H^max .. H^1, then [lo+hi of H^p, lo+hi of H^(p-1)] for
// p = max, max-2, ..., 2.
func operands(h [16]byte, max int) [][2]uint64 {
	pow := make([][16]byte, max+1)
	pow[1] = h
	for i := 2; i <= max; i++ {
		pow[i] = ref.GHASHMul(pow[i-1], h)
	}
	var ops [][2]uint64
	for p := max; p >= 1; p-- {
		ops = append(ops, halves(pow[p]))
	}
	for p := max; p >= 2; p -= 2 {
		a, b := halves(pow[p]), halves(pow[p-1])
		ops = append(ops, [2]uint64{a[0] ^ a[1], b[0] ^ b[1]})
	}
	return ops
}

func expand(kernel string, h [16]byte) *[asmKeyWords]uint64 {
	var key [asmKeyWords]uint64
	var words []uint64
	switch kernel {
	case "pmull":
		for _, op := range operands(h, pmullMaxBlocks) {
			words = append(words, op[0], op[1])
		}
	case "neon":
		for _, op := range operands(h, neonMaxBlocks) {
			for r := 0; r < keyRotations; r++ {
				words = append(words, bits.RotateLeft64(op[0], -8*r), bits.RotateLeft64(op[1], -8*r))
			}
		}
	}
	if len(words) > len(key) {
		panic("the layout does not fit asmKeyWords")
	}
	copy(key[:], words)
	return &key
}

func TestVariants(t *testing.T) {
	if !hasPMULL || !hasNEON {
		t.Fatalf("the emulated CPU lacks NEON or the 64-bit PMULL (PMULL %v, NEON %v): run qemu with -cpu max (QEMU_CPU=max)", hasPMULL, hasNEON)
	}
	for _, v := range variants {
		t.Run(v.kernel+" "+v.flags, func(t *testing.T) {
			rng := rand.New(rand.NewSource(1))
			for n := 0; n <= 20; n++ {
				var h, y [16]byte
				rng.Read(h[:])
				rng.Read(y[:])
				key := expand(v.kernel, h)
				savedKey := *key
				buf := make([]byte, 16+16*n+7+16)
				rng.Read(buf)
				saved := bytes.Clone(buf)
				p := buf[16 : 16+16*n+7]

				want := y
				if n > 0 {
					x := bytes.Clone(p[:16*n])
					for i := range y {
						x[i] ^= y[i]
					}
					var err error
					if want, err = ref.GHASH(h, x); err != nil {
						t.Fatal(err)
					}
				}
				got := y
				v.update(&got, key, p)
				if got != want {
					t.Fatalf("%d blocks: y = %x, want %x", n, got, want)
				}
				if !bytes.Equal(buf, saved) {
					t.Fatalf("%d blocks: the kernel changed its input or the bytes around it", n)
				}
				if *key != savedKey {
					t.Fatalf("%d blocks: the kernel changed the key", n)
				}
			}
		})
	}
}
`
