package sha1

import (
	"encoding/binary"
	"fmt"
	"slices"
	"unsafe"

	"github.com/simdhash/simdhash/internal/cpuid"
)

// SumMany sets sums[i] to Sum(msgs[i]) for every i.
//
// It hashes several messages at once (see [ManyKernel]): on amd64 sixteen
// or eight, one in each 32-bit lane of the AVX-512 or AVX2 vector
// registers, or, with SHA-NI but no AVX2, three in interleaved streams of
// the SHA instructions; on arm64 two in interleaved streams of the SHA1
// instructions, or four in the lanes of the NEON registers on cores
// without them. That takes the latency of SHA-1's round chain, the limit
// of a single stream, out of the picture: on a batch of many messages of
// a few KiB or more, avx512x16 took about a fifth of the time of a loop of
// Sum, avx2x8 and shanix3 about 0.55 (docs/sha1-many.md). Elsewhere it is
// that loop.
//
// The messages may have any lengths, including zero, and may share or
// overlap their memory; sums must not overlap any message, or SumMany
// panics. It panics if len(sums) != len(msgs). It does not allocate, and
// it reads nothing outside the messages.
//
// # Scheduling
//
// SumMany works like the job manager of Intel's multi-buffer libraries
// (isa-l_crypto's sha1_mb): each free lane takes the next message, and a
// call of the kernel runs until a lane's message is done. Within a call a
// lane moves from its message's whole blocks on to its last one or two,
// padded in a buffer of the lane's own. Two things keep the calls few,
// since each costs about two blocks' time beyond its blocks (measured:
// manyCallBlocks): the messages are taken 256 at a time (manyWindow) and
// started longest first, so that the lanes' messages end close together;
// and a call runs past the first message's end, letting the lanes that
// are done idle, for as long as the idle lane-blocks cost less than the
// calls they save.
//
// When fewer lanes would stay busy than pay for the vector kernel, the
// messages still in the lanes are finished one at a time by the
// single-stream kernel of [Kernel], from where the lanes left them. That
// happens when there are few messages to begin with, and at the end of a
// batch, so that a message much longer than the rest is finished alone at
// the single-stream speed. The threshold is the least number of busy
// lanes at which the multi-lane kernel, its throughput shared among its
// lanes, still hashes a lane's block faster than the single-stream kernel
// (manyMinLive): 4 of 8 with SHA-NI, 3 of 8 with the AVX2 single-stream
// kernel; for the 16-lane kernel, whose throughput is llvm-mca's estimate
// rather than a measurement, 3 of 16 with SHA-NI and 2 with AVX2.
func SumMany(sums [][Size]byte, msgs [][]byte) {
	if len(sums) != len(msgs) {
		panic(fmt.Sprintf("sha1: SumMany: len(sums) = %d but len(msgs) = %d: want one sum per message", len(sums), len(msgs)))
	}
	if len(sums) == 0 {
		return
	}
	lo := uintptr(unsafe.Pointer(&sums[0]))
	hi := lo + uintptr(len(sums))*Size
	for i, m := range msgs {
		if len(m) == 0 {
			continue
		}
		if p := uintptr(unsafe.Pointer(unsafe.SliceData(m))); p < hi && lo < p+uintptr(len(m)) {
			panic(fmt.Sprintf("sha1: SumMany: sums overlaps msgs[%d]: the sums would overwrite messages not yet hashed", i))
		}
	}
	sumMany(sums, msgs, activeMany)
}

// ManyKernel reports the kernel SumMany uses, chosen at init for this CPU
// by a rule from measurements (docs/sha1-many.md): on amd64 "avx512x16"
// (sixteen messages per ZMM register, with AVX-512 F, VL and BW and AVX2),
// "avx2x8" (eight per YMM register, with AVX2) or "shanix3" (three
// messages in three interleaved streams of the SHA-NI instructions, with
// SHA-NI but no AVX2); on arm64 "cex2" (two interleaved streams of the
// SHA1 instructions) or "neonx4" (four messages per NEON register, on
// cores without the SHA1 instructions); or "single" (a loop of Sum, with
// the kernel Kernel reports). GODEBUG selects the others: on amd64
// cpu.avx512=off gives "avx2x8", cpu.avx2=off "shanix3" where there is
// SHA-NI (else "single"), and cpu.avx2=off,cpu.sha=off "single"; on
// arm64 cpu.sha1=off gives "neonx4" and cpu.asimd=off "single".
func ManyKernel() string { return activeMany.name }

