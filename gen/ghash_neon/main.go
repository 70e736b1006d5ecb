// Command ghash_neon generates the GHASH kernels of package ghash for
// arm64 (ghash_arm64.s) and for 32-bit arm with NEON (ghash_arm.s):
//
//   - ghashPMULL, with the 64x64-bit polynomial multiply of the ARMv8
//     Crypto Extensions (PMULL on arm64, VMULL.P64 on arm), aggregating
//     several blocks per reduction with precomputed powers of H;
//   - ghashNEON, with only the 8x8-bit polynomial multiply of Advanced SIMD
//     (PMULL.8H on arm64, VMULL.P8 on arm; no 64-bit multiply anywhere),
//     combining eight of them into a 64x64-bit product as in Câmara,
//     Gouvêa, López and Dahab (CD-ARES 2013).
//
// All four come from one description of GHASH (ghash.go) with the 64x64
// multiply as a parameter (mul_pmull.go, mul_neon.go), emitted through a
// machine for each instruction set (machine.go, machine_a64.go,
// machine_a32.go). Usage, from the ghash package directory:
//
//	go -C ../gen run ./ghash_neon [-arch arm] -out ../ghash/ghash_arm64.s [-gnu loops.s] [knobs]
//
// -gnu writes each kernel's main loop in GNU syntax, for llvm-mca
// (scripts/mca.sh). The knobs:
//
//	-arch A              arm64 (the default) or arm
//	-pmull-blocks N      blocks per reduction in the pmull kernel: 1, 2, 4 or 8 (arm: up to 4);
//	                     default 8 on arm64, 4 on arm
//	-pmull-ways N        partial sums per Karatsuba accumulator in the pmull kernel: 1 to 4;
//	                     default 2 on arm64, 1 on arm
//	-neon-blocks N       blocks per reduction in the neon kernel: 1 or 2 (default 2)
//	-neon-prerotated     the neon kernel loads the key's rotations B_1..B_4 from
//	                     the expanded key (true) or makes them in the loop (false)
//	-schedule            reorder instructions for in-order cores (true), or keep
//	                     the order of the description (false)
//
// The expanded key layout does not depend on the knobs or on the
// architecture (see ghash.go), so ghash/kernel_neon.go
// needs no change when they change.
package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/simdhash/simdhash/gen/internal/arm32"
	"github.com/simdhash/simdhash/gen/internal/arm64"
	"github.com/simdhash/simdhash/gen/internal/armemit"
)

// The key layouts hold H^1..H^maxBlocks: 8 for pmull, 2 for neon.
const (
	pmullMaxBlocks = 8
	neonMaxBlocks  = 2
)

// keyWords is the size in uint64 words of one kernel's expanded key.
func keyWords(kv, maxBlocks int) int { return 2 * kv * (maxBlocks + maxBlocks/2) }

// asmKeyWords is the size of expandedKey.asm in package ghash: the larger
// of the two layouts.
var asmKeyWords = max(keyWords(1, pmullMaxBlocks), keyWords(keyRotations, neonMaxBlocks))

// options are the generator's knobs. A zero number means the
// architecture's default.
type options struct {
	arch                               string
	pmullBlocks, pmullWays, neonBlocks int
	neonPrerotated, schedule           bool
}

// withDefaults fills in the architecture's defaults.
func (o options) withDefaults() options {
	if o.arch == "" {
		o.arch = "arm64"
	}
	def := map[string][3]int{"arm64": {8, 2, 2}, "arm": {4, 1, 2}}[o.arch]
	for i, p := range []*int{&o.pmullBlocks, &o.pmullWays, &o.neonBlocks} {
		if *p == 0 {
			*p = def[i]
		}
	}
	return o
}

func (o options) check() error {
	if o.arch != "arm64" && o.arch != "arm" {
		return fmt.Errorf("-arch %s is not supported: use arm64 or arm", o.arch)
	}
	pmullBlocks, pmullWays, neonBlocks := knobValues(o.arch)
	if err := oneOf("-pmull-blocks", o.pmullBlocks, pmullBlocks...); err != nil {
		return fmt.Errorf("%w (for -arch %s)", err, o.arch)
	}
	if err := oneOf("-pmull-ways", o.pmullWays, pmullWays...); err != nil {
		return err
	}
	return oneOf("-neon-blocks", o.neonBlocks, neonBlocks...)
}

// knobValues returns the values the generator accepts for each numeric
// knob on arch.
func knobValues(arch string) (pmullBlocks, pmullWays, neonBlocks []int) {
	pmullBlocks = []int{1, 2, 4, 8}
	if arch == "arm" {
		pmullBlocks = []int{1, 2, 4} // 16 registers
	}
	return pmullBlocks, []int{1, 2, 3, 4}, []int{1, 2}
}

func oneOf(flagName string, n int, allowed ...int) error {
	if slices.Contains(allowed, n) {
		return nil
	}
	return fmt.Errorf("%s %d is not supported: use one of %v", flagName, n, allowed)
}

