package gentest

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/ubc"
	"github.com/simdhash/simdhash/gen/internal/x86emu"
)

// EmulatedMasks runs the function check of ctx, a UBC check alone, on the
// emulator (gen/internal/x86emu) for every case w of ubc.Cases(rng, 100,
// 1), and fails the test unless the low word of its result is ubc.Mask(w).
// With second, check takes, after w, the W of a second block, random
// words, and with pair the high word of its result must be that block's
// mask (a check of two blocks at once).
func EmulatedMasks(t *testing.T, ctx *build.Context, rng *rand.Rand, second, pair bool) {
	t.Helper()
	f, err := x86emu.Compile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fn := x86emu.Function(f, "check")
	for w, what := range ubc.Cases(rng, 100, 1) {
		words := w[:]
		var v [80]uint32
		if second {
			v = ubc.RandomW(rng)
			words = append(words[:80:80], v[:]...)
		}
		m := x86emu.New(f)
		var b []byte
		for _, x := range words {
			b = binary.LittleEndian.AppendUint32(b, x)
		}
		m.Args["w"] = m.Alloc("w", b, false)
		m.Run(fn, 1<<16)
		r := m.Args["ret"]
		if want := ubc.Mask(w); uint32(r) != want {
			t.Fatalf("%s: mask %#08x, ubc.Mask %#08x", what, uint32(r), want)
		}
		if want := ubc.Mask(&v); pair && uint32(r>>32) != want {
			t.Fatalf("%s, the pair's second block: mask %#08x, ubc.Mask %#08x", what, uint32(r>>32), want)
		}
	}
}