// A manyKernel is one implementation of SumMany's block function: with
// lanes > 0, a call runs n blocks, each lane absorbing its count of them
// into its state (manyBlocks); "single" has no lanes and hashes each
// message with Sum.
type manyKernel struct {
	name      string
	id        manyID
	lanes     int
	available bool     // the CPU (and OS) support every extension it uses
	missing   string   // if not available and known: the extensions it lacks, or GODEBUG hides
	features  []string // the names of the extensions its availability tests, set by manyNeeds
	// dispatch says whether the dispatcher may choose it; false for the
	// portable model kernels, which only the tests use.
	dispatch bool
	// cpb is the kernel's throughput in cycles per byte of all lanes
	// together (docs/sha1-many.md; measured, or where said estimated),
	// for manyMinLive.
	cpb float64
	// minLive, when set, replaces the threshold manyMinLive computes.
	minLive int
}

// manyNeeds returns k, available if every one of features is, and
// otherwise naming those that are not; it records their names for
// TestManyRequires.
func manyNeeds(k manyKernel, features ...cpuid.Feature) manyKernel {
	k.available, k.missing = cpuid.Need(features...)
	k.features = cpuid.Names(features)
	return k
}

// manyID names a multi-lane kernel for the switch in manyBlocks.
type manyID uint8

const (
	manySingle    manyID = iota // no lanes: a loop of Sum
	manyPortable                // the scheduler's model kernel in Go, any lane count
	manyAVX2x8                  // manyAVX2, generated by gen/sha1_many_avx2
	manyAVX512x16               // manyAVX512, generated by gen/sha1_many_avx512
	manySHANIx2                 // manySHANI2, generated by gen/sha1_many_shani
	manySHANIx3                 // manySHANI3
	manySHANIx4                 // manySHANI4
	manyCEx2                    // manyCE2, generated by gen/sha1_many_ce
	manyNEONx4                  // manyNEON, generated by gen/sha1_many_neon
)

// A manyClass is a class of CPU that an architecture's dispatch rule
// (manyRule) tells apart.
type manyClass int

// maxLanes is the most lanes a kernel has.
const maxLanes = 16

// manyKernels lists SumMany's implementations, preferred first. The last
// entries are always available: the portable model kernels (for tests of
// the scheduler on every architecture; never dispatched) and "single".
var manyKernels = append(archManyKernels(),
	manyKernel{name: "go8", id: manyPortable, lanes: 8, available: true},
	manyKernel{name: "go16", id: manyPortable, lanes: 16, available: true},
	manyKernel{name: "single", id: manySingle, available: true, dispatch: true},
)

// activeMany is the kernel chosen once at init, by the architecture's
// rule (manyRule).
var activeMany = chooseMany()

// chooseMany returns the registry's entry of the kernel manyRule chooses
// for this CPU; it panics if the rule chooses a kernel the CPU cannot run
// or dispatch may not choose.
func chooseMany() *manyKernel {
	id := manyRule(func(id manyID) bool {
		k := manyByID(id)
		return k != nil && k.available
	})
	k := manyByID(id)
	if k == nil || !k.available || !k.dispatch {
		panic(fmt.Sprintf("sha1: SumMany's rule chose kernel %d, which is not available or not for dispatch", id))
	}
	return k
}

// manyByID returns the registry's entry of kernel id, or nil.
func manyByID(id manyID) *manyKernel {
	for i := range manyKernels {
		if k := &manyKernels[i]; k.id == id && k.id != manyPortable {
			return k
		}
	}
	return nil
}

// manyLanes is the state a multi-lane kernel works on: h[i][l] is word i
// of lane l's intermediate hash; lane l absorbs c[1][l] blocks, c[0][l] of
// them at p[0][l], then those at p[1][l] (c[0][l] <= 0: all at p[0][l]).
// The kernels advance p[0] and c as they go: the scheduler sets them
// before every call. p[2] and p[3] are addresses the kernels prefetch.
type manyLanes struct {
	h [5][maxLanes]uint32
	p [4][maxLanes]*byte
	c [2][maxLanes]int32
}

// A laneJob is the message a lane is hashing: its whole blocks, then its
// tail, padded, in the lane's pad buffer.
type laneJob struct {
	msg   int // its index in msgs
	whole int // the message's whole blocks
	end   int // the pad's length: one or two blocks
	left  int // the blocks, whole or pad, not yet hashed
}

