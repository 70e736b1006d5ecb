// Package sha1shani describes the SHA-1 block function with the Intel SHA
// extensions (S. Gulley, V. Gopal, K. Yap, W. Feghali, J. Guilford and G.
// Wolrich, "Intel SHA Extensions: New Instructions Supporting the Secure
// Hash Algorithm on Intel Architecture Processors", Intel, July 2013; the
// Intel SDM, vol. 2): SHA1RNDS4 runs four rounds at a time, SHA1NEXTE
// derives the next four rounds' E, and SHA1MSG1 and SHA1MSG2 compute the
// message schedule four words at a time. Generate emits it with avo, for
// one stream (the blockSHANI kernel of package sha1, gen/sha1_shani) or
// for several independent streams interleaved group by group, whose
// chains of SHA1RNDS4 then overlap.
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

// Streams. Each stream has the registers of one (abcd .. eSaved), and all
// share bswap: with two streams that is 19, more than the 16 XMM registers.
// The description then keeps each stream's saved state, which a block
// writes once and reads once, in the stack frame, and reads it back
// through a scratch register (plan).
package sha1shani

import (
	"encoding/binary"
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
	"github.com/simdhash/simdhash/gen/internal/sha1x86"
)

// vec names a vector register of the description: a role of one stream
// (of), or bswap, which the streams share.
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
	perStream // the number of roles of a stream
	// bswap holds the PSHUFB indexes that reverse the 16 bytes of a vector.
	bswap vec = -1
)

// of is stream s's register of role r.
func of(s int, r vec) vec { return vec(s)*perStream + r }

// groups is the number of four-round groups in a block.
const groups = 20

// window returns the register that holds group j's words.
func window(j int) vec { return msg0 + vec(j%4) }

// eReg returns the register that holds group g's E+W.
func eReg(g int) vec { return e0 + vec(g%2) }

// machine is what the block description is written against: the four SHA
// instructions and the few SSE operations around them, destination first.
type machine interface {
	comment(text string)
	// loadWords sets dst to the words 4g..4g+3 of stream s's block, read
	// big-endian, word 4g in the top lane.
	loadWords(dst vec, s, g int)
	copy(dst, src vec)         // MOVO
	add32(dst, src vec)        // PADDD
	xor(dst, src vec)          // PXOR
	nexte(dst, src vec)        // SHA1NEXTE
	msg1(dst, src vec)         // SHA1MSG1
	msg2(dst, src vec)         // SHA1MSG2
	rnds4(dst, src vec, f int) // SHA1RNDS4 with the function and constant of rounds 20f..20f+19
	// retire, before a block's result is added to stream s's saved state,
	// makes the result zero if the stream's count of blocks has run out,
	// so that its state stays as it was (the Lanes form, lanes.go; the
	// other forms absorb every block).
	retire(s int)
}

// block describes the 80 rounds of one block of each of streams streams,
// group by group: A..D in abcd and E in e0 at the start, the updated state
// in the same registers at the end.
func block(m machine, streams int) {
	m.comment("Keep the state: it is added to the result of the 80 rounds.")
	for s := range streams {
		m.copy(of(s, abcdSaved), of(s, abcd))
		m.copy(of(s, eSaved), of(s, e0))
	}
	for g := 0; g < groups; g++ {
		m.comment(fmt.Sprintf("Rounds %d-%d", 4*g, 4*g+3))
		for s := range streams {
			group(m, s, g)
		}
		if h, ok := m.(interface{ afterGroup(g int) }); ok {
			h.afterGroup(g) // a machine's own work after each group (check.go)
		}
	}
	m.comment("E = rol30(A of rounds 76-79's start) + saved E; A..D += saved A..D.")
	for s := range streams {
		m.retire(s)
		m.nexte(of(s, eReg(groups)), of(s, eSaved))
		m.add32(of(s, abcd), of(s, abcdSaved))
	}
}

