package sha1ce

import (
	"fmt"

	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// The block function with the SHA-1 instructions of the Arm Cryptographic
// Extension (Arm ARM, DDI 0487: SHA1C, SHA1P, SHA1M, SHA1H, SHA1SU0,
// SHA1SU1), the same in A64 and A32.
//
// Rounds. SHA1C, SHA1P and SHA1M each run the four rounds of a group, with
// the choose, parity and majority function: a, b, c, d in words 0-3 of one
// register (as h[0..3] lies in memory, so it is loaded as it is), e in word
// 0 of a second, and the four words W+K of the rounds in a third. They
// replace a..d; the e after four rounds is rol30 of the a before them,
// which SHA1H computes. So the 20 groups of a block form one chain of
// four-round instructions, and each group also takes SHA1H of the a..d it
// starts from, into the next group's e register. Group 0's e is the
// state's own, in hE, to which the block's last e is added.
//
// SHA1H and the rounds both wait for the previous group's a..d. A core
// that issues the oldest ready instruction first and runs both on one
// pipeline (the Cortex-A57: LLVM's model, and Go's crypto/sha1, which
// copies a..d for that reason) then starts the rounds a cycle late. In the
// groups of -copied, SHA1H reads a copy of a..d instead, taken before the
// rounds on another pipeline, so the rounds go first; but on an in-order
// core (Cortex-A53, A55) the copy lengthens the path to the next group's e
// by one instruction, which costs more than the cycle it saves. A few
// copied groups are the compromise (docs/sha1.md has the figures). Group 0
// takes its copy for free: the previous block's last addition writes the
// new a..d into two registers, sa and sb, at once; the next block works in
// one and takes SHA1H of the other, so the blocks alternate between them
// and the loop holds two.
//
// Schedule. Group j's words M_j = W[4j..4j+3] are, for 4 <= j < 20,
//
//	M_j = SHA1SU1(SHA1SU0(M_(j-4), M_(j-3), M_(j-2)), M_(j-1))
//
// SHA1SU0 forms W[t-16] ^ W[t-14] ^ W[t-8] for the four words and SHA1SU1
// adds W[t-3] and rotates, word by word, so that the last word can use the
// first (the dependency inside a group). Four registers hold the window:
// M_j lives in w0+j%4, where M_(j-4) was, and group g computes M_(g+4)
// after its rounds. Group j's W+K is added right after the rounds of group
// j-ahead, into the W+K register those rounds read: a ring of -ahead
// registers.
//
// Loads. Once M_16..M_19 are no longer needed, a block loads the next
// block's words into the window and adds the W+K of its first groups, so
// that the next block starts without waiting for memory. The last block
// has no next one: it loads itself again (nextBlock moves the pointer
// back), so that nothing outside p is read.
//
// The order within a stretch between branches is the list scheduler's,
// for the Cortex-A53 as LLVM models it (sha1arm.CortexA53), unless
// -schedule=false.
//
// Streams. Several independent streams run the same description group by
// group, each in registers of its own (params.at); they share the K
// registers, the block count and the loop.

// vec names a 128-bit register of the description, as four 32-bit words.
type vec int

const (
	sa    vec = iota // a, b, c, d in words 0-3: the working a..d of even blocks,
	sb               // and of odd ones; the other holds a copy of the block's first a..d
	e0               // the e of the even groups after group 0, in word 0
	hE               // the state's e (word 0): group 0's e, and the block's result
	hABCD            // the state's a..d, kept to be added to the block's result
	w0               // the schedule window: group j's words in w0+j%4 (w0-w3)
	w1
	w2
	w3
	k0 // K of rounds 20i..20i+19 in every word of k0+i (k0-k3)
	k1
	k2
	k3
	wk0 // W+K of group j in wk0+j%ahead
)

// groups is the number of four-round groups in a block.
const groups = 20

// perStream is the number of registers of a stream's own, with -ahead a.
func perStream(a int) int { return int(k0) + a }

// registers is the number of vector registers the description uses for
// streams streams: the K registers and each stream's own.
func registers(ahead, streams int) int { return 4 + streams*perStream(ahead) }

// at is stream s's register of the description's register v: stream 0's
// are the numbers above, each other stream's follow the last of them, in
// the same order, and the K registers are shared.
func (p params) at(s int, v vec) vec {
	switch {
	case s == 0 || v >= k0 && v <= k3:
		return v
	case v > k3:
		v -= 4 // the W+K registers follow the window
	}
	return vec(registers(p.ahead, s)) + v
}

func window(j int) vec { return w0 + vec(j%4) }

func kReg(j int) vec { return k0 + vec(4*j/groups) }

// roles says which of sa and sb a block works in: x holds its a..d, y
// the copy, which is also the e register of its odd groups. The blocks
// alternate: the last additions of a block put the new a..d into both,
// its y first, which becomes the next block's x.
type roles struct{ x, y vec }

var alternate = [2]roles{{sa, sb}, {sb, sa}}

// eReg is the register of group j's e (j >= 1; group 0's is hE).
func (r roles) eReg(j int) vec {
	if j%2 == 0 {
		return e0
	}
	return r.y
}

func (r roles) eIn(g int) vec {
	if g == 0 {
		return hE
	}
	return r.eReg(g)
}

// groupSet is a set of groups, 0-19.
type groupSet uint32

func (s groupSet) has(g int) bool { return s&(1<<g) != 0 }

// machine is what the description is written against: a few vector
// operations and the SHA-1 instructions, destination first, and the
// control around them. The arm64 and arm machines (machine_a64.go,
// machine_a32.go) emit them; the tests run them on a model of the
// instructions.
type machine interface {
	comment(lines ...string)
	label(name string)

	// loadArgs loads the arguments of func(h *[5]uint32, p []byte), the
	// block pointer p and the number of bytes of p's whole blocks, and
	// jumps to label none if there is no whole block.
	// With several streams, the arguments of the Streams form.
	loadArgs(none string)
	loadState(s int, abcd, e vec)  // a..d from stream s's h[0..3], e from its h[4] (word 0)
	storeState(s int, abcd, e vec) // the reverse
	// loadK sets ks[i] to K of rounds 20i..20i+19 in every word.
	loadK(ks [4]vec)
	// loadBlock sets ws[j] to W[4j..4j+3], the 64 bytes at stream s's
	// block pointer read as big-endian words, and advances the pointer
	// past them.
	loadBlock(s int, ws [4]vec)
	// nextBlock counts the block about to be absorbed, and moves every
	// block pointer back 64 bytes if it is the last, so that the loadBlock
	// in it reads it again instead of the bytes after it.
	nextBlock()
	// exitIfLast jumps to label if nextBlock counted the last block, and
	// loopBack if it did not.
	exitIfLast(label string)
	loopBack(label string)
	ret()

	copy(d, s vec)
	add(d, n, m vec)                          // d = n + m, word by word
	rounds(f sha1sched.Func, abcd, e, wk vec) // SHA1C, SHA1P or SHA1M
	hashE(d, abcd vec)                        // SHA1H: d = rol30(word 0 of abcd)
	scheduleStart(d, n, m vec)                // SHA1SU0
	scheduleEnd(d, n vec)                     // SHA1SU1
	// retire, before a block's result (a..d in abcd, and e) is added to
	// stream s's saved state, makes it zero if the stream's count of
	// blocks has run out, so that the state stays as it was (the Lanes
	// form, lanes.go; the other forms absorb every block).
	retire(s int, abcd, e vec)
}

// params are the description's knobs, and its number of streams.
type params struct {
	ahead   int      // W+K registers: group g's W+K is added after group g-ahead's rounds
	copied  groupSet // the groups whose SHA1H reads a copy of a..d
	streams int
}

// block describes the 20 groups of a block of every stream in the
// registers of roles r, group by group.
func (p params) block(m machine, r roles) {
	for g := 0; g < groups; g++ {
		m.comment(fmt.Sprintf("Rounds %d-%d", 4*g, 4*g+3))
		for s := range p.streams {
			p.group(m, r, s, g)
		}
	}
}

// group describes group g of stream s: the rounds, the schedule of later
// groups' words and their W+K, and the next block's words and the W+K of
// its first groups.
func (p params) group(m machine, r roles, s, g int) {
	v := func(x vec) vec { return p.at(s, x) }
	wk := func(j int) vec { return v(wk0 + vec(j%p.ahead)) }
	win := func(j int) vec { return v(window(j)) }
	x, y, e, nextE := v(r.x), v(r.y), v(r.eIn(g)), v(r.eReg(g+1))
	switch {
	case g == 0:
		m.rounds(sha1sched.F(4*g), x, e, wk(g))
		m.comment("Keep the state: it is added to the result of the 80 rounds.")
		m.copy(v(hABCD), y)
		m.hashE(nextE, y) // nextE is r.y: the copy of a..d
	case p.copied.has(g):
		m.copy(nextE, x)
		m.rounds(sha1sched.F(4*g), x, e, wk(g))
		m.hashE(nextE, nextE)
	default:
		m.hashE(nextE, x)
		m.rounds(sha1sched.F(4*g), x, e, wk(g))
	}
	if j := g + 4; j < groups {
		m.scheduleStart(win(j), win(j-3), win(j-2))
		m.scheduleEnd(win(j), win(j-1))
	}
	if g+p.ahead == groups {
		m.comment("The next block's words, now that this block's are no longer needed.")
		m.loadBlock(s, [4]vec{v(w0), v(w1), v(w2), v(w3)})
	}
	j := g + p.ahead // j >= 20: the next block's group j-20
	m.add(wk(j), win(j), kReg(j%groups))
}

// finish adds the state to every stream's block result: e = rol30(a of
// rounds 76-79's start) + saved e; a..d + saved a..d into r.y first, the
// next block's working register, then into r.x.
func (p params) finish(m machine, r roles) {
	m.comment("e += saved e; a..d += saved a..d, into both sa and sb.")
	for s := range p.streams {
		v := func(x vec) vec { return p.at(s, x) }
		m.retire(s, v(r.x), v(r.eReg(groups)))
		m.add(v(hE), v(hE), v(r.eReg(groups)))
		m.add(v(r.y), v(r.x), v(hABCD))
		m.add(v(r.x), v(r.x), v(hABCD))
	}
}

// prologue loads the states, the round constants, the first blocks' words
// and the W+K of their first ahead groups.
func (p params) prologue(m machine) {
	for s := range p.streams {
		m.loadState(s, p.at(s, sa), p.at(s, hE))
		m.copy(p.at(s, sb), p.at(s, sa))
	}
	m.loadK([4]vec{k0, k1, k2, k3})
	m.comment("The first block's words, and its first groups' W+K.")
	for s := range p.streams {
		v := func(x vec) vec { return p.at(s, x) }
		m.loadBlock(s, [4]vec{v(w0), v(w1), v(w2), v(w3)})
		for j := 0; j < p.ahead; j++ {
			m.add(v(wk0+vec(j)), v(window(j)), kReg(j))
		}
	}
}

// kernel describes blockCE: for one stream, of the Blocks form, it absorbs
// len(p)/64 whole blocks of p into h; for more, of the Streams form, n
// blocks of each; it reads nothing else. The loop holds two blocks, one
// in each register roles.
func (p params) kernel(m machine) {
	m.loadArgs("done")
	p.prologue(m)
	m.label("loop")
	for i, r := range alternate {
		m.comment(fmt.Sprintf("Block %d of the loop's two: a..d in %s.", i, []string{"sa", "sb"}[i]))
		m.comment("Count the block; the last one loads itself again in place of the next.")
		m.nextBlock()
		p.block(m, r)
		p.finish(m, r)
		if i == 0 {
			m.exitIfLast("store")
		}
	}
	m.loopBack("loop")
	m.label("store")
	for s := range p.streams {
		m.storeState(s, p.at(s, sa), p.at(s, hE)) // after any block, sa and sb both hold a..d
	}
	m.label("done")
	m.ret()
}
