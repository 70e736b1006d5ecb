package sha1many

import (
	"fmt"
	"slices"

	"github.com/simdhash/simdhash/gen/internal/sha1sched"
	"github.com/simdhash/simdhash/gen/internal/ubcvec"
)

const (
	ringWords  = 16 // the schedule window W[t-16..t-1]
	groupWords = 4  // message words per load group (one 16-byte load per lane)
	cacheRegs  = 4  // registers holding the latest schedule words, when W is in memory
	workRegs   = 5  // registers of the schedule's and the loads' steps
	hRowBytes  = 4 * 16
	blockBytes = 64 // the SHA-1 block
)

// vreg is a vector register of the description, by number: 0 to the
// backend's NumVec-1, which it maps to its own.
type vreg int

// slot is a slot of the W ring on the stack, where W[t] is kept at slot
// t%16 when the registers do not hold the window.
type slot int

// A source is an operand that the description names: a register or a
// slot of the ring.
type source interface{ isSource() }

func (vreg) isSource() {}
func (slot) isSource() {}

// contract is every multi-lane kernel's (sha1sched.Lanes): h[i][l] is
// word i of lane l's state; lane l absorbs c[1][l] of the n blocks (n is
// the largest), c[0][l] of them at p[0][l] and the rest at p[1][l] (with
// c[0][l] <= 0, all at p[0][l]); p[2][l] and p[3][l] are addresses to
// prefetch, for the lanes' next messages. The kernel uses p[0] and c as
// its own pointers and counts, so their values afterwards are unspecified.
// The arrays have room for 16 lanes; a kernel with fewer uses the first
// ones.
var contract = sha1sched.Contract{Form: sha1sched.Lanes}

// maxLanes is the room for lanes in the arrays of the contract.
const maxLanes = 16

// vars names the registers of a round's working variables and the one
// spare register. They are renamed, never moved: rol30(b), the next
// round's c, is written into spare, after which b's register holds f and
// is free once f is added into e.
type vars struct{ a, b, c, d, e, spare vreg }

func (v vars) next() vars { return vars{a: v.e, b: v.a, c: v.spare, d: v.c, e: v.d, spare: v.b} }

func (v vars) words() [5]vreg { return [5]vreg{v.a, v.b, v.c, v.d, v.e} }

// emitter holds the register plan of one kernel while it is emitted. Its
// rounds and schedule words go through a (b's ISA), the rest through b; a
// test of the rounds alone may leave b nil.
type emitter struct {
	a ISA
	b Backend
	p Params

	v0                vars            // the working variables at the top of the loop
	counts, blk, mask vreg            // the lanes' block counts, the block number, the mask of the lanes that absorb it
	s0, s1            vreg            // the rounds' scratch registers
	work              [workRegs]vreg  // the schedule's and the loads' registers
	wregs             []vreg          // W[t] in wregs[t%16]; nil when W is in the ring (slot)
	model             sha1sched.Model // W accesses in emission order: the ring (home) and the latest words (cache)
	chk               [][]ubcvec.Op   // a checking kernel's terms, by the round that hosts them (check.go)
}

// newEmitter plans the registers 0..numVec-1 of a kernel with choices p.
func newEmitter(a ISA, numVec int, p Params) *emitter {
	e := &emitter{a: a, p: p, v0: vars{0, 1, 2, 3, 4, 5}, s0: 6, s1: 7}
	for i := range e.work {
		e.work[i] = vreg(8 + i)
	}
	e.counts, e.blk, e.mask = 8+workRegs, 9+workRegs, 10+workRegs
	// The 16-word window goes in registers when the register file holds it
	// beside the others; otherwise in a stack ring, with the latest words
	// also kept in registers for the schedule (cacheRegs of the work ones).
	if numVec >= 11+workRegs+ringWords {
		for i := range ringWords {
			e.wregs = append(e.wregs, vreg(numVec-ringWords+i))
		}
	}
	return e
}

// Generate emits the multi-lane kernel name with backend b and choices p:
// the kernel's contract is in the package doc and on contract.
func Generate(b Backend, p Params, name string) error {
	if err := p.Validate(); err != nil {
		return err
	}
	return generate(b, p, name)
}

