package sha1x86

import (
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/build"
)

// Every look-ahead that Validate accepts passes the ring model, for both
// instruction sets.
func TestLookaheadRange(t *testing.T) {
	for _, isa := range []func(*build.Context) ISA{SSSE3, AVX} {
		for l := 4; l <= ringWords; l++ {
			ctx := build.NewContext()
			if err := Generate(ctx, isa(ctx), Params{Lookahead: l}); err != nil {
				t.Errorf("lookahead %d: %v", l, err)
			}
		}
	}
}

// The ring model, not only Validate, rejects look-aheads the ring cannot
// hold: too short, and a round reads a slot its group has not stored yet;
// too long, and a store overwrites a word not yet read.
func TestRingModelRejects(t *testing.T) {
	for _, l := range []int{1, 2, 3, ringWords + 1, ringWords + 4} {
		p := Params{Lookahead: l}
		if err := p.Validate(); err == nil {
			t.Errorf("Validate accepted lookahead %d", l)
		}
		ctx := build.NewContext()
		err := generate(ctx, AVX(ctx), p)
		if err == nil || !strings.Contains(err.Error(), "would read W+K ring slot") {
			t.Errorf("lookahead %d: ring model said %v, want a ring slot error", l, err)
		}
	}
}
