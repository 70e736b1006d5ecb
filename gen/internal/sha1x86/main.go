package sha1x86

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
)

// Main is the whole main function of a generator: it parses -out, -pkg and
// the schedule flags, describes the kernel for the ISA that newISA returns,
// and writes it.
func Main(newISA func(*build.Context) ISA) {
	isaName := newISA(build.NewContext()).Name()
	p := DefaultParams(isaName)
	name := "sha1_" + isaName
	avogen.Main(name, "sha1", p.RegisterFlags, func(ctx *build.Context) error {
		isa := newISA(ctx)
		if isa.Name() == "avx2" {
			return GenerateAVX2(ctx, p, "blockAVX2")
		}
		return Generate(ctx, isa, p)
	})
}