// generate is Generate without the up-front Validate, so that tests can
// show the W model rejecting what Validate would have.
func generate(b Backend, p Params, name string) error {
	e := newEmitter(b, b.NumVec(), p)
	e.b = b
	if p.Load == LoadGather && b.GatherTemps() >= workRegs {
		return fmt.Errorf("-load=gather: %s's gathers need %d scratch registers besides the destination; the plan has %d", b.Name(), b.GatherTemps(), workRegs-1)
	}
	b.Constants()
	return e.function(name)
}

func (e *emitter) comment(format string, args ...any) { e.a.Comment(fmt.Sprintf(format, args...)) }

// function emits the TEXT: the arguments, the state from h, the prologue
// (the steps of W[0..Lookahead-1] of the first block), the loop body (its
// rounds up to where the look-ahead reaches the next block, the advance
// to that block, then the rest of the rounds with the next block's first
// loads), the copy of the last rounds that finishes the last block without
// those loads, and the update of h after each block.
func (e *emitter) function(name string) error {
	b, L := e.b, int(e.p.Stream.Lookahead)
	sig := contract.Signature()
	if e.chk != nil {
		sig = checkedSig
	}
	b.Begin(name, sig, e.wregs == nil, e.p.Load == LoadGather,
		fmt.Sprintf("%s absorbs n blocks of each of %d lanes into h, %d lanes per vector register.", name, b.Lanes(), b.Lanes()),
		fmt.Sprintf("Schedule: %s.", e.p.String(b)))
	b.Setup(e.counts, e.blk)
	if e.chk != nil {
		b.(checker).CheckBegin(e.counts, e.blk, e.mask)
	}
	b.Prefetch()
	e.comment("The working variables from h.")
	for i, r := range e.v0.words() {
		b.LoadH(r, i)
	}

	prologue, head, next, last := sha1sched.Loop{
		Lookahead: L, Ring: &e.model,
		Prologue: "Prologue: W[0..%d] of the first block.",
		Advance:  "Advance to the next block, or finish the last one without its loads.",
		Vector:   e.unit, Round: func(t int, vector []step) {
			merge(e.round(t, e.vars(t)), append(vector[:len(vector):len(vector)], e.checkSteps(t)...))
		},
		Backend: loop{e},
	}.Emit()
	if err := sha1sched.CheckBlocks(prologue, head, next, last); err != nil {
		return fmt.Errorf("%s with %s: %w", name, e.p.String(b), err)
	}
	return nil
}

// vars is the registers of round t: the variables are renamed every round.
func (e *emitter) vars(t int) vars {
	v := e.v0
	for ; t > 0; t-- {
		v = v.next()
	}
	return v
}

// loop is the emitter as sha1sched.Loop takes it: after each block, h +=
// a..e in the lanes that absorb it.
type loop struct{ e *emitter }

func (l loop) Comment(format string, args ...any) { l.e.comment(format, args...) }
func (l loop) Label(name string)                  { l.e.b.Label(name) }
func (l loop) Jump(label string)                  { l.e.b.Jump(label) }
func (l loop) Advance(label string)               { l.e.b.NextBlock(label) }
func (l loop) NextBlock()                         { l.e.updateH(l.e.vars(80), l.e.v0) }
func (l loop) Finish() {
	l.e.updateH(l.e.vars(80), l.e.vars(80))
	l.e.b.Label("done")
	if l.e.chk != nil {
		l.e.b.(checker).CheckFinish()
	}
	l.e.b.Finish()
}

// updateH adds the working variables v into h (in the lanes that absorb
// the block: whose counts have not run out) and
// leaves the sums in the registers of to, for the next block. The two
// assignments differ by the renaming of 80 rounds, so this is a parallel
// move: a register is written once its value has been used, and a cycle
// goes through a scratch register.
func (e *emitter) updateH(v, to vars) {
	e.comment("h += a..e in the lanes that absorb this block; the sums are the next block's a..e.")
	e.b.Retire(e.counts, e.blk, e.mask)
	if e.chk != nil {
		e.b.(checker).CheckRecord(e.work[0])
	}
	type move struct {
		dst, src vreg
		row      int
	}
	var pending []move
	for i, r := range v.words() {
		pending = append(pending, move{dst: to.words()[i], src: r, row: i})
	}
	temps := []vreg{e.s0, e.s1}
	for len(pending) > 0 {
		ready := slices.IndexFunc(pending, func(m move) bool { // the first whose destination no other move reads
			return !slices.ContainsFunc(pending, func(o move) bool { return o != m && o.src == m.dst })
		})
		if ready < 0 { // every destination is another's source: a cycle
			t := temps[0]
			temps = temps[1:]
			e.b.Move(t, pending[0].src)
			pending[0].src = t
			continue
		}
		m := pending[ready]
		e.b.UpdateH(m.dst, m.src, m.row)
		pending = append(pending[:ready], pending[ready+1:]...)
	}
}

