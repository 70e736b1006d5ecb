package sha1x86

import (
	"flag"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/knob"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// Main is the whole main function of kernel k's generator: it parses -out,
// -pkg, -arch where k has more than one target (Kernel.Targets), and the
// knobs k honours, describes the kernel, and writes it.
func Main(k Kernel) {
	p := k.Defaults()
	avogen.MainFor("sha1_"+k.Name, "sha1", k.Targets(), func(fs *flag.FlagSet) { knob.Register(fs, k.Knobs(&p)...) },
		func(ctx *build.Context, t avogen.Target) error {
			kt, err := k.For(t)
			if err != nil {
				return err
			}
			return kt.Generate(ctx, p, "", sha1sched.Contract{})
		})
}
