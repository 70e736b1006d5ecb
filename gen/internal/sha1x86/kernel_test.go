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
			x := isa(ctx)
			p := DefaultParams(x.Name())
			p.Lookahead = l
			if err := Generate(ctx, x, p); err != nil {
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
		p := DefaultParams("avx")
		p.Lookahead = l
		if err := p.Validate(); err == nil {
			t.Errorf("Validate accepted lookahead %d", l)
		}
		ctx := build.NewContext()
		err := generate(ctx, AVX(ctx), p, "blockAVX")
		if err == nil || !strings.Contains(err.Error(), "would read W+K ring slot") {
			t.Errorf("lookahead %d: ring model said %v, want a ring slot error", l, err)
		}
	}
}

// Every knob value is accepted by Validate, and Validate rejects a value
// that is not one of them, naming the flag.
func TestValidateKnobs(t *testing.T) {
	for _, p := range Variants(DefaultParams("avx")) {
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	for _, bad := range []func(*Params){
		func(p *Params) { p.Placement = "middle" },
		func(p *Params) { p.Maj = "nand" },
		func(p *Params) { p.Rotate = "ror" },
		func(p *Params) { p.Align = "" },
	} {
		p := DefaultParams("avx")
		bad(&p)
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "want one of") {
			t.Errorf("%s: Validate said %v", p, err)
		}
	}
}

// A burst placement stores a group's W+K in the first of its four rounds,
// three rounds earlier than spread: with the longest look-ahead that
// overwrites words not yet read, and the ring model must say so.
func TestBurstNeedsShorterLookahead(t *testing.T) {
	p := DefaultParams("avx")
	p.Placement = "burst"
	p.Lookahead = ringWords
	if err := p.Validate(); err == nil {
		t.Errorf("%s: Validate accepted it", p)
	}
	ctx := build.NewContext()
	if err := generate(ctx, AVX(ctx), p, "blockAVX"); err == nil || !strings.Contains(err.Error(), "would read W+K ring slot") {
		t.Errorf("%s: the ring model said %v, want a ring slot error", p, err)
	}
	p.Lookahead = ringWords - 3
	ctx = build.NewContext()
	if err := Generate(ctx, AVX(ctx), p); err != nil {
		t.Errorf("%s: %v", p, err)
	}
}