// merge emits a round's steps with the vector steps of the schedule dealt
// evenly between them, after the first (the read of W[t]).
func merge(round, sched []step) { sha1sched.Spread.Merge(round, sched) }

// round returns the steps of round t (FIPS 180-4, 6.1.2):
//
//	e += W[t];  e += K;  c' = rol30(b);  e += f_t(b, c, d);  e += rol5(a)
//
// The rotate of b goes into the spare register first, so that f can be
// computed in b's register; the terms that depend on a, the newest value,
// are added last.
func (e *emitter) round(t int, v vars) []step {
	b := e.a
	steps := []step{
		func() {
			e.comment("Round %d", t)
			b.Add(v.e, v.e, e.readW(t))
		},
		func() { b.AddK(v.e, v.e, t/20) },
	}
	steps = append(steps, e.rol(v.spare, v.b, 30, e.s1)...)
	steps = append(steps, e.f(t, v)...)
	if b.Rotate() == sha1sched.RotateInPlace {
		// rol5(a) = a<<5 | a>>27, and the halves share no bit: add both.
		return append(steps,
			func() { b.Shl(e.s1, v.a, 5) },
			func() { b.Add(v.e, v.e, e.s1) },
			func() { b.Shr(e.s1, v.a, 27) },
			func() { b.Add(v.e, v.e, e.s1) },
		)
	}
	return append(steps,
		func() { b.Rol(e.s1, v.a, 5) },
		func() { b.Add(v.e, v.e, e.s1) },
	)
}

// rol sets dst = rol(a, n), dst not a: with the ISA's rotate, or, where it
// has none (RotateInPlace), two shifts and an OR through tmp.
func (e *emitter) rol(dst, a vreg, n int, tmp vreg) []step {
	b := e.a
	if b.Rotate() != sha1sched.RotateInPlace {
		return []step{func() { b.Rol(dst, a, n) }}
	}
	return []step{
		func() { b.Shr(tmp, a, 32-n) },
		func() { b.Shl(dst, a, n) },
		func() { b.Or(dst, dst, tmp) },
	}
}

// f returns the steps that compute f_t(b, c, d) into b's register and add
// it into e, as one three-input logic instruction where the backend has
// one, else from the form of Params (sha1sched.FormOf): the result in b's
// register, with s0 as the only scratch register, which takes whatever
// must be computed while b is still read; an ADD form's halves are added
// into e one by one.
func (e *emitter) f(t int, v vars) []step {
	b, s, ft := e.a, e.s0, sha1sched.F(t)
	addF := func() { b.Add(v.e, v.e, v.b) }
	if b.Ternary() {
		return []step{func() { b.Logic3(v.b, v.b, v.c, v.d, ft.Ternary()) }, addF}
	}
	leaves := [...]vreg{sha1sched.InB: v.b, sha1sched.InC: v.c, sha1sched.InD: v.d}
	ops := [...]func(dst, a vreg, x source){sha1sched.OpAnd: b.And, sha1sched.OpOr: b.Or, sha1sched.OpXor: b.Xor}
	var steps []step
	var into func(n *sha1sched.Expr, dst vreg)
	into = func(n *sha1sched.Expr, dst vreg) {
		x, y := n.X, n.Y
		switch {
		case n.Op == sha1sched.OpAndNot: // ^a & b
			steps = append(steps, func() { b.AndNot(dst, leaves[y.Op], leaves[x.Op]) })
		case dst == v.b && n.XorInputs() != nil && n.ReadsB() && !x.Leaf():
			for _, l := range n.XorInputs() { // b ^ the others, in order
				if l != sha1sched.InB {
					steps = append(steps, func() { b.Xor(v.b, v.b, leaves[l]) })
				}
			}
		case x.Leaf() && y.Leaf() && dst == v.b && (x.Op == sha1sched.InB || y.Op == sha1sched.InB):
			other := leaves[x.Op+y.Op-sha1sched.InB]
			steps = append(steps, func() { ops[n.Op](v.b, v.b, other) })
		case x.Leaf() && y.Leaf():
			steps = append(steps, func() { ops[n.Op](dst, leaves[x.Op], leaves[y.Op]) })
		case x.Leaf() || y.Leaf():
			l, m := x, y
			if !l.Leaf() {
				l, m = m, l
			}
			if l.Op == sha1sched.InB {
				into(m, s)
				steps = append(steps, func() { ops[n.Op](v.b, v.b, s) })
				return
			}
			into(m, dst)
			steps = append(steps, func() { ops[n.Op](dst, dst, leaves[l.Op]) })
		default: // into b: s first takes the operand that reads b while the other does not, or the shallower
			first, last := x, y
			if !x.ReadsB() || y.ReadsB() && depth(y) < depth(x) {
				first, last = y, x
			}
			into(first, s)
			into(last, v.b)
			steps = append(steps, func() { ops[n.Op](v.b, v.b, s) })
		}
	}
	if form := sha1sched.FormOf(ft, e.p.Stream.Ch, e.p.Stream.Maj); form.Op == sha1sched.OpAdd {
		into(form.X, s)
		steps = append(steps, func() { b.Add(v.e, v.e, s) })
		into(form.Y, v.b)
	} else {
		into(form, v.b)
	}
	return append(steps, addF)
}

