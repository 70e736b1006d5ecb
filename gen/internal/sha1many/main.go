package sha1many

import (
	"flag"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/knob"
)

// Main is the whole main function of the generator gen/<name>: it parses
// -out, -pkg and the knobs the kernel of newBackend honours, describes the
// kernel as the function fn, and writes it.
func Main(name string, newBackend func(*build.Context) Backend, fn string) {
	mainOf(name, "sha1", newBackend, fn, Generate)
}

// mainOf is Main for a generator of package pkg, whose kernel generate
// emits.
func mainOf(name, pkg string, newBackend func(*build.Context) Backend, fn string, generate func(Backend, Params, string) error) {
	b := newBackend(nil)
	p := DefaultParams(b.Lanes())
	avogen.Main(name, pkg, func(fs *flag.FlagSet) { knob.Register(fs, p.Knobs(b)...) }, func(ctx *build.Context) error {
		return generate(newBackend(ctx), p, fn)
	})
}
