package sha1

import (
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/simdhash/simdhash/internal/cpuid"
	"github.com/simdhash/simdhash/internal/lanes"
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
// SumMany (the scheduler of internal/lanes, which package sha1dc shares)
// works like the job manager of Intel's multi-buffer libraries
// (isa-l_crypto's sha1_mb): each free lane takes the next message, and a
// call of the kernel runs until a lane's message is done. Within a call a
// lane moves from its message's whole blocks on to its last one or two,
// padded in a buffer of the lane's own. Two things keep the calls few,
// since each costs about two blocks' time beyond its blocks (measured:
// manyCallBlocks): the messages are taken 256 at a time (lanes.Window) and
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
//
// Messages of a power-of-two size laid end to end would put more than
// eight of the sixteen lanes on one set of the L1 data cache, block
// after block; a call of a few blocks then holds some lanes back, so that
// at most four share a set.
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
const maxLanes = lanes.MaxLanes

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

// manyLanes is the state a multi-lane kernel works on (lanes.State):
// h[i][l] is word i of lane l's intermediate hash; lane l absorbs
// c[1][l] blocks, c[0][l] of them at p[0][l], then those at p[1][l]. The
// scheduler of internal/lanes, which package sha1dc shares, sets it
// before every call.
type manyLanes = lanes.State

// manyCallBlocks is what one call of a kernel costs beyond its blocks, in
// blocks of all lanes (lanes.CallBlocks, measured: docs/sha1-many.md).
const manyCallBlocks = lanes.CallBlocks

// manyMaxCall is the most blocks a call of a kernel runs, so that the
// kernels' int32 counts hold every count (a lane with more goes on in the
// next call); a variable for the tests.
var manyMaxCall = 1 << 24

// sumMany is SumMany with kernel k, driving internal/lanes' scheduler:
// each call of the kernel runs the blocks it sets up, and when too few
// lanes are busy the rest is finished one message at a time.
func sumMany(sums [][Size]byte, msgs [][]byte, k *manyKernel) {
	minLive := manyMinLive(k)
	if k.lanes == 0 || len(msgs) < minLive || minLive > k.lanes {
		for i, m := range msgs {
			sums[i] = Sum(m)
		}
		return
	}
	var (
		s   lanes.Scheduler
		st  manyLanes
		pad lanes.Pads
	)
	s.Start(len(msgs), k.lanes, minLive, manyMaxCall)
	for {
		n := s.Next(msgs, &pad, &st)
		if n == 0 {
			// Too few to share a vector (every message has started):
			// finish them one by one where the lanes left them.
			for live := s.Live(); live != 0; live &= live - 1 {
				l := bits.TrailingZeros32(live)
				whole, last := s.Rest(l, msgs, &pad)
				h := st.Lane(l)
				if len(whole) > 0 {
					block(&h, whole)
				}
				block(&h, last)
				st.SetLane(l, h)
				sums[s.Msg(l)] = st.Digest(l)
			}
			return
		}
		for l := 0; l < k.lanes; l++ {
			st.P[0][l], st.P[1][l], st.C[0][l], st.C[1][l] = s.Lane(l, msgs, &pad)
			st.P[2][l], st.P[3][l] = s.Hint(l, msgs, &pad)
		}
		manyBlocks(k, &st, n)
		ended, all := s.Done()
		for ; ended != 0; ended &= ended - 1 {
			l := bits.TrailingZeros32(ended)
			sums[s.Msg(l)] = st.Digest(l)
		}
		if all {
			return
		}
	}
}

// manyPortableBlocks is the portable model of a multi-lane kernel: the
// single-stream kernel on each lane in turn, for its count of blocks. The
// tests run the scheduler with it at 8 and 16 lanes on every
// architecture.
func manyPortableBlocks(s *manyLanes, lanes, n int) {
	for l := 0; l < lanes; l++ {
		h := s.Lane(l)
		cnt, first := int(s.C[1][l]), int(s.C[1][l])
		if r := int(s.C[0][l]); r > 0 && r < cnt {
			first = r
		}
		block(&h, unsafe.Slice(s.P[0][l], first*BlockSize))
		if first < cnt {
			block(&h, unsafe.Slice(s.P[1][l], (cnt-first)*BlockSize))
		}
		s.SetLane(l, h)
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