// group describes rounds 4g..4g+3 of stream s and the schedule steps that
// the group's words feed.
func group(m machine, s, g int) {
	w, e := of(s, window(g)), of(s, eReg(g))
	if g < 4 {
		m.loadWords(w, s, g)
	}
	if g == 0 {
		m.add32(e, w) // the state's E into W[0]
	} else {
		m.nexte(e, w) // e holds A..D from the start of group g-1
	}
	m.copy(of(s, eReg(g+1)), of(s, abcd)) // for group g+1's SHA1NEXTE
	if j := g + 1; scheduled(j) {
		m.msg2(of(s, window(j)), w)
	}
	m.rnds4(of(s, abcd), e, 4*g/20)
	if j := g + 3; scheduled(j) {
		m.msg1(of(s, window(j)), w)
	}
	if j := g + 2; scheduled(j) {
		m.xor(of(s, window(j)), w)
	}
}

// scheduled reports whether group j's words are computed by the schedule
// (rather than loaded from the block, or beyond the last group).
func scheduled(j int) bool { return 4 <= j && j < groups }

// emitter implements machine with avo, on the places of plan.
type emitter struct {
	ctx     *build.Context
	at      map[vec]Op       // each register of the description: an XMM register, or a stack slot
	scratch reg.VecPhysical  // reads a source from the stack, when there are spills
	ptr     []reg.GPPhysical // each stream's block
}

// plan places the registers of streams streams: each in an XMM register,
// in the order of the roles, stream by stream, then bswap, when they fit
// in the 16; else every stream's saved state (abcdSaved, eSaved, written
// and read once a block) in a slot of the stack frame, read back through
// X15. It fails if the rest does not fit either.
func (a *emitter) plan(streams int) error {
	xmm := []reg.VecPhysical{reg.X0, reg.X1, reg.X2, reg.X3, reg.X4, reg.X5, reg.X6, reg.X7,
		reg.X8, reg.X9, reg.X10, reg.X11, reg.X12, reg.X13, reg.X14, reg.X15}
	spill := int(perStream)*streams+1 > len(xmm)
	if spill {
		a.scratch, xmm = xmm[len(xmm)-1], xmm[:len(xmm)-1]
	}
	a.at = map[vec]Op{}
	next := func(v vec) error {
		if len(xmm) == 0 {
			return fmt.Errorf("sha1shani: %d streams need more than the 16 XMM registers, with their saved states on the stack", streams)
		}
		a.at[v], xmm = xmm[0], xmm[1:]
		return nil
	}
	for s := range streams {
		for r := abcd; r < perStream; r++ {
			if spill && (r == abcdSaved || r == eSaved) {
				a.at[of(s, r)] = a.ctx.AllocLocal(16)
				continue
			}
			if err := next(of(s, r)); err != nil {
				return err
			}
		}
	}
	return next(bswap)
}

// reg is the register of v: its own, or the scratch register with v read
// into it from the stack.
func (a *emitter) reg(v vec) reg.VecPhysical {
	if m, ok := a.at[v].(Mem); ok {
		a.ctx.MOVOU(m, a.scratch)
		return a.scratch
	}
	return a.at[v].(reg.VecPhysical)
}

func (a *emitter) comment(text string) { a.ctx.Comment(text) }
func (a *emitter) loadWords(dst vec, s, g int) {
	a.ctx.MOVOU(Mem{Base: a.ptr[s], Disp: 16 * g}, a.reg(dst))
	a.ctx.PSHUFB(a.reg(bswap), a.reg(dst))
}
func (a *emitter) copy(dst, src vec) {
	if m, ok := a.at[dst].(Mem); ok {
		a.ctx.MOVOU(a.reg(src), m)
		return
	}
	a.ctx.MOVO(a.reg(src), a.reg(dst))
}
func (a *emitter) add32(dst, src vec) { a.ctx.PADDL(a.reg(src), a.reg(dst)) }
func (a *emitter) xor(dst, src vec)   { a.ctx.PXOR(a.reg(src), a.reg(dst)) }
func (a *emitter) nexte(dst, src vec) { a.ctx.SHA1NEXTE(a.reg(src), a.reg(dst)) }
func (a *emitter) msg1(dst, src vec)  { a.ctx.SHA1MSG1(a.reg(src), a.reg(dst)) }
func (a *emitter) msg2(dst, src vec)  { a.ctx.SHA1MSG2(a.reg(src), a.reg(dst)) }
func (a *emitter) retire(int)         {}
func (a *emitter) rnds4(dst, src vec, f int) {
	a.ctx.SHA1RNDS4(U8(f), a.reg(src), a.reg(dst))
}

