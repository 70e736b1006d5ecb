// Package lanes is the scheduler of SumMany's multi-lane kernels, shared
// by package sha1 and package sha1dc: which message each lane of a kernel
// hashes, and for how many blocks each call of the kernel runs.
//
// It works like the job manager of Intel's multi-buffer libraries
// (isa-l_crypto's sha1_mb): each free lane takes the next message, and a
// call of the kernel runs until a lane's message is done. Within a call a
// lane moves from its message's whole blocks on to its last one or two,
// padded in a buffer of the lane's own. Two things keep the calls few,
// since each costs about two blocks' time beyond its blocks (CallBlocks):
// the messages are taken Window at a time and started longest first, so
// that the lanes' messages end close together; and a call runs past the
// first message's end, letting the lanes that are done idle, for as long
// as the idle lane-blocks cost less than the calls they save.
//
// When fewer lanes would stay busy than pay for the vector kernel (the
// caller's minLive), the messages still in the lanes are finished one at
// a time by the caller's single-stream block function, from where the
// lanes left them.
//
// Lanes in lockstep on one set of the L1 data cache (pieces of a
// power-of-two size laid end to end) are taken apart: a call of a few
// blocks holds some of them back (Crowd).
//
// The scheduler does not call the kernels: the caller drives it (Next,
// then the kernel on State, then Done), so that each package calls its
// assembly kernels directly, which keeps the scheduler's state on the
// caller's stack (an indirect call would move it to the heap).
package lanes

import (
	"encoding/binary"
	"slices"
	"unsafe"
)

// BlockSize is the size of a SHA-1 block.
const BlockSize = 64

// MaxLanes is the most lanes a kernel has.
const MaxLanes = 16

// State is what a multi-lane kernel works on: H[i][l] is word i of lane
// l's intermediate hash; lane l absorbs C[1][l] blocks, C[0][l] of them
// at P[0][l], then those at P[1][l] (C[0][l] <= 0: all at P[0][l]). The
// kernels advance P[0] and C as they go: Next sets them before every
// call. P[2] and P[3] are addresses the kernels prefetch.
type State struct {
	H [5][MaxLanes]uint32
	P [4][MaxLanes]*byte
	C [2][MaxLanes]int32
}

// Window is how many messages the scheduler takes at a time and orders
// by length, longest first, so that the messages running side by side in
// the lanes end close together.
const Window = 256

// CallBlocks is what one call of a kernel costs beyond its blocks (the
// scheduler's bookkeeping, and the kernel's start and end, when its
// rounds cannot overlap with other work), in blocks of all lanes: the
// scheduler lets lanes whose messages have ended idle in a call for up to
// that many lane-blocks per message that ends in the same call, instead
// of a call per message. Measured on the reference machine
// (docs/sha1-many.md).
const CallBlocks = 2

// A job is the message a lane is hashing: its whole blocks, then its
// tail, padded, in the lane's pad buffer.
type job struct {
	msg   int // its index in msgs
	whole int // the message's whole blocks
	end   int // the pad's length: one or two blocks
	left  int // the blocks, whole or pad, not yet hashed
}

// The initial hash value H(0), FIPS 180-4 section 5.3.1.
var initState = [5]uint32{0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0}

// Pads are the lanes' buffers for the padded last blocks of their
// messages: lane l's are Pads[l].
type Pads [MaxLanes][2 * BlockSize]byte

