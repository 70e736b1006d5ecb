package ubc

import (
	"iter"
	"math/rand/v2"
)

// Cases yields the expanded messages that the tests of a check hold to
// Mask, each with a name for a failure message: random words (random of
// them), then for each DV perDV sets of random words made to reach it
// (Reach), each followed, for every term of that DV, by a copy with the
// term broken (bit KA of W[A] flipped, or bit KB of W[B] for every other
// term, so that both of a term's words are exercised). The words yielded
// are only valid until the next step of the iteration.
func Cases(rng *rand.Rand, random, perDV int) iter.Seq2[*[80]uint32, string] {
	return func(yield func(*[80]uint32, string) bool) {
		var w, v [80]uint32
		for range random {
			w = RandomW(rng)
			if !yield(&w, "random words") {
				return
			}
		}
		for d := range DVs {
			for range perDV {
				w = RandomW(rng)
				Reach(d, &w)
				if !yield(&w, "words reaching "+DVs[d].Name()) {
					return
				}
				for i, term := range Terms {
					if term.DVs&(1<<d) == 0 {
						continue
					}
					v = w
					if i%2 == 0 {
						v[term.A] ^= 1 << term.KA
					} else {
						v[term.B] ^= 1 << term.KB
					}
					if !yield(&v, "a term of "+DVs[d].Name()+" broken") {
						return
					}
				}
			}
		}
	}
}

// RandomW returns 80 random words of rng.
func RandomW(rng *rand.Rand) (w [80]uint32) {
	for i := range w {
		w[i] = rng.Uint32()
	}
	return w
}

// RandomBlock returns a block of random bytes of rng, each the low byte of
// a Uint32.
func RandomBlock(rng *rand.Rand) (b [64]byte) {
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}