// manyWindow is how many messages SumMany takes at a time and orders by
// length, longest first, so that the messages running side by side in
// the lanes end close together.
const manyWindow = 256

// manyCallBlocks is what one call of a kernel costs beyond its blocks
// (the scheduler's bookkeeping, and the kernel's start and end, when its
// rounds cannot overlap with other work), in blocks of all lanes: the
// scheduler lets lanes whose messages have ended idle in a call for up to
// that many lane-blocks per message that ends in the same call, instead of
// a call per message. Measured on the reference machine
// (docs/sha1-many.md).
const manyCallBlocks = 2

// manyMaxCall is the most blocks a call of a kernel runs, so that the
// kernels' int32 counts hold every count (a lane with more goes on in the
// next call); a variable for the tests.
var manyMaxCall = 1 << 24

// sumMany is SumMany with kernel k.
func sumMany(sums [][Size]byte, msgs [][]byte, k *manyKernel) {
	minLive := manyMinLive(k)
	if k.lanes == 0 || len(msgs) < minLive || minLive > k.lanes {
		for i, m := range msgs {
			sums[i] = Sum(m)
		}
		return
	}
	var (
		s    manyLanes
		pad  [maxLanes][2 * BlockSize]byte // each lane's last blocks, padded
		jobs [maxLanes]laneJob
		live uint32 // bit l: lane l has a message
		busy int    // the number of live lanes
		// The messages not yet started: order[next:have] of this window,
		// then msgs[loaded:].
		order      [manyWindow]int32
		next, have int
		loaded     int
		left       [maxLanes]int // the live lanes' blocks left, ascending
		lanes      = k.lanes
		idleBudget = manyCallBlocks * lanes
	)
	for {
		// Every free lane takes the next message.
		for l := 0; l < lanes; l++ {
			if live&(1<<l) != 0 {
				continue
			}
			if next == have {
				if loaded == len(msgs) {
					break
				}
				have = fillWindow(&order, msgs, loaded)
				loaded += have
				next = 0
			}
			i := int(order[next])
			next++
			startLane(&s, &pad[l], &jobs[l], l, msgs[i], i)
			live |= 1 << l
			busy++
		}
		if busy < minLive {
			// Too few to share a vector (every message has started):
			// finish them one by one where the lanes left them.
			for l := 0; l < lanes; l++ {
				if live&(1<<l) != 0 {
					finishLane(sums, msgs, &s, &pad[l], &jobs[l], l)
				}
			}
			return
		}
		// The call's length: the shortest lane's blocks left, or more,
		// while letting the lanes that end sooner idle costs less than
		// the calls it saves.
		m := 0
		for l := 0; l < lanes; l++ {
			if live&(1<<l) != 0 {
				left[m] = jobs[l].left
				m++
			}
		}
		slices.Sort(left[:m])
		e := 1
		for e < m && e*(left[e]-left[e-1]) <= idleBudget {
			e++
		}
		n := min(left[e-1], manyMaxCall)
		// Lanes in lockstep on one L1 set: hold some back for a few blocks
		// (see stagger); the call is that long.
		hold, shift := stagger(&pad, &jobs, msgs, live, lanes)
		if shift > 0 {
			n = min(shift, manyMaxCall)
			for l := range hold {
				hold[l] = min(hold[l], n)
			}
		}
		// Each live lane's blocks: its message's whole blocks, then its
		// pad. A lane without a message stays on its pad, and its state is
		// left alone.
		for l := 0; l < lanes; l++ {
			j := &jobs[l]
			if live&(1<<l) == 0 {
				s.p[0][l], s.c[0][l], s.c[1][l] = &pad[l][0], 0, 0
				continue
			}
			s.p[0][l] = nextBlock(msgs, &pad[l], j)
			s.p[1][l], s.c[0][l] = &pad[l][0], 0
			if whole := j.left - min(j.left, j.end/BlockSize); whole > 0 {
				// (A count past the call's blocks means no switch in it.)
				s.c[0][l] = int32(min(whole, n))
			}
			s.c[1][l] = int32(min(j.left, n-hold[l])) // a lane held back absorbs fewer

		}
		// The kernel prefetches the first and last bytes of the next
		// messages, whose tails startLane reads first, to pad them.
		for i := 0; i < lanes; i++ {
			s.p[2][i], s.p[3][i] = &pad[0][0], &pad[0][0]
			if next+i < have {
				if m := msgs[order[next+i]]; len(m) > 0 {
					s.p[2][i], s.p[3][i] = &m[0], &m[len(m)-1]
				}
			}
		}
		manyBlocks(k, &s, n)
		for l := 0; l < lanes; l++ {
			if live&(1<<l) == 0 {
				continue
			}
			if jobs[l].left -= min(jobs[l].left, n-hold[l]); jobs[l].left == 0 {
				sums[jobs[l].msg] = digestOf(&s, l)
				live &^= 1 << l
				busy--
			}
		}
		if busy == 0 && next == have && loaded == len(msgs) {
			return
		}
	}
}