// Scheduler is the bookkeeping of one SumMany call: which message each
// lane has and how far it is. The messages, the pads and the kernel's
// State are the caller's, passed to each method, and the methods return
// the pointers they compute rather than store them: a pointer stored into
// a structure handed in would make escape analysis move the caller's
// buffers to the heap.
//
// A call of SumMany is
//
//	s.Start(len(msgs), lanes, minLive, maxCall)
//	for {
//		n := s.Next(msgs, &pad, &st)
//		if n == 0 { finish s.Live()'s lanes with Rest; break }
//		set st.P and st.C from s.Lane and s.Hint for every lane
//		run the kernel for n blocks on st
//		ended, all := s.Done(): the ended lanes' sums are st.Digest(l)
//		if all { break }
//	}
type Scheduler struct {
	jobs [MaxLanes]job
	live uint32 // bit l: lane l has a message
	busy int    // the number of live lanes
	// The messages not yet started: order[next:have] of this window,
	// then msgs[loaded:].
	order      [Window]int32
	next, have int
	loaded     int
	msgs       int           // len(msgs)
	left       [MaxLanes]int // the live lanes' blocks left, ascending
	lanes      int
	minLive    int
	maxCall    int
	n          int // the blocks of the current call
	// hold is, for the current call, how many of its blocks each lane
	// sits out at its end (stagger): lane l absorbs n-hold[l] of them.
	hold [MaxLanes]int
}

// Start sets s to schedule msgs messages on lanes lanes (at most
// MaxLanes), with the single-stream finish once fewer than minLive lanes
// are busy, and calls of at most maxCall blocks.
func (s *Scheduler) Start(msgs, lanes, minLive, maxCall int) {
	*s = Scheduler{msgs: msgs, lanes: lanes, minLive: minLive, maxCall: maxCall}
}

// Next fills the free lanes with the next messages (their padded tails in
// pad, their states in st.H from H(0)) and returns the number of blocks
// of the next call of the kernel, which Lane and Hint then set up. It
// returns 0 when every message is done, or when too few lanes are busy
// (every message has then started): the caller finishes the live lanes
// with Rest.
func (s *Scheduler) Next(msgs [][]byte, pad *Pads, st *State) int {
	for l := 0; l < s.lanes; l++ {
		if s.live&(1<<l) != 0 {
			continue
		}
		if s.next == s.have {
			if s.loaded == s.msgs {
				break
			}
			s.have = fillWindow(&s.order, msgs, s.loaded)
			s.loaded += s.have
			s.next = 0
		}
		i := int(s.order[s.next])
		s.next++
		s.startLane(l, msgs[i], i, pad, st)
		s.live |= 1 << l
		s.busy++
	}
	if s.busy < s.minLive || s.busy == 0 {
		s.n, s.hold = 0, [MaxLanes]int{}
		return 0
	}
	// The call's length: the shortest lane's blocks left, or more, while
	// letting the lanes that end sooner idle costs less than the calls it
	// saves.
	m := 0
	for l := 0; l < s.lanes; l++ {
		if s.live&(1<<l) != 0 {
			s.left[m] = s.jobs[l].left
			m++
		}
	}
	slices.Sort(s.left[:m])
	e := 1
	for e < m && e*(s.left[e]-s.left[e-1]) <= CallBlocks*s.lanes {
		e++
	}
	s.n = min(s.left[e-1], s.maxCall)
	// Lanes in lockstep on one L1 set: hold some back for a few blocks;
	// the call is that long.
	var shift int
	s.hold, shift = s.stagger(msgs, pad)
	if shift > 0 {
		s.n = min(shift, s.maxCall)
		for l := range s.hold {
			s.hold[l] = min(s.hold[l], s.n)
		}
	}
	return s.n
}

// Crowd is the most lanes whose next blocks may lie in one set of the L1
// data cache (the same 64-byte line of 4 KiB, modulo 4 KiB) with
// StaggerBlocks or more left; Next spreads more than that onto sets of
// LanesPerSet. Messages of a power-of-two size laid end to end (a
// torrent's pieces read into one buffer) put every lane on one set, and
// keep them so block after block: on the reference machine's 12-way L1D
// the 16-lane kernel ran about 40% slower with every lane on one set than
// with four a set (docs/sha1-many.md, "Layout", has the measurements).
const (
	Crowd         = 8
	LanesPerSet   = 4
	StaggerBlocks = 64
)