// depth is the operations from n to its deepest input.
func depth(n *sha1sched.Expr) int {
	if n.Leaf() {
		return 0
	}
	return 1 + max(depth(n.X), depth(n.Y))
}

// unit returns the schedule steps that round w-Lookahead hosts: all of
// W[w]'s for w = 16..79 of a block, or a quarter of the load group that
// holds w for the message words (w = 0..15, and 80..95, the next block's).
func (e *emitter) unit(w int) []step {
	if w%80 >= 16 {
		return e.wordSteps(w)
	}
	return sha1sched.Spread.Deal(e.groupSteps(w/groupWords), w%groupWords, groupWords)
}

// wordSteps returns the steps of W[w] = rol1(W[w-16] ^ W[w-14] ^ W[w-8] ^
// W[w-3]), 16 <= w < 80, with W[w-3], the one computed last, XORed last.
// The XOR gathers in W[w]'s register r, which is then rotated in place, or,
// for a rotate into another register (RotateInto), in a scratch register.
func (e *emitter) wordSteps(w int) []step {
	b := e.a
	r := e.work[w%cacheRegs]
	if e.wregs != nil {
		r = e.wregs[w%ringWords] // where W[w-16] is: the rewrite is in place
	}
	x, s := r, e.work[cacheRegs]
	if b.Rotate() == sha1sched.RotateInto {
		x = s
	}
	var steps []step
	switch {
	case e.wregs != nil && b.Ternary():
		steps = append(steps, func() {
			b.Logic3(x, e.readWReg(w-16), e.readWReg(w-14), e.readW(w-8), sha1sched.FParity.Ternary())
		})
	case e.wregs != nil:
		steps = append(steps,
			func() { b.Xor(x, e.readWReg(w-16), e.readW(w-14)) },
			func() { b.Xor(x, x, e.readW(w-8)) },
		)
	default:
		steps = append(steps,
			func() { b.Move(x, e.readW(w-16)) },
			func() { b.Xor(x, x, e.readW(w-14)) },
			func() { b.Xor(x, x, e.readW(w-8)) },
		)
	}
	steps = append(steps, func() { b.Xor(x, x, e.readLatest(w-3)) })
	if b.Rotate() == sha1sched.RotateInPlace {
		steps = append(steps,
			func() { b.Shr(s, r, 31) },
			func() { b.Add(r, r, r) }, // r << 1, on the adders
			func() { b.Or(r, r, s) },
		)
	} else {
		steps = append(steps, func() { b.Rol(r, x, 1) })
	}
	steps[0] = commented(steps[0], func() { e.comment("W[%d] = rol1(W[%d] ^ W[%d] ^ W[%d] ^ W[%d])", w, w-16, w-14, w-8, w-3) })
	if e.wregs != nil {
		last := steps[len(steps)-1]
		steps[len(steps)-1] = func() { last(); e.wrote(home, w) }
	} else {
		steps = append(steps, func() {
			e.wrote(cache, w)
			b.Store(e.writeW(w), r)
		})
	}
	return steps
}

func commented(s step, c func()) step { return func() { c(); s() } }

