// Command ghash_neon generates the arm64 GHASH kernels of package ghash:
//
//   - ghashPMULL, with the 64x64-bit PMULL of the ARMv8 Crypto Extensions,
//     aggregating several blocks per reduction with precomputed powers of H;
//   - ghashNEON, with only the 8x8-bit PMULL of Advanced SIMD (no 64-bit
//     PMULL anywhere), combining eight of them into a 64x64-bit product
//     as in Câmara, Gouvêa, López and Dahab (CD-ARES 2013).
//
// Both come from one description of GHASH (ghash.go) with the 64x64
// multiply as a parameter (mul_pmull.go, mul_neon.go). Usage, from the
// ghash package directory:
//
//	go run github.com/simdhash/simdhash/gen/ghash_neon -out ghash_arm64.s [-gnu loops.s] [knobs]
//
// -gnu writes each kernel's main loop in GNU syntax, for llvm-mca
// (scripts/mca.sh). The knobs:
//
//	-pmull-blocks N      blocks per reduction in the pmull kernel: 1, 2, 4 or 8
//	-pmull-ways N        partial sums per Karatsuba accumulator in the pmull kernel: 1 to 4
//	-neon-blocks N       blocks per reduction in the neon kernel: 1 or 2
//	-neon-prerotated     the neon kernel loads the key's rotations B_1..B_4 from
//	                     the expanded key (true) or makes them in the loop (false)
//	-schedule            reorder instructions for in-order cores (true), or keep
//	                     the order of the description (false)
//
// The expanded key layout does not depend on the knobs (see ghash.go), so
// ghash/kernel_arm64.go needs no change when they change.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	. "github.com/simdhash/simdhash/gen/internal/arm64"
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

// options are the generator's knobs.
type options struct {
	pmullBlocks, pmullWays, neonBlocks int
	neonPrerotated, schedule           bool
}

func (o options) check() error {
	if err := oneOf("-pmull-blocks", o.pmullBlocks, 1, 2, 4, 8); err != nil {
		return err
	}
	if err := oneOf("-pmull-ways", o.pmullWays, 1, 2, 3, 4); err != nil {
		return err
	}
	return oneOf("-neon-blocks", o.neonBlocks, 1, 2)
}

func oneOf(flagName string, n int, allowed ...int) error {
	for _, a := range allowed {
		if n == a {
			return nil
		}
	}
	return fmt.Errorf("%s %d is not supported: use one of %v", flagName, n, allowed)
}

// generate builds the file of both kernels and returns it with the main
// loop of each in GNU syntax.
func generate(o options) (*File, string, error) {
	if err := o.check(); err != nil {
		return nil, "", err
	}
	file, err := NewFile("arm64 && !purego")
	if err != nil {
		return nil, "", err
	}
	var loops strings.Builder
	for _, k := range []struct {
		name, fn  string
		mul       mul64
		maxBlocks int
		blocks    int
	}{
		{"pmull", "ghashPMULL", &pmull64{ways: o.pmullWays}, pmullMaxBlocks, o.pmullBlocks},
		{"neon", "ghashNEON", &neon8{prerotated: o.neonPrerotated, rot: rotationTable(file)}, neonMaxBlocks, o.neonBlocks},
	} {
		f, err := file.Func(k.fn, fmt.Sprintf("func(y *[16]byte, key *[%d]uint64, p []byte)", asmKeyWords))
		if err != nil {
			return nil, "", err
		}
		g := &gen{f: f, regs: newPool(), mul: k.mul, y: R0, key: R1, p: R2, n: R3, tmp: R4,
			maxBlocks: k.maxBlocks, blocks: k.blocks}
		f.Comment(fmt.Sprintf("%s absorbs len(p)/16 blocks of p into *y: y = (y+X)·H for each block X.", k.fn),
			"Representation: RBIT of each byte turns SP 800-38D's bit order into the",
			"ordinary one: bit j of a register is the coefficient of x^j (see gen/ghash_neon).")
		f.Comment(g.keyLayout()...)
		if o.schedule {
			f.Comment("The instructions are reordered for in-order cores; the comments mark",
				"where each step starts (-schedule=false keeps the description's order).")
		}
		loop := g.emitKernel()
		if o.schedule {
			f.Schedule()
		}
		body, err := f.GNU(loop)
		if err != nil {
			return nil, "", err
		}
		fmt.Fprintf(&loops, "// kernel %s blocks %d\n%s", k.name, k.blocks, body)
	}
	return file, loops.String(), nil
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("ghash_neon", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "write the Go assembly to `file`")
	gnu := fs.String("gnu", "", "write each kernel's main loop in GNU syntax to `file` (for llvm-mca)")
	var o options
	fs.IntVar(&o.pmullBlocks, "pmull-blocks", 8, "blocks per reduction in the pmull kernel: 1, 2, 4 or 8")
	fs.IntVar(&o.pmullWays, "pmull-ways", 2, "partial sums per Karatsuba accumulator in the pmull kernel: 1 to 4")
	fs.IntVar(&o.neonBlocks, "neon-blocks", 2, "blocks per reduction in the neon kernel: 1 or 2")
	fs.BoolVar(&o.neonPrerotated, "neon-prerotated", true, "neon: load the key's byte rotations precomputed (else rotate in the loop)")
	fs.BoolVar(&o.schedule, "schedule", true, "reorder each straight-line stretch for in-order cores")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *out == "" && *gnu == "" {
		return errors.New("nothing to do: give -out and/or -gnu")
	}
	file, loops, err := generate(o)
	if err != nil {
		return err
	}
	command := Command(args)
	if *out != "" {
		if err := file.Write(*out, command); err != nil {
			return err
		}
	}
	if *gnu != "" {
		text := "// Generated by: " + strings.Join(command, " ") + "\n" +
			"// The main loop of each kernel, in GNU syntax (for llvm-mca).\n" + loops
		if err := os.WriteFile(*gnu, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "ghash_neon:", err)
		}
		os.Exit(2)
	}
}