// target makes the file for an architecture and the machine of each of
// its functions.
func target(arch string) (*armemit.File, func(name, sig string) (machine, error), error) {
	file, err := armemit.NewFile(arch + " && !purego")
	if err != nil {
		return nil, nil, err
	}
	switch arch {
	case "arm64":
		f := &arm64.File{File: file}
		rot := rotationTable(f)
		return file, func(name, sig string) (machine, error) {
			fn, err := f.Func(name, sig)
			if err != nil {
				return nil, err
			}
			return &a64{Func: fn.Func, f: fn, rot: rot, tmp: arm64.R4}, nil
		}, nil
	case "arm":
		f := &arm32.File{File: file}
		nibble := bitrevTable(f)
		return file, func(name, sig string) (machine, error) {
			fn, err := f.Func(name, sig)
			if err != nil {
				return nil, err
			}
			return &a32{Func: fn.Func, f: fn, nibble: nibble, tbl: arm32.R5}, nil
		}, nil
	}
	return nil, nil, fmt.Errorf("no architecture %q", arch)
}

// bitrevPhrase names the bit reversal in each kernel's header comment.
var bitrevPhrase = map[string]string{"arm64": "RBIT of", "arm": "reversing the bits of"}

// generate builds the file of both kernels and returns it with the main
// loop of each in GNU syntax.
func generate(o options) (file *armemit.File, loops string, err error) {
	o = o.withDefaults()
	if err := o.check(); err != nil {
		return nil, "", err
	}
	file, newMachine, err := target(o.arch)
	if err != nil {
		return nil, "", err
	}
	var gnu strings.Builder
	for _, k := range []struct {
		name, fn  string
		mul       mul64
		maxBlocks int
		blocks    int
	}{
		{"pmull", "ghashPMULL", &pmull64{ways: o.pmullWays, resident: o.arch == "arm64"}, pmullMaxBlocks, o.pmullBlocks},
		{"neon", "ghashNEON", &neon8{prerotated: o.neonPrerotated, deferred: o.arch == "arm"}, neonMaxBlocks, o.neonBlocks},
	} {
		m, err := newMachine(k.fn, fmt.Sprintf("func(y *[16]byte, key *[%d]uint64, p []byte)", asmKeyWords))
		if err != nil {
			return nil, "", err
		}
		g := &gen{m: m, regs: newPool(m.vregs()), mul: k.mul, y: 0, key: 1, p: 2, n: 3,
			maxBlocks: k.maxBlocks, blocks: k.blocks}
		m.setPool(g.regs)
		m.Comment(fmt.Sprintf("%s absorbs len(p)/16 blocks of p into *y: y = (y+X)·H for each block X.", k.fn),
			fmt.Sprintf("Representation: %s each byte turns SP 800-38D's bit order into the", bitrevPhrase[o.arch]),
			"ordinary one: bit j of a register is the coefficient of x^j (see gen/ghash_neon).")
		m.Comment(g.keyLayout()...)
		if o.schedule {
			m.Comment("The instructions are reordered for in-order cores; the comments mark",
				"where each step starts (-schedule=false keeps the description's order).")
		}
		loop, err := g.emit()
		if err != nil {
			return nil, "", fmt.Errorf("-arch %s, kernel %s: %w", o.arch, k.name, err)
		}
		if o.schedule {
			m.Schedule()
		}
		body, err := m.GNU(loop)
		if err != nil {
			return nil, "", err
		}
		fmt.Fprintf(&gnu, "// kernel %s blocks %d\n%s", k.name, k.blocks, body)
	}
	return file, gnu.String(), nil
}

// archName is -arch as a flag.Value: any name, which options.check
// accepts or refuses.
type archName string

func (a *archName) String() string     { return string(*a) }
func (a *archName) Set(s string) error { *a = archName(s); return nil }

// command is the generator's command line, with the knobs in o.
func command(o *options) armemit.Generator {
	o.arch = "arm64" // the default
	return armemit.Generator{
		Name:      "ghash_neon",
		Arch:      (*archName)(&o.arch),
		ArchUsage: "the architecture: arm64 or arm",
		GNUUsage:  "write each kernel's main loop in GNU syntax to `file` (for llvm-mca)",
		GNUAbout:  "The main loop of each kernel, in GNU syntax (for llvm-mca).",
		Flags: func(fs *flag.FlagSet) {
			fs.IntVar(&o.pmullBlocks, "pmull-blocks", 0, "blocks per reduction in the pmull kernel: 1, 2, 4 or 8 (arm: up to 4); 0 means 8 on arm64, 4 on arm")
			fs.IntVar(&o.pmullWays, "pmull-ways", 0, "partial sums per Karatsuba accumulator in the pmull kernel: 1 to 4; 0 means 2 on arm64, 1 on arm")
			fs.IntVar(&o.neonBlocks, "neon-blocks", 0, "blocks per reduction in the neon kernel: 1 or 2; 0 means 2")
			fs.BoolVar(&o.neonPrerotated, "neon-prerotated", true, "neon: load the key's byte rotations precomputed (else rotate in the loop)")
			fs.BoolVar(&o.schedule, "schedule", true, "reorder each straight-line stretch for in-order cores")
		},
		Generate: func() (*armemit.File, string, error) { return generate(*o) },
	}
}

func main() {
	var o options
	command(&o).Main()
}