// groupSteps returns the steps that load W[4g..4g+3] from every lane's
// block (the next block's for g >= 20), swap their bytes and put them
// where W lives.
//
// LoadUnpack: row j holds, in its 128-bit part q, words 4g..4g+3 of lane
// 4q+j. Unpacking the 32-bit elements of rows 0 and 1 (and 2 and 3), then
// the 64-bit elements of those results, transposes each 4x4 block of
// words, so that element 4q+j of W[4g+i] is word 4g+i of lane 4q+j: the
// lanes come out in order.
func (e *emitter) groupSteps(g int) []step {
	b := e.b
	x := groupWords * g
	if g >= 20 {
		g -= 20 // the next block's group g-20, at the advanced offset
	}
	var steps []step
	steps = append(steps, func() {
		e.comment("W[%d..%d]: load and transpose", x, x+groupWords-1)
		e.model.Clear(int(cache)) // the work registers are the cache
	})
	out := func(i int, r vreg) []step {
		if e.wregs != nil {
			return []step{func() {
				b.ByteSwap(e.wregs[(x+i)%ringWords], r)
				e.wrote(home, x+i)
			}}
		}
		return []step{
			func() { b.ByteSwap(r, r) },
			func() { b.Store(e.writeW(x+i), r) },
		}
	}
	if e.p.Load == LoadGather {
		dst, tmp := e.work[workRegs-1], e.work[:b.GatherTemps()]
		for i := 0; i < groupWords; i++ {
			steps = append(steps, b.Gather(dst, 4*(x%80+i), tmp)...)
			steps = append(steps, out(i, dst)...)
		}
		return steps
	}
	rows := e.work[:4]
	for j := 0; j < 4; j++ {
		for q := 0; q < b.Lanes()/4; q++ {
			lane := 4*q + j
			steps = append(steps, func() { b.LoadPart(rows[j], lane, g, q) })
		}
	}
	r0, r1, r2, r3, t := rows[0], rows[1], rows[2], rows[3], e.work[4]
	steps = append(steps,
		func() { b.Unpack(t, r0, r1, 4, false) },  // t:  lanes j=0,1: words 0, 1
		func() { b.Unpack(r0, r0, r1, 4, true) },  // r0: j=0,1: words 2, 3
		func() { b.Unpack(r1, r2, r3, 4, false) }, // r1: j=2,3: words 0, 1
		func() { b.Unpack(r2, r2, r3, 4, true) },  // r2: j=2,3: words 2, 3
		func() { b.Unpack(r3, t, r1, 8, false) },  // word 0
	)
	steps = append(steps, out(0, r3)...)
	steps = append(steps, func() { b.Unpack(t, t, r1, 8, true) }) // word 1
	steps = append(steps, out(1, t)...)
	steps = append(steps, func() { b.Unpack(r1, r0, r2, 8, false) }) // word 2
	steps = append(steps, out(2, r1)...)
	steps = append(steps, func() { b.Unpack(r0, r0, r2, 8, true) }) // word 3
	steps = append(steps, out(3, r0)...)
	return steps
}

// readW records a read of W[x] where it lives and returns that source.
func (e *emitter) readW(x int) source {
	e.model.Read(x, home.slot(x)).Record()
	if e.wregs != nil {
		return e.wregs[x%ringWords]
	}
	return slot(x % ringWords)
}

// readWReg is readW where W lives in registers.
func (e *emitter) readWReg(x int) vreg { return e.readW(x).(vreg) }

// readLatest reads W[x], which the schedule computed a few steps ago: from
// the register it was computed in, when W lives in memory and it is still
// there (x >= 16: the message words are not).
func (e *emitter) readLatest(x int) source {
	if e.wregs == nil && x%80 >= 16 {
		e.model.Read(x, cache.slot(x)).Record()
		return e.work[x%cacheRegs]
	}
	return e.readW(x)
}

// writeW records a write of W[x] to the ring and returns its slot.
func (e *emitter) writeW(x int) slot {
	e.wrote(home, x)
	return slot(x % ringWords)
}

func (e *emitter) wrote(r ring, x int) { e.model.WriteWord(x, r.slot(x)).Record() }

// A ring is where the model keeps schedule words, as a buffer of slots.
type ring int

const (
	home  ring = iota // where W[t] lives: slot t%16 of the registers or the stack ring
	cache             // the registers holding the latest computed words, slot t%4
)

// slot is W[x]'s slot in r: one word each.
func (r ring) slot(x int) sha1sched.Slot {
	if r == home {
		return sha1sched.Slot{Buf: int(r), Off: 4 * (x % ringWords)}
	}
	return sha1sched.Slot{Buf: int(r), Off: 4 * (x % cacheRegs)}
}