// stagger returns, for a call in which more than Crowd live lanes with
// StaggerBlocks or more to go would read one L1 set, how many blocks to
// hold each lane back (hold) and the call's length (shift): the crowd's
// lanes in turn absorb shift, shift-1, ..., 0 of its blocks, so that they
// come apart onto up to shift+1 neighbouring sets, at most LanesPerSet on
// each, and stay apart as they go. With no crowded set, shift is 0 and
// hold all zeros.
func (s *Scheduler) stagger(msgs [][]byte, pad *Pads) (hold [MaxLanes]int, shift int) {
	if s.lanes <= Crowd {
		return hold, 0
	}
	var sets [MaxLanes]int
	crowd := 0 // lanes of a full crowd (bit l)
	for l := 0; l < s.lanes; l++ {
		sets[l] = -1
		if s.live&(1<<l) != 0 && s.jobs[l].left >= StaggerBlocks {
			sets[l] = int(uintptr(unsafe.Pointer(s.nextBlock(l, msgs, pad))) >> 6 & 63)
		}
	}
	for l := 0; l < s.lanes; l++ {
		if sets[l] < 0 || crowd&(1<<l) != 0 {
			continue
		}
		var members [MaxLanes]int
		k := 0
		for m := l; m < s.lanes; m++ {
			if sets[m] == sets[l] {
				members[k] = m
				k++
			}
		}
		if k <= Crowd {
			continue
		}
		groups := (k + LanesPerSet - 1) / LanesPerSet
		for r, m := range members[:k] {
			hold[m] = r % groups
			crowd |= 1 << m
		}
		shift = max(shift, groups-1)
	}
	return hold, shift
}

// Held reports how many of the call's blocks Next holds lane l back
// from, to take it off a crowded L1 set (Crowd).
func (s *Scheduler) Held(l int) int { return s.hold[l] }

// nextBlock is the address of lane l's next block: in its message's
// whole blocks, or in its pad.
func (s *Scheduler) nextBlock(l int, msgs [][]byte, pad *Pads) *byte {
	j := &s.jobs[l]
	padLeft := min(j.left, j.end/BlockSize)
	if whole := j.left - padLeft; whole > 0 {
		return &msgs[j.msg][(j.whole-whole)*BlockSize]
	}
	return &pad[l][j.end-padLeft*BlockSize]
}

// Lane returns lane l's pointers and counts for the call Next set up
// (State's P[0][l], P[1][l], C[0][l], C[1][l]): its message's whole
// blocks, then its pad. A lane without a message stays on its pad, and
// its state is left alone.
func (s *Scheduler) Lane(l int, msgs [][]byte, pad *Pads) (p0, p1 *byte, c0, c1 int32) {
	j := &s.jobs[l]
	if s.live&(1<<l) == 0 {
		return &pad[l][0], nil, 0, 0
	}
	c1 = int32(min(j.left, s.n-s.hold[l])) // a lane held back absorbs fewer
	if whole := j.left - min(j.left, j.end/BlockSize); whole > 0 {
		// (A count past the call's blocks means no switch in it.)
		return s.nextBlock(l, msgs, pad), &pad[l][0], int32(min(whole, s.n)), c1
	}
	return s.nextBlock(l, msgs, pad), nil, 0, c1
}

// Hint returns the addresses the kernel prefetches for lane i (State's
// P[2][i] and P[3][i]): the first and last bytes of the i-th next
// message, whose tails Next reads first, to pad them.
func (s *Scheduler) Hint(i int, msgs [][]byte, pad *Pads) (first, last *byte) {
	if s.next+i < s.have {
		if m := msgs[s.order[s.next+i]]; len(m) > 0 {
			return &m[0], &m[len(m)-1]
		}
	}
	return &pad[0][0], &pad[0][0]
}

// Block returns the block that lane l absorbs as the call's block number
// b (0-based), before Done: in its message, or in its pad.
func (s *Scheduler) Block(l, b int, msgs [][]byte, pad *Pads) []byte {
	j := &s.jobs[l]
	left := j.left - b // the lane's blocks left before block b
	padLeft := min(left, j.end/BlockSize)
	if whole := left - padLeft; whole > 0 {
		off := (j.whole - whole) * BlockSize
		return msgs[j.msg][off : off+BlockSize]
	}
	off := j.end - padLeft*BlockSize
	return pad[l][off : off+BlockSize]
}