// bswapTable emits, as the table name, the PSHUFB indexes that reverse
// the 16 bytes of a vector (bswap's).
func bswapTable(ctx *build.Context, name string) Mem {
	var rev [16]byte // byte k of the result is byte 15-k of the source
	for k := range rev {
		rev[k] = byte(15 - k)
	}
	return avogen.Table(ctx, name, []uint64{binary.LittleEndian.Uint64(rev[:]), binary.LittleEndian.Uint64(rev[8:])})
}

// Generate emits the kernel name for streams streams (1 to 2) into ctx:
// for one, blockSHANI's contract, the Blocks form (it absorbs len(p)/64
// whole blocks of p into h); for more, the Streams form (n blocks of each
// stream). It reads nothing else.
func Generate(ctx *build.Context, name string, streams int) error {
	c := sha1sched.Contract{}
	if streams > 1 {
		c.Form = sha1sched.Streams
	}
	if streams < 1 || streams > sha1sched.MaxStreams {
		return fmt.Errorf("sha1shani: %d streams: want 1 to %d", streams, sha1sched.MaxStreams)
	}
	a := &emitter{ctx: ctx, ptr: []reg.GPPhysical{reg.RSI, reg.R8, reg.R9, reg.R10}[:streams]}
	hp, end := reg.RDI, reg.RDX

	mask := bswapTable(ctx, "shaniBswap")

	ctx.Function(name)
	ctx.Attributes(attr.NOSPLIT)
	ctx.SignatureExpr(c.Signature())
	if err := a.plan(streams); err != nil {
		return err
	}
	if streams == 1 {
		sha1x86.BlockArgs(ctx, hp, a.ptr[0], end)
	} else {
		ctx.Load(ctx.Param("h"), hp)
		ctx.Load(ctx.Param("p"), reg.RAX)
		ctx.Load(ctx.Param("n"), end)
		ctx.Comment("Nothing to do without a block; end = p[0] + 64n.")
		ctx.SHLQ(U8(6), end)
		ctx.JZ(LabelRef("done"))
		for s, p := range a.ptr {
			ctx.MOVQ(Mem{Base: reg.RAX, Disp: 8 * s}, p)
		}
		ctx.ADDQ(a.ptr[0], end)
	}

	ctx.Comment("A..D with A in the top lane; E in the top lane of e0, zeros below.")
	for s := range streams {
		x, e := a.reg(of(s, abcd)), a.reg(of(s, e0))
		ctx.MOVOU(Mem{Base: hp, Disp: 20 * s}, x)
		ctx.PSHUFD(U8(0x1b), x, x)
		ctx.PXOR(e, e)
		ctx.PINSRD(U8(3), Mem{Base: hp, Disp: 20*s + 16}, e)
	}
	ctx.MOVOU(mask, a.reg(bswap))

	ctx.Label("loop")
	block(a, streams)
	for _, p := range a.ptr {
		ctx.ADDQ(U8(64), p)
	}
	ctx.CMPQ(a.ptr[0], end)
	ctx.JNE(LabelRef("loop"))

	ctx.Comment("Store the state in h's order.")
	for s := range streams {
		x, e := a.reg(of(s, abcd)), a.reg(of(s, e0))
		ctx.PSHUFD(U8(0x1b), x, x)
		ctx.MOVOU(x, Mem{Base: hp, Disp: 20 * s})
		ctx.PEXTRD(U8(3), e, Mem{Base: hp, Disp: 20*s + 16})
	}

	ctx.Label("done")
	ctx.RET()
	return nil
}
