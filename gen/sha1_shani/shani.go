package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
	"github.com/simdhash/simdhash/gen/internal/sha1x86"
)

// The block function with the SHA extensions.
//
// State. SHA1RNDS4 keeps A, B, C, D in one XMM register, A in the top lane
// (bits 127..96) and D in the bottom one, so h[0..3] is loaded and its
// lanes reversed. E is not an operand of its own: it is added into the
// first schedule word of each group of four rounds, which SHA1RNDS4 reads
// from the top lane of its source, and W[4g+1..4g+3] follow in the lanes
// below. The E of group 0 is the state's; after four rounds E is rol30 of
// the A that the group started with, and SHA1NEXTE adds exactly that to the
// top lane of the next group's words. So each group saves A..D before its
// SHA1RNDS4 (the two E registers alternate), and the next group's SHA1NEXTE
// turns that copy into its E+W. After group 19, SHA1NEXTE of the last copy
// with the saved E is the new E, in the top lane with zeros below, the form
// the next block starts from.
//
// Schedule. Group j's words M_j = W[4j..4j+3] are, for 4 <= j < 20,
//
//	M_j = SHA1MSG2(SHA1MSG1(M_(j-4), M_(j-3)) ^ M_(j-2), M_(j-1))
//
// SHA1MSG1 forms W[t-16] ^ W[t-14] for the four words, the XOR adds
// W[t-8], and SHA1MSG2 adds W[t-3] and rotates, computing lane by lane so
// that the last word can use the first (the dependency inside a group).
// Every input of M_j is the words of an earlier group, so the three steps
// run in the groups that produce those inputs, each step as soon as its
// operand is complete: the group that completes M_g feeds M_g to three
// steps, one for each later group j:
//
//	j = g+3: SHA1MSG1 starts M_j from M_(j-4), in M_j's register
//	j = g+2: PXOR adds M_g into it
//	j = g+1: SHA1MSG2 finishes it
//
// Four registers hold the window: M_j lives in msg0+j%4, where M_(j-4)
// was, and M_(j-4) is last read by the SHA1MSG1 that starts M_j, in group
// j-3, after group j-4 has used it for its own rounds. Groups 0..3 load
// their words from the block instead, byte-swapped to big-endian words with
// W[4g] in the top lane.

// vec names a vector register of the description.
type vec int

const (
	abcd vec = iota // A..D of the working state, A in the top lane
	e0              // E+W of a group for SHA1RNDS4; e0 and e1 alternate by group,
	e1              // and e0 holds the state's E between blocks
	msg0            // the schedule window: group j's words in msg0+j%4
	msg1
	msg2
	msg3
	abcdSaved // A..D at the start of the block
	eSaved    // E at the start of the block (top lane, zeros below)
	bswap     // PSHUFB indexes that reverse the 16 bytes of a vector
	numVecs
)

// groups is the number of four-round groups in a block.
const groups = 20

// window returns the register that holds group j's words.
func window(j int) vec { return msg0 + vec(j%4) }

// eReg returns the register that holds group g's E+W.
func eReg(g int) vec { return e0 + vec(g%2) }

// machine is what the block description is written against: the four SHA
// instructions and the few SSE operations around them, destination first.
// The avo emitter (below) and the emulator of the tests implement it.
type machine interface {
	comment(text string)
	// loadWords sets dst to the words 4g..4g+3 of the block, read
	// big-endian, word 4g in the top lane.
	loadWords(dst vec, g int)
	copy(dst, src vec)         // MOVO
	add32(dst, src vec)        // PADDD
	xor(dst, src vec)          // PXOR
	nexte(dst, src vec)        // SHA1NEXTE
	msg1(dst, src vec)         // SHA1MSG1
	msg2(dst, src vec)         // SHA1MSG2
	rnds4(dst, src vec, f int) // SHA1RNDS4 with the function and constant of rounds 20f..20f+19
}

// block describes the 80 rounds of one block: A..D in abcd and E in e0 at
// the start, the updated state in the same registers at the end.
func block(m machine) {
	m.comment("Keep the state: it is added to the result of the 80 rounds.")
	m.copy(abcdSaved, abcd)
	m.copy(eSaved, e0)
	for g := 0; g < groups; g++ {
		m.comment(fmt.Sprintf("Rounds %d-%d", 4*g, 4*g+3))
		w, e := window(g), eReg(g)
		if g < 4 {
			m.loadWords(w, g)
		}
		if g == 0 {
			m.add32(e, w) // the state's E into W[0]
		} else {
			m.nexte(e, w) // e holds A..D from the start of group g-1
		}
		m.copy(eReg(g+1), abcd) // for group g+1's SHA1NEXTE
		if j := g + 1; scheduled(j) {
			m.msg2(window(j), w)
		}
		m.rnds4(abcd, e, 4*g/20)
		if j := g + 3; scheduled(j) {
			m.msg1(window(j), w)
		}
		if j := g + 2; scheduled(j) {
			m.xor(window(j), w)
		}
	}
	m.comment("E = rol30(A of rounds 76-79's start) + saved E; A..D += saved A..D.")
	m.nexte(eReg(groups), eSaved)
	m.add32(abcd, abcdSaved)
}

