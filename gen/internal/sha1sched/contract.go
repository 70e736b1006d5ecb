package sha1sched

import (
	"fmt"
	"strings"
)

// A Contract is what a SHA-1 kernel takes and hands back: its Go signature,
// written here once for every generator and every test that declares a
// kernel, and what it keeps besides the state.
type Contract struct {
	Form Form
	// Trace, if not nil, asks the kernel to keep, of the last block it
	// absorbs, the schedule words W[0..79] in w and in s[i] the working
	// variables after the first Trace[i] rounds (1..80: ref.SHA1Steps'
	// states[Trace[i]]). A collision-detecting SHA-1 checks W and
	// recompresses from the states after 58 and 65 rounds.
	Trace []int
	// Result is what the kernel returns.
	Result Result
}

// Form is the shape of a kernel's input.
type Form int

// The forms.
const (
	// Blocks: func(h *[5]uint32, p []byte) absorbs the len(p)/64 whole
	// blocks of p into h.
	Blocks Form = iota
	// Streams: func(h *[4][5]uint32, p *[4]*byte, n int) absorbs n blocks
	// at p[s] into h[s] for each of the kernel's streams s (at most 4).
	Streams
	// Lanes: func(h *[5][16]uint32, p *[4][16]*byte, c *[2][16]int32, n int)
	// is the multi-lane kernel of sha1.SumMany (gen/internal/sha1many):
	// h[i][l] is word i of lane l's state, and lane l absorbs c[1][l] of
	// the n blocks, c[0][l] of them at p[0][l] and the rest at p[1][l].
	Lanes
)

// MaxStreams is the room for streams in the arrays of the Streams form.
const MaxStreams = 4

// Result is what a kernel returns.
type Result int

// The results.
const (
	NoResult Result = iota
	// Absorbed: the number of blocks the kernel absorbed, as a uint32 (a
	// kernel that stops at a flagged block returns where it stopped).
	Absorbed
)

var forms = [...]string{
	Blocks:  "h *[5]uint32, p []byte",
	Streams: fmt.Sprintf("h *[%d][5]uint32, p *[%[1]d]*byte, n int", MaxStreams),
	Lanes:   "h *[5][16]uint32, p *[4][16]*byte, c *[2][16]int32, n int",
}

// Signature is the kernel's Go signature, as avo's SignatureExpr and the
// ARM emitters take it.
func (c Contract) Signature() string {
	params := forms[c.Form]
	if c.Trace != nil {
		params += fmt.Sprintf(", w *[80]uint32, s *[%d][5]uint32", len(c.Trace))
	}
	sig := "func(" + params + ")"
	if c.Result == Absorbed {
		sig += " uint32"
	}
	return sig
}

// Decl is the Go declaration of the kernel name, for the tests' scratch
// packages: "func name(h *[5]uint32, p []byte)".
func (c Contract) Decl(name string) string {
	return "func " + name + strings.TrimPrefix(c.Signature(), "func")
}

// Plain reports whether the kernel keeps and returns nothing but the state.
func (c Contract) Plain() bool { return c.Trace == nil && c.Result == NoResult }