// nextBlock is the address of lane job j's next block: in its message's
// whole blocks, or in its pad.
func nextBlock(msgs [][]byte, pad *[2 * BlockSize]byte, j *laneJob) *byte {
	padLeft := min(j.left, j.end/BlockSize)
	if whole := j.left - padLeft; whole > 0 {
		return &msgs[j.msg][(j.whole-whole)*BlockSize]
	}
	return &pad[j.end-padLeft*BlockSize]
}

// manyCrowd is the most lanes whose next blocks may lie in one set of
// the L1 data cache (the same 64-byte line of 4 KiB, modulo 4 KiB) with
// manyStaggerBlocks or more left; stagger spreads more than that onto
// sets of manyLanesPerSet. Messages of a power-of-two size laid end to
// end (a torrent's pieces read into one buffer) put every lane on one set,
// and keep them so block after block. On a Zen 5 (48 KiB, 12-way L1D) the
// kernels alone, 64 blocks of every lane, took with 16, 8, 4 and 1 lanes
// a set: avx512x16 7.69, 6.3, 5.5-5.6 and 5.40 us; avx2x8 (8 lanes) 8.90,
// 8.54-8.57 with 4 and 8.47 with 1, a penalty that staggering, which costs
// about three blocks, did not measurably repay (docs/sha1-many.md,
// "Layout").
const (
	manyCrowd         = 8
	manyLanesPerSet   = 4
	manyStaggerBlocks = 64
)

// stagger returns, for a call in which more than manyCrowd live lanes
// with manyStaggerBlocks or more to go would read one L1 set, how
// many blocks to hold each lane back (hold) and the call's length
// (shift): the crowd's lanes in turn absorb shift, shift-1, ..., 0 of its
// blocks, so that they come apart onto up to shift+1 neighbouring sets,
// at most manyLanesPerSet on each, and stay apart as they go. With no
// crowded set, shift is 0 and hold all zeros.
func stagger(pad *[maxLanes][2 * BlockSize]byte, jobs *[maxLanes]laneJob, msgs [][]byte, live uint32, lanes int) (hold [maxLanes]int, shift int) {
	if lanes <= manyCrowd {
		return hold, 0
	}
	var sets [maxLanes]int
	crowd := 0 // lanes of a full crowd (bit l)
	for l := 0; l < lanes; l++ {
		sets[l] = -1
		if live&(1<<l) != 0 && jobs[l].left >= manyStaggerBlocks {
			sets[l] = int(uintptr(unsafe.Pointer(nextBlock(msgs, &pad[l], &jobs[l]))) >> 6 & 63)
		}
	}
	for l := 0; l < lanes; l++ {
		if sets[l] < 0 || crowd&(1<<l) != 0 {
			continue
		}
		var members [maxLanes]int
		k := 0
		for m := l; m < lanes; m++ {
			if sets[m] == sets[l] {
				members[k] = m
				k++
			}
		}
		if k <= manyCrowd {
			continue
		}
		groups := (k + manyLanesPerSet - 1) / manyLanesPerSet
		for r, m := range members[:k] {
			hold[m] = r % groups
			crowd |= 1 << m
		}
		shift = max(shift, groups-1)
	}
	return hold, shift
}

// fillWindow sets order to the indexes of the next messages, from first
// on (up to manyWindow of them), longest first, and returns how many.
func fillWindow(order *[manyWindow]int32, msgs [][]byte, first int) int {
	n := min(manyWindow, len(msgs)-first)
	for i := range n {
		order[i] = int32(first + i)
	}
	slices.SortFunc(order[:n], func(a, b int32) int { return len(msgs[b]) - len(msgs[a]) })
	return n
}

