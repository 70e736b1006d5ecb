package ubc

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	sha1cdc "github.com/pjbgf/sha1cd/cgo"
	sha1cdubc "github.com/pjbgf/sha1cd/ubc"
	"github.com/simdhash/simdhash/internal/ref"
)

// TestTable checks the shape of the data: every DV's difference is an
// expanded message (W[t] = ROTL1(W[t-3]^W[t-8]^W[t-14]^W[t-16]) for t >= 16,
// which the recompression relies on), every term is well formed, and every
// DV has terms.
func TestTable(t *testing.T) {
	names := map[string]bool{}
	for i, d := range DVs {
		if d.Type != I && d.Type != II || d.TestT != 58 && d.TestT != 65 {
			t.Errorf("DVs[%d] = %s: type %d, TestT %d", i, d.Name(), d.Type, d.TestT)
		}
		if names[d.Name()] {
			t.Errorf("DVs[%d]: %s twice", i, d.Name())
		}
		names[d.Name()] = true
		for s := 16; s < 80; s++ {
			if want := bits.RotateLeft32(d.Dm[s-3]^d.Dm[s-8]^d.Dm[s-14]^d.Dm[s-16], 1); d.Dm[s] != want {
				t.Errorf("%s: Dm[%d] = %#08x, want %#08x from the expansion", d.Name(), s, d.Dm[s], want)
			}
		}
	}
	var named uint32
	for i, tm := range Terms {
		if tm.A > tm.B || tm.A < 0 || tm.B >= 80 || tm.KA < 0 || tm.KA > 31 || tm.KB < 0 || tm.KB > 31 || tm.Eq > 1 || tm.DVs == 0 ||
			tm.A == tm.B && tm.KA == tm.KB {
			t.Errorf("Terms[%d] = %+v is malformed", i, tm)
		}
		named |= tm.DVs
	}
	if named != ^uint32(0) {
		t.Errorf("DVs without terms: mask %#08x", ^named)
	}
	if lo, hi := Words(); lo != 35 || hi != 64 {
		t.Errorf("Words() = %d, %d; want 35, 64", lo, hi)
	}
	if s := TestSteps(); len(s) != 2 || s[0] != 58 || s[1] != 65 {
		t.Errorf("TestSteps() = %v, want [58 65]", s)
	}
}

// TestDVs compares the DV table with sha1cd's, field by field.
func TestDVs(t *testing.T) {
	theirs := sha1cdubc.SHA1_dvs()
	for i, d := range DVs {
		o := theirs[i]
		if uint32(d.Type) != o.DvType || uint32(d.K) != o.DvK || uint32(d.B) != o.DvB || uint32(d.TestT) != o.TestT ||
			o.MaskI != 0 || o.MaskB != uint32(i) || d.Dm != o.Dm {
			t.Errorf("DVs[%d] = %s differs from sha1cd's entry %d", i, d.Name(), i)
		}
	}
	if len(theirs) != len(DVs)+1 || theirs[len(DVs)].DvType != 0 {
		t.Errorf("sha1cd has %d DVs (with its end marker), we have %d", len(theirs), len(DVs))
	}
}

// inputs returns the W arrays the checks are compared on: random words,
// and for every DV random words made to meet its conditions by Reach, alone
// and after another DV's.
func inputs(n int) [][80]uint32 {
	rng := rand.New(rand.NewPCG(1, 2))
	var out [][80]uint32
	for range n {
		w := RandomW(rng)
		out = append(out, w)
		for d := range DVs {
			v := w
			Reach(d, &v)
			out = append(out, v)
			Reach(rng.IntN(len(DVs)), &v)
			out = append(out, v)
		}
	}
	return out
}

// TestMask holds Mask, the table evaluated term by term, to the C code of
// sha1collisiondetection (sha1cd's cgo package; without cgo that package
// falls back on sha1cd's Go) and to sha1cd's Go check, and checks that
// Reach reaches its DV.
func TestMask(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 20
	}
	bad := 0
	for _, w := range inputs(n) {
		got := Mask(&w)
		c := sha1cdc.CalculateDvMask(&w)
		g := sha1cdubc.CalculateDvMask(&w)
		if got != c || got != g {
			if bad++; bad < 10 {
				t.Errorf("Mask = %#08x, C ubc_check = %#08x, sha1cd ubc = %#08x", got, c, g)
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for d := range DVs {
		w := RandomW(rng)
		Reach(d, &w)
		if Mask(&w)&(1<<d) == 0 {
			t.Errorf("Reach(%d) did not reach %s", d, DVs[d].Name())
		}
	}
}

// ReachBlock makes real blocks whose expanded message meets every term of
// the DV asked for, from random blocks.
func TestReachBlock(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 64))
	for d := range DVs {
		for range 10 {
			r := ReachBlock(d, RandomBlock(rng))
			w, _ := ref.SHA1Steps([5]uint32{}, &r)
			if Mask(&w)&(1<<d) == 0 {
				t.Fatalf("ReachBlock(%s) gives a block whose mask %#08x lacks it", DVs[d].Name(), Mask(&w))
			}
		}
	}
}

// ReachBlockBut breaks the term asked for and meets the DV's others, for
// every term of every DV.
func TestReachBlockBut(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 65))
	for j, term := range Terms {
		for d := range DVs {
			if term.DVs&(1<<d) == 0 {
				continue
			}
			r := ReachBlockBut(d, j, RandomBlock(rng))
			w, _ := ref.SHA1Steps([5]uint32{}, &r)
			if term.Holds(&w) {
				t.Fatalf("term %d of %s holds", j, DVs[d].Name())
			}
			for k, o := range Terms {
				if k != j && o.DVs&(1<<d) != 0 && !o.Holds(&w) {
					t.Fatalf("term %d of %s broken, and term %d too", j, DVs[d].Name(), k)
				}
			}
		}
	}
}