// scheduled reports whether group j's words are computed by the schedule
// (rather than loaded from the block, or beyond the last group).
func scheduled(j int) bool { return 4 <= j && j < groups }

// emitter implements machine with avo, on fixed registers.
type emitter struct {
	ctx  *build.Context
	regs [numVecs]reg.VecPhysical
	ptr  reg.GPPhysical // the block being absorbed
}

func (a *emitter) comment(text string) { a.ctx.Comment(text) }
func (a *emitter) loadWords(dst vec, g int) {
	a.ctx.MOVOU(Mem{Base: a.ptr, Disp: 16 * g}, a.regs[dst])
	a.ctx.PSHUFB(a.regs[bswap], a.regs[dst])
}
func (a *emitter) copy(dst, src vec)  { a.ctx.MOVO(a.regs[src], a.regs[dst]) }
func (a *emitter) add32(dst, src vec) { a.ctx.PADDL(a.regs[src], a.regs[dst]) }
func (a *emitter) xor(dst, src vec)   { a.ctx.PXOR(a.regs[src], a.regs[dst]) }
func (a *emitter) nexte(dst, src vec) { a.ctx.SHA1NEXTE(a.regs[src], a.regs[dst]) }
func (a *emitter) msg1(dst, src vec)  { a.ctx.SHA1MSG1(a.regs[src], a.regs[dst]) }
func (a *emitter) msg2(dst, src vec)  { a.ctx.SHA1MSG2(a.regs[src], a.regs[dst]) }
func (a *emitter) rnds4(dst, src vec, f int) {
	a.ctx.SHA1RNDS4(U8(f), a.regs[src], a.regs[dst])
}

// generate emits blockSHANI(h *[5]uint32, p []byte): it absorbs len(p)/64
// whole blocks of p into h and reads nothing else.
func generate(ctx *build.Context) error {
	a := &emitter{ctx: ctx, ptr: reg.RSI}
	copy(a.regs[:], []reg.VecPhysical{reg.X0, reg.X1, reg.X2, reg.X3, reg.X4, reg.X5, reg.X6, reg.X7, reg.X8, reg.X9})
	hp, end := reg.RDI, reg.RDX

	mask := ctx.StaticGlobal("shaniBswap")
	ctx.DataAttributes(attr.RODATA | attr.NOPTR)
	for i := 0; i < 2; i++ {
		// Byte k of the result is byte 15-k of the source.
		var q uint64
		for k := 7; k >= 0; k-- {
			q = q<<8 | uint64(15-(8*i+k))
		}
		ctx.AddDatum(8*i, U64(q))
	}

	ctx.Function("blockSHANI")
	ctx.Attributes(attr.NOSPLIT)
	ctx.SignatureExpr(sha1sched.Contract{}.Signature())
	sha1x86.BlockArgs(ctx, hp, a.ptr, end)

	ctx.Comment("A..D with A in the top lane; E in the top lane of e0, zeros below.")
	ctx.MOVOU(Mem{Base: hp}, a.regs[abcd])
	ctx.PSHUFD(U8(0x1b), a.regs[abcd], a.regs[abcd])
	ctx.PXOR(a.regs[e0], a.regs[e0])
	ctx.PINSRD(U8(3), Mem{Base: hp, Disp: 16}, a.regs[e0])
	ctx.MOVOU(mask, a.regs[bswap])

	ctx.Label("loop")
	block(a)
	ctx.ADDQ(U8(64), a.ptr)
	ctx.CMPQ(a.ptr, end)
	ctx.JNE(LabelRef("loop"))

	ctx.Comment("Store the state in h's order.")
	ctx.PSHUFD(U8(0x1b), a.regs[abcd], a.regs[abcd])
	ctx.MOVOU(a.regs[abcd], Mem{Base: hp})
	ctx.PEXTRD(U8(3), a.regs[e0], Mem{Base: hp, Disp: 16})

	ctx.Label("done")
	ctx.RET()
	return nil
}
