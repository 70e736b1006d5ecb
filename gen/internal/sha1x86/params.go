package sha1x86

import (
	"flag"
	"fmt"
	"strings"
)

// Params are the schedule choices of one generated kernel. Each is a
// generator flag; DefaultParams says what the repository checks in.
type Params struct {
	// Lookahead is how many rounds before round t the vector precalculation
	// of the group holding W[t]+K starts.
	Lookahead int

	// Placement is where a group's vector steps sit among the scalar
	// instructions of its four rounds (see placements).
	Placement string

	// Ch is the form of the rounds 0..19 function (see chForms).
	Ch string

	// Maj is the form of the rounds 40..59 function (see majForms).
	Maj string

	// Rotate is how rol5(a) and rol30(b) are computed (see rotates).
	Rotate string

	// Align is how a vector of four words straddling two schedule
	// registers (W[t-14..t-11] and W[t-6..t-3]) is formed (see aligns).
	Align string
}

// The values each string knob takes, with the help text for each.
var (
	placements = choices{
		{"spread", "the group's steps dealt evenly over its four rounds, and evenly between each round's scalar instructions"},
		{"front", "dealt evenly over the four rounds, each round's share right after its W+K read"},
		{"burst", "all of the group's steps in the first of its four rounds, spread between its scalar instructions"},
	}
	chForms = choices{
		{"xor", "Ch(b,c,d) = ((c ^ d) & b) ^ d: four operations, c three deep"},
		{"add", "Ch(b,c,d) = (~b & d) + (b & c): the disjoint halves added into e separately; five operations, c one deep"},
	}
	majForms = choices{
		{"xor", "Maj(b,c,d) = ((b ^ c) & (c ^ d)) ^ c, with b ^ c left by the round before"},
		{"or", "Maj(b,c,d) = (b & c) | (d & (b | c))"},
		{"add", "Maj(b,c,d) = (c & d) + (b & (c ^ d)): the two disjoint halves added into e separately"},
	}
	rotates = choices{
		{"rol", "ROLL $5 / RORL $7 (RORL $2 in round 0)"},
		{"shld", "SHLDL of a register with itself (double-precision shift)"},
		{"shift", "a copy-and-shift pair: r<<n | r>>(32-n) through a scratch register"},
	}
	aligns = choices{
		{"palignr", "one PALIGNR $8 of the two registers"},
		{"unpack", "PSHUFD swaps the halves of the low register, PUNPCKLQDQ appends the high register's low half"},
	}
)

// ringWords is the number of 32-bit W+K slots in the stack ring.
const ringWords = 16

// DefaultParams returns the schedule checked into the repository for the
// kernel named isa ("ssse3", "avx" or "avx2"; avx2 shares avx's, not
// measured apart). Each knob is the fastest measured on this project's
// machine for avx and ssse3, or within the noise of it (README, "Schedule
// knobs, measured"), with one exception: ssse3 takes the XOR form of Maj.
// That form is one instruction a round shorter and one dependency deeper
// than the ADD form, and the ssse3 kernel runs only on cores without AVX,
// which are narrow and limited by instruction count (llvm-mca's Sandy
// Bridge, Haswell and Zen 2 models need it to reach OpenSSL's figure)
// rather than by latency like this machine's, where it costs 2.5%.
func DefaultParams(isa string) Params {
	p := Params{Lookahead: 16, Placement: "spread", Ch: "xor", Maj: "add", Rotate: "rol", Align: "palignr"}
	if isa == "ssse3" {
		p.Maj = "xor"
	}
	return p
}

// RegisterFlags binds the fields of p to flags of fs, with p's current
// values as defaults.
func (p *Params) RegisterFlags(fs *flag.FlagSet) {
	fs.IntVar(&p.Lookahead, "lookahead", p.Lookahead,
		fmt.Sprintf("rounds between the start of a W+K group's precalculation and the first round that reads it (4..%d)", ringWords))
	fs.StringVar(&p.Placement, "placement", p.Placement, "where a W+K group's vector steps sit among the scalar rounds:\n"+placements.help())
	fs.StringVar(&p.Ch, "ch", p.Ch, "form of the rounds 0..19 function:\n"+chForms.help())
	fs.StringVar(&p.Maj, "maj", p.Maj, "form of the rounds 40..59 function:\n"+majForms.help())
	fs.StringVar(&p.Rotate, "rotate", p.Rotate, "how rol5(a) and rol30(b) are computed:\n"+rotates.help())
	fs.StringVar(&p.Align, "align", p.Align, "how W[t-14..t-11] and W[t-6..t-3], which straddle two registers, are formed:\n"+aligns.help())
}

// Validate reports a schedule that cannot work. The ring model in the
// emitter catches any ordering mistake as well; Validate gives the plain
// reason for the common ones.
func (p Params) Validate() error {
	if p.Lookahead < 4 {
		return fmt.Errorf("-lookahead=%d: a group's four steps take four rounds, so its words are not ready for round t unless the look-ahead is at least 4", p.Lookahead)
	}
	if p.Lookahead > ringWords {
		return fmt.Errorf("-lookahead=%d: the W+K ring holds %d words, so a look-ahead over %d would overwrite words before their round reads them", p.Lookahead, ringWords, ringWords)
	}
	if p.Placement == "burst" && p.Lookahead > ringWords-3 {
		return fmt.Errorf("-placement=burst with -lookahead=%d: a burst stores a group's W+K three rounds earlier than its last round, so the %d-word ring holds a look-ahead of at most %d", p.Lookahead, ringWords, ringWords-3)
	}
	for _, k := range []struct {
		flag, value string
		c           choices
	}{{"placement", p.Placement, placements}, {"ch", p.Ch, chForms}, {"maj", p.Maj, majForms}, {"rotate", p.Rotate, rotates}, {"align", p.Align, aligns}} {
		if !k.c.has(k.value) {
			return fmt.Errorf("-%s=%q: want one of %s", k.flag, k.value, k.c.names())
		}
	}
	return nil
}

func (p Params) String() string {
	return fmt.Sprintf("lookahead=%d placement=%s ch=%s maj=%s rotate=%s align=%s", p.Lookahead, p.Placement, p.Ch, p.Maj, p.Rotate, p.Align)
}

// Variants lists, for the correctness sweep, every value of every knob
// varied one at a time from base. A value that needs a shorter look-ahead
// than base's (a burst placement) comes with the longest it allows.
func Variants(base Params) []Params {
	var out []Params
	for l := 4; l <= ringWords; l++ {
		if l != base.Lookahead {
			q := base
			q.Lookahead = l
			out = append(out, q)
		}
	}
	for _, k := range []struct {
		field *string
		c     choices
	}{{&base.Placement, placements}, {&base.Ch, chForms}, {&base.Maj, majForms}, {&base.Rotate, rotates}, {&base.Align, aligns}} {
		orig := *k.field
		for _, c := range k.c {
			if c.name != orig {
				*k.field = c.name
				q := base
				if q.Placement == "burst" && q.Lookahead > ringWords-3 {
					q.Lookahead = ringWords - 3
				}
				out = append(out, q)
			}
		}
		*k.field = orig
	}
	return out
}

type choice struct{ name, help string }
type choices []choice

func (cs choices) has(s string) bool {
	for _, c := range cs {
		if c.name == s {
			return true
		}
	}
	return false
}

func (cs choices) names() string {
	var n []string
	for _, c := range cs {
		n = append(n, c.name)
	}
	return strings.Join(n, ", ")
}

func (cs choices) help() string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "  %s: %s\n", c.name, c.help)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