// startLane sets lane l to hash message m (number i) from the start: h
// from H(0), its whole blocks, then its tail, padded as FIPS 180-4 5.1.1
// says, in pad.
func startLane(s *manyLanes, pad *[2 * BlockSize]byte, j *laneJob, l int, m []byte, i int) {
	whole := len(m) &^ (BlockSize - 1)
	r := copy(pad[:], m[whole:])
	pad[r] = 0x80
	end := BlockSize
	if r >= BlockSize-8 {
		end = 2 * BlockSize
	}
	clear(pad[r+1 : end-8])
	binary.BigEndian.PutUint64(pad[end-8:end], uint64(len(m))<<3)
	*j = laneJob{msg: i, whole: whole / BlockSize, end: end, left: (whole + end) / BlockSize}
	for w, v := range [5]uint32{init0, init1, init2, init3, init4} {
		s.h[w][l] = v
	}
}

// finishLane hashes the rest of lane l's message with the single-stream
// kernel and stores its sum.
func finishLane(sums [][Size]byte, msgs [][]byte, s *manyLanes, pad *[2 * BlockSize]byte, j *laneJob, l int) {
	h := [5]uint32{s.h[0][l], s.h[1][l], s.h[2][l], s.h[3][l], s.h[4][l]}
	padLeft := min(j.left, j.end/BlockSize)
	if whole := j.left - padLeft; whole > 0 {
		off := (j.whole - whole) * BlockSize
		block(&h, msgs[j.msg][off:off+whole*BlockSize])
	}
	block(&h, pad[j.end-padLeft*BlockSize:j.end])
	for w, v := range h {
		s.h[w][l] = v
	}
	sums[j.msg] = digestOf(s, l)
}

// digestOf returns lane l's state as a checksum.
func digestOf(s *manyLanes, l int) [Size]byte {
	var d [Size]byte
	for w := range s.h {
		binary.BigEndian.PutUint32(d[4*w:], s.h[w][l])
	}
	return d
}

// manyPortableBlocks is the portable model of a multi-lane kernel: the
// single-stream kernel on each lane in turn, for its count of blocks. The
// tests run the scheduler with it at 8 and 16 lanes on every
// architecture.
func manyPortableBlocks(s *manyLanes, lanes, n int) {
	for l := 0; l < lanes; l++ {
		h := [5]uint32{s.h[0][l], s.h[1][l], s.h[2][l], s.h[3][l], s.h[4][l]}
		cnt, first := int(s.c[1][l]), int(s.c[1][l])
		if r := int(s.c[0][l]); r > 0 && r < cnt {
			first = r
		}
		block(&h, unsafe.Slice(s.p[0][l], first*BlockSize))
		if first < cnt {
			block(&h, unsafe.Slice(s.p[1][l], (cnt-first)*BlockSize))
		}
		for w, v := range h {
			s.h[w][l] = v
		}
	}
}

// manyPortableOr is the part of every build's manyBlocks after its
// assembly kernels: the portable model kernel, and a panic naming any
// other kernel, which this build has no case for.
func manyPortableOr(k *manyKernel, s *manyLanes, n int) {
	switch k.id {
	case manyPortable:
		manyPortableBlocks(s, k.lanes, n)
	case manySingle:
		panic("sha1: the single kernel has no lanes")
	default:
		panic("sha1: no multi-lane kernel " + k.name + " in this build")
	}
}

// manyMinLive returns the fewest busy lanes at which kernel k still hashes
// a lane's block faster than the single-stream kernel does a block alone:
// with m of its L lanes busy, k delivers m/L of its throughput, so it wins
// while m/(L*cpb(k)) > 1/cpb(single), that is for m > L*cpb(k)/cpb(single).
// With SHA-NI (1.95 cycles/byte) and avx2x8 (cpb 0.82) that is 4 lanes;
// with avx512x16 (cpb 0.32, llvm-mca's estimate, not a measurement) 3.
// docs/sha1-many.md has the measurements behind the figures and checks
// the threshold against SumMany on a few equal messages.
func manyMinLive(k *manyKernel) int {
	switch {
	case k.lanes == 0:
		return 0
	case k.minLive > 0:
		return k.minLive
	case k.cpb == 0: // the portable model: keep the lanes to the end
		return 1
	}
	return min(k.lanes, int(float64(k.lanes)*k.cpb/singleCPB())+1)
}
