package sha1x86

import (
	"flag"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/knob"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// Main is the whole main function of kernel k's generator: it parses -out,
// -pkg and the knobs k honours, describes the kernel, and writes it.
func Main(k Kernel) {
	p := k.Defaults()
	avogen.Main("sha1_"+k.Name, "sha1", func(fs *flag.FlagSet) { knob.Register(fs, k.Knobs(&p)...) },
		func(ctx *build.Context) error { return k.Generate(ctx, p, "", sha1sched.Contract{}) })
}
