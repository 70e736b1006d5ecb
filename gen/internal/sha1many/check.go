package sha1many

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/ubc"
	"github.com/simdhash/simdhash/gen/internal/ubcvec"
)

// The checking multi-lane kernels of package sha1dc's SumMany: the same
// kernels with the UBC check of SHA-1 collision detection (gen/internal/ubc)
// evaluated on every lane's block beside the rounds, and a record of each
// block after which a lane that absorbed it has a surviving DV.
//
//	func(h *[5][16]uint32, p *[4][16]*byte, c *[2][16]int32, n int, rec *[MaxRecords][RecordRows][16]uint32) uint32
//
// The kernel runs n blocks (n <= MaxRecords) as the plain kernel does and
// returns how many records it wrote. Record r: row 0 holds the masks of
// the block's lanes (zero in the lanes without a surviving DV, or that do
// not absorb the block), rows 1..5 the lanes' h before the block, and row
// 6's first word the block's number in the call. A lane goes on past its
// flagged block as if it were not half of a collision, which is what all
// but attack data are: the caller recompresses the recorded blocks from
// the recorded states and, for a lane's message that does collide,
// hashes the message again on its own.
//
// Every term is one lane-parallel evaluation in every block: with
// AVX-512, two VPTESTMD of the terms' bits into opmask registers, a KXORW
// (KXNORW for Eq = 1) of the two, and a VPORD of the term's DVs under that
// mask into the accumulator, the vector register the AVX-512 rounds leave
// free; each placed among the rounds where both words are in the window
// (Deal over words), the accumulator set by the first.

// MaxRecords is the room for records, and the most blocks a call of a
// checking kernel may run.
const MaxRecords = 32

// RecordRows is the number of 16-word rows of a record.
const RecordRows = 7

// recordBytes is the size of a record.
const recordBytes = RecordRows * 4 * maxLanes

// checkedSig is the checking kernels' Go signature.
var checkedSig = fmt.Sprintf("func(h *[5][16]uint32, p *[4][16]*byte, c *[2][16]int32, n int, rec *[%d][%d][16]uint32) uint32", MaxRecords, RecordRows)

// A checker is a Backend that can emit the check.
type checker interface {
	Backend
	// CheckBegin starts the kernel's records, after Setup, and takes its
	// registers from those of the counts, the block number and the lane
	// mask, which only the end of a block needs (Retire).
	CheckBegin(counts, blk, mask vreg)
	// CheckTerm returns the steps of term j of ubc.Terms on every lane,
	// its words from a and b (first: it sets the accumulator).
	CheckTerm(j int, a, b source, first bool) []step
	// CheckRecord writes the record of the block just done if a lane
	// that absorbs it (the last Retire's) has a surviving DV; blk is the
	// block number, minus one (the count, as NextBlock advanced it).
	// scratch is a free vector register.
	CheckRecord(scratch vreg)
	// CheckFinish stores the number of records as the result, before
	// Finish.
	CheckFinish()
}

// checkPlan places the terms: term j, on W[A] and W[B], runs after the
// step that computes W[B] and before the one that overwrites W[A] with
// W[A+16] (the next block's loads for A+16 >= 80, a group of four from
// its first round on), in rounds dealt evenly.
func (e *emitter) checkPlan() ([][]ubcvec.Op, error) {
	L := int(e.p.Stream.Lookahead)
	live := ubcvec.Liveness{
		Ready: func(x int) int { return x - L },
		Live: func(x int) int {
			if y := x + ringWords; y >= 80 {
				return y&^(groupWords-1) - L - 1
			}
			return x + ringWords - L - 1
		},
	}
	var items []ubcvec.Item
	for j, t := range ubc.Terms {
		items = append(items, ubcvec.Item{Lo: t.A, Hi: t.B, Ops: []ubcvec.Op{{Kind: ubcvec.Kill, Terms: [4]int{j, -1, -1, -1}}}})
	}
	lo, _ := ubc.Words()
	return ubcvec.Deal(items, ubcvec.Op{Kind: ubcvec.Reduce}, live, live.Ready(lo+1), 79, 80)
}

// checkSteps returns the check's steps of round t.
func (e *emitter) checkSteps(t int) []step {
	if e.chk == nil {
		return nil
	}
	c := e.b.(checker)
	var steps []step
	for _, op := range e.chk[t] {
		if op.Kind != ubcvec.Kill {
			continue // the Reduce: a lane's accumulator is its mask's complement already
		}
		j := op.Terms[0]
		t := ubc.Terms[j]
		steps = append(steps, func() {
			for _, s := range c.CheckTerm(j, e.readW(t.A), e.readW(t.B), op.First) {
				s()
			}
		})
	}
	return steps
}

// GenerateChecked emits the checking kernel name (see checkedSig) with
// backend b, which must be a checker, and choices p.
func GenerateChecked(b Backend, p Params, name string) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if _, ok := b.(checker); !ok {
		return fmt.Errorf("sha1many: %s has no UBC check", b.Name())
	}
	e := newEmitter(b, b.NumVec(), p)
	e.b = b
	chk, err := e.checkPlan()
	if err != nil {
		return fmt.Errorf("%s with %s: %w", name, p.String(b), err)
	}
	e.chk = chk
	b.Constants()
	return e.function(name)
}

// MainChecked is the whole main function of the generator gen/<name> of
// the checking kernel fn of package sha1dc, as Main is of the plain ones.
func MainChecked(name string, newBackend func(*build.Context) Backend, fn string) {
	mainOf(name, "sha1dc", newBackend, fn, GenerateChecked)
}