// Msg returns the index in msgs of lane l's message.
func (s *Scheduler) Msg(l int) int { return s.jobs[l].msg }

// Absorbs reports how many of the call's blocks lane l absorbs.
func (s *Scheduler) Absorbs(l int) int {
	if s.live&(1<<l) == 0 {
		return 0
	}
	return min(s.jobs[l].left, s.n-s.hold[l])
}

// Done accounts for the call of the kernel that Next set up and returns
// the lanes whose messages it finished (bit l), whose states are then in
// the State, and frees them for the next messages; all reports whether
// every message is done.
func (s *Scheduler) Done() (ended uint32, all bool) {
	for l := 0; l < s.lanes; l++ {
		if s.live&(1<<l) == 0 {
			continue
		}
		if s.jobs[l].left -= min(s.jobs[l].left, s.n-s.hold[l]); s.jobs[l].left == 0 {
			ended |= 1 << l
			s.live &^= 1 << l
			s.busy--
		}
	}
	return ended, s.busy == 0 && s.next == s.have && s.loaded == s.msgs
}

// Live returns the lanes that have a message (bit l).
func (s *Scheduler) Live() uint32 { return s.live }

// Rest returns what is left of lane l's message, for the caller's
// single-stream finish: its whole blocks not yet hashed, then its padded
// last blocks not yet hashed. Every block of the message is in exactly
// one of the kernel's calls or these.
func (s *Scheduler) Rest(l int, msgs [][]byte, pad *Pads) (whole, last []byte) {
	j := &s.jobs[l]
	padLeft := min(j.left, j.end/BlockSize)
	if w := j.left - padLeft; w > 0 {
		off := (j.whole - w) * BlockSize
		whole = msgs[j.msg][off : off+w*BlockSize]
	}
	return whole, pad[l][j.end-padLeft*BlockSize : j.end]
}

// fillWindow sets order to the indexes of the next messages, from first
// on (up to Window of them), longest first, and returns how many.
func fillWindow(order *[Window]int32, msgs [][]byte, first int) int {
	n := min(Window, len(msgs)-first)
	for i := range n {
		order[i] = int32(first + i)
	}
	slices.SortFunc(order[:n], func(a, b int32) int { return len(msgs[b]) - len(msgs[a]) })
	return n
}

// startLane sets lane l to hash message m (number i) from the start: h
// from H(0), its whole blocks, then its tail, padded as FIPS 180-4 5.1.1
// says, in pad.
func (s *Scheduler) startLane(l int, m []byte, i int, pads *Pads, st *State) {
	pad := &pads[l]
	whole := len(m) &^ (BlockSize - 1)
	r := copy(pad[:], m[whole:])
	pad[r] = 0x80
	end := BlockSize
	if r >= BlockSize-8 {
		end = 2 * BlockSize
	}
	clear(pad[r+1 : end-8])
	binary.BigEndian.PutUint64(pad[end-8:end], uint64(len(m))<<3)
	s.jobs[l] = job{msg: i, whole: whole / BlockSize, end: end, left: (whole + end) / BlockSize}
	st.SetLane(l, initState)
}

// Lane returns lane l's intermediate hash, its five words.
func (st *State) Lane(l int) [5]uint32 {
	return [5]uint32{st.H[0][l], st.H[1][l], st.H[2][l], st.H[3][l], st.H[4][l]}
}

// SetLane sets lane l's intermediate hash to h.
func (st *State) SetLane(l int, h [5]uint32) {
	for w, v := range h {
		st.H[w][l] = v
	}
}

// Digest returns lane l's state as a checksum.
func (st *State) Digest(l int) [20]byte {
	var d [20]byte
	for w := range st.H {
		binary.BigEndian.PutUint32(d[4*w:], st.H[w][l])
	}
	return d
}
