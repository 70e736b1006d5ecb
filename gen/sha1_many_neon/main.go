// Command sha1_many_neon generates the 4-lane NEON kernel of sha1.SumMany
// for arm64 cores without the SHA1 instructions, described in
// gen/internal/sha1many through its NEON backend. Usage, from the sha1
// package directory:
//
//	go -C ../gen run ./sha1_many_neon -out ../sha1/sha1many_neon_arm64.s [-gnu loop.s] [knobs]
//
// -help lists the knobs (-lookahead, -ch, -maj).
package main

import (
	"errors"
	"flag"

	"github.com/simdhash/simdhash/gen/internal/arm64"
	"github.com/simdhash/simdhash/gen/internal/armemit"
	"github.com/simdhash/simdhash/gen/internal/knob"
	"github.com/simdhash/simdhash/gen/internal/sha1arm"
	"github.com/simdhash/simdhash/gen/internal/sha1many"
)

func main() {
	arch := sha1arm.ARM64
	p := sha1many.DefaultParams(4)
	probe := sha1many.NEON(nil)
	armemit.Generator{
		Name:      "sha1_many_neon",
		Arch:      &arch,
		ArchUsage: "the architecture: arm64 only (no AArch32 kernel)",
		GNUUsage:  "write the block loop in GNU syntax to `file` (for llvm-mca)",
		GNUAbout:  "The block loop of manyNEON in GNU syntax (for llvm-mca), one block of each of 4 lanes:",
		Flags:     func(fs *flag.FlagSet) { knob.Register(fs, p.Knobs(probe)...) },
		Generate: func() (*armemit.File, string, error) {
			if arch != sha1arm.ARM64 {
				return nil, "", errors.New("-arch arm: the NEON lanes exist for arm64 only")
			}
			file, err := arm64.NewFile("arm64 && !purego")
			if err != nil {
				return nil, "", err
			}
			b := sha1many.NEON(file)
			if err := sha1many.Generate(b, p, "manyNEON"); err != nil {
				return nil, "", err
			}
			fn := b.(interface{ Func() *arm64.Func }).Func()
			fn.ScheduleFor(sha1arm.CortexA53) // the A55 is alike but faster; the out-of-order A57 depends little on the order
			loop, err := fn.GNU("loop")
			return file.File, "// blocks 4\n" + loop, err
		},
	}.Main()
}
