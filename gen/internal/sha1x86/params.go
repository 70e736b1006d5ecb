package sha1x86

import (
	"flag"
	"fmt"
)

// Params are the schedule choices of one generated kernel.
type Params struct {
	// Lookahead is how many rounds before round t the vector precalculation
	// of the group holding W[t]+K starts. The group's steps then occupy the
	// next four rounds, so its ring store lands Lookahead-3 rounds before
	// its first reader.
	Lookahead int
}

// ringWords is the number of 32-bit W+K slots in the stack ring.
const ringWords = 16

// DefaultParams returns the schedule checked into the repository.
func DefaultParams() Params {
	return Params{Lookahead: 16}
}

// RegisterFlags binds the fields of p to flags of fs, with p's current
// values as defaults.
func (p *Params) RegisterFlags(fs *flag.FlagSet) {
	fs.IntVar(&p.Lookahead, "lookahead", p.Lookahead,
		fmt.Sprintf("rounds between the start of a W+K group's precalculation and the first round that reads it (4..%d)", ringWords))
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
	return nil
}
