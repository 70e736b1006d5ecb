package sha1x86

import (
	"flag"
	"os"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
)

// Main is the whole main function of a generator: it parses -out, -pkg and
// the schedule flags, describes the kernel for the ISA that newISA returns,
// and writes it.
func Main(newISA func(*build.Context) ISA) {
	ctx := build.NewContext()
	isa := newISA(ctx)
	name := "sha1_" + isa.Name()
	fs := flag.NewFlagSet(name, flag.ExitOnError)
	out := fs.String("out", "", "write the Go assembly to `file` (required)")
	pkg := fs.String("pkg", "sha1", "Go package of the output")
	p := DefaultParams()
	p.RegisterFlags(fs)
	fs.Parse(os.Args[1:])
	if *out == "" || fs.NArg() != 0 {
		fs.Usage()
		os.Exit(2)
	}
	ctx.ConstraintExpr("amd64,!purego")
	gen := Generate
	if isa.Name() == "avx2" {
		gen = func(ctx *build.Context, _ ISA, p Params) error { return GenerateAVX2(ctx, p, "blockAVX2") }
	}
	if err := gen(ctx, isa, p); err != nil {
		avogen.Fatal(name, err)
	}
	if err := avogen.Write(ctx, *out, *pkg, avogen.Command(os.Args[1:])); err != nil {
		avogen.Fatal(name, err)
	}
}
