// Command sha1_neon generates the "neon" SHA-1 kernel of package sha1 for
// ARM cores without the SHA-1 instructions: the vectorised message
// schedule of gen/internal/sha1sched on NEON, with the rounds in general
// registers, through its ARM backend gen/internal/sha1arm. For arm64
// (sha1block_neon_arm64.s) and 32-bit ARM (-arch arm,
// sha1block_neon_arm.s, NEON as WORDs). Usage, from the sha1 package
// directory:
//
//	go -C ../gen run ./sha1_neon [-arch arm] -out ../sha1/sha1block_neon_arm64.s [-gnu loop.s] [knobs]
//
// -gnu writes the block loop (one block) in GNU syntax, for llvm-mca
// (scripts/mca.sh). The knobs are the schedule's (-lookahead, -placement,
// -ch, -maj) and the ARM backend's own; -help lists those of the -arch
// given, with their choices and defaults.
package main

import (
	"flag"

	"github.com/simdhash/simdhash/gen/internal/armemit"
	"github.com/simdhash/simdhash/gen/internal/knob"
	"github.com/simdhash/simdhash/gen/internal/sha1arm"
)

func main() {
	arch := sha1arm.ARM64
	var p sha1arm.Params
	armemit.Generator{
		Name:      "sha1_neon",
		Arch:      &arch,
		ArchUsage: "the target: arm64 or arm (32-bit, NEON as WORDs)",
		GNUUsage:  "write the block loop in GNU syntax to `file` (for llvm-mca)",
		GNUAbout:  "The block loop of " + sha1arm.Function + " in GNU syntax (for llvm-mca):",
		Flags: func(fs *flag.FlagSet) {
			p = arch.Defaults()
			knob.Register(fs, arch.Knobs(&p)...)
		},
		Generate: func() (*armemit.File, string, error) {
			file, loop, err := arch.Generate(p, "", arch.String()+" && !purego")
			return file, "// blocks 1\n" + loop, err
		},
	}.Main()
}
