package sha1

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/simdhash/simdhash/internal/ref"
)

// forEachManyKernel runs f as one subtest per entry of manyKernels, named
// after the kernel, whether or not dispatch may choose it. A kernel this
// CPU cannot run is skipped with the reason.
func forEachManyKernel(t *testing.T, f func(t *testing.T, k *manyKernel)) {
	t.Helper()
	for i := range manyKernels {
		k := &manyKernels[i]
		t.Run(k.name, func(t *testing.T) {
			if !k.available {
				t.Skip(manyUnavailable(k))
			}
			f(t, k)
		})
	}
}

// manyUnavailable says why kernel k cannot run here, and where it can.
func manyUnavailable(k *manyKernel) string {
	lacks := "an extension it needs"
	if k.missing != "" {
		lacks = k.missing
	}
	msg := fmt.Sprintf("kernel %q is not available: the CPU lacks %s (or the OS its register state), or GODEBUG turns it off", k.name, lacks)
	if k.id == manyAVX512x16 {
		msg += " (no qemu model has AVX-512: make test-bochs runs it on an emulated Tiger Lake, docs/verification.md)"
	}
	return msg
}

func manyKernelNames() []string {
	var names []string
	for _, k := range manyKernels {
		names = append(names, k.name)
	}
	return names
}

// checkSums compares SumMany's output with the reference SHA-1 for each
// message. (Not crypto/sha1: on 386, loong64 and s390x the stdlib kernel is
// crypto/sha1, and a comparison with it could not fail there.)
func checkSums(t *testing.T, what string, sums [][Size]byte, msgs [][]byte) {
	t.Helper()
	for i, m := range msgs {
		if want := ref.SHA1(m); sums[i] != want {
			t.Fatalf("%s: message %d of %d (%d bytes): %x, ref.SHA1 %x", what, i, len(msgs), len(m), sums[i], want)
		}
	}
}

// randomBatch returns n messages of random lengths up to maxLen, each in
// an array of its own.
func randomBatch(rng *rand.Rand, n, maxLen int) [][]byte {
	msgs := make([][]byte, n)
	for i := range msgs {
		msgs[i] = randomBytes(rng, rng.IntN(maxLen+1))
	}
	return msgs
}

// laneBlocks points lane l of s at its cnt blocks: rem of them at seg0,
// then those at seg1 (rem <= 0: all at seg0), as the kernels take them.
func laneBlocks(s *manyLanes, l int, seg0, seg1 []byte, rem, cnt int) {
	s.P[0][l], s.P[1][l] = unsafe.SliceData(seg0), unsafe.SliceData(seg1)
	s.C[0][l], s.C[1][l] = int32(rem), int32(cnt)
}

// TestManyBlocks calls each multi-lane kernel directly: random states, 1..5
// blocks in the call, every lane absorbing all of them or some (retiring
// early, or with count 0 not at all), in one segment or two (the switch
// anywhere), lanes sharing their blocks, and checks every lane against
// the FIPS 180-4 reference, including columns past the kernel's lanes,
// which must be left alone.
func TestManyBlocks(t *testing.T) {
	forEachManyKernel(t, func(t *testing.T, k *manyKernel) {
		if k.lanes == 0 {
			t.Skip("single has no block function")
		}
		rng := newRand(t)
		for iter := 0; iter < 300; iter++ {
			n := 1 + rng.IntN(5)
			var s manyLanes
			var data [maxLanes][]byte // each lane's blocks to absorb, in order
			for l := range data {
				if l > 0 && rng.IntN(4) == 0 {
					o := rng.IntN(l) // the same blocks as another lane
					data[l] = data[o]
					s.P[0][l], s.P[1][l], s.C[0][l], s.C[1][l] = s.P[0][o], s.P[1][o], s.C[0][o], s.C[1][o]
				} else {
					cnt := n // lane 0 sets the call's blocks: the largest count
					if l > 0 && iter%3 != 0 {
						cnt = rng.IntN(n + 1)
					}
					rem := rng.IntN(n+2) - 1
					r := n
					if rem > 0 && rem < n {
						r = rem
					}
					seg0, seg1 := randomBytes(rng, r*BlockSize), randomBytes(rng, (n-r)*BlockSize)
					laneBlocks(&s, l, seg0, seg1, rem, cnt)
					data[l] = append(seg0[:len(seg0):len(seg0)], seg1...)[:cnt*BlockSize]
				}
				for w := range s.H {
					s.H[w][l] = rng.Uint32()
				}
			}
			counts, rems := s.C[1], s.C[0]
			want := s.H
			for l := 0; l < k.lanes; l++ {
				h := s.Lane(l)
				ref.SHA1Blocks(&h, data[l])
				for w := range h {
					want[w][l] = h[w]
				}
			}
			manyBlocks(k, &s, n)
			if s.H != want {
				t.Fatalf("%d blocks, counts %v, rem %v:\n got %08x\nwant %08x", n, counts, rems, s.H, want)
			}
		}
	})
}

// TestSumManyRandom hashes random batches of 0..200 messages of 0..5000
// bytes, and a few batches with 1 MiB messages among them.
func TestSumManyRandom(t *testing.T) {
	batches, big := 60, 3
	if testing.Short() {
		batches, big = 12, 1
	}
	forEachManyKernel(t, func(t *testing.T, k *manyKernel) {
		rng := newRand(t)
		for b := 0; b < batches; b++ {
			msgs := randomBatch(rng, rng.IntN(201), 5000)
			if b < big && len(msgs) > 0 {
				for i := 0; i < 1+b; i++ {
					msgs[rng.IntN(len(msgs))] = randomBytes(rng, 1<<20)
				}
			}
			sums := make([][Size]byte, len(msgs))
			sumMany(sums, msgs, k)
			checkSums(t, fmt.Sprintf("batch %d", b), sums, msgs)
		}
	})
}

// TestSumManyLengths hashes every length 0..300 in one batch, in order and
// shuffled, so that every tail length meets every lane and block count.
func TestSumManyLengths(t *testing.T) {
	forEachManyKernel(t, func(t *testing.T, k *manyKernel) {
		rng := newRand(t)
		data := randomBytes(rng, 300)
		msgs := make([][]byte, 301)
		for n := range msgs {
			msgs[n] = bytes.Clone(data[:n])
		}
		sums := make([][Size]byte, len(msgs))
		sumMany(sums, msgs, k)
		checkSums(t, "lengths 0..300", sums, msgs)
		rng.Shuffle(len(msgs), func(i, j int) { msgs[i], msgs[j] = msgs[j], msgs[i] })
		sumMany(sums, msgs, k)
		checkSums(t, "lengths 0..300 shuffled", sums, msgs)
	})
}

// TestSumManyAliasing hashes messages that share one backing array:
// overlapping windows, the same slice many times, nil and empty slices.
func TestSumManyAliasing(t *testing.T) {
	forEachManyKernel(t, func(t *testing.T, k *manyKernel) {
		rng := newRand(t)
		buf := randomBytes(rng, 4096)
		var msgs [][]byte
		for i := 0; i < 60; i++ {
			a := rng.IntN(len(buf))
			msgs = append(msgs, buf[a:a+rng.IntN(len(buf)-a+1)])
		}
		for i := 0; i < 20; i++ {
			msgs = append(msgs, buf, buf[:200], nil, buf[7:7])
		}
		rng.Shuffle(len(msgs), func(i, j int) { msgs[i], msgs[j] = msgs[j], msgs[i] })
		sums := make([][Size]byte, len(msgs))
		saved := bytes.Clone(buf)
		sumMany(sums, msgs, k)
		checkSums(t, "aliasing messages", sums, msgs)
		if !bytes.Equal(buf, saved) {
			t.Fatal("SumMany changed its messages")
		}
	})
}

// TestSumManyHandoff runs each kernel with every threshold from 1 (never
// hand the lanes over) to one past its lanes (at once), on batches shaped
// for it: fewer messages than lanes, one long message among short ones,
// equal messages, and a message that ends in its pad when handed over.
func TestSumManyHandoff(t *testing.T) {
	forEachManyKernel(t, func(t *testing.T, k *manyKernel) {
		if k.lanes == 0 {
			t.Skip("single has no lanes to hand over")
		}
		rng := newRand(t)
		shapes := map[string][][]byte{
			"few":      randomBatch(rng, k.lanes/2, 3000),
			"one long": append(randomBatch(rng, 3*k.lanes, 200), randomBytes(rng, 40000)),
			"equal":    {},
			"pads":     {},
		}
		for i := 0; i < 2*k.lanes+3; i++ {
			shapes["equal"] = append(shapes["equal"], randomBytes(rng, 1000))
			shapes["pads"] = append(shapes["pads"], randomBytes(rng, 56+64*(i%3)))
		}
		for name, msgs := range shapes {
			for th := 1; th <= k.lanes+1; th++ {
				kk := *k
				kk.minLive = th
				sums := make([][Size]byte, len(msgs))
				sumMany(sums, msgs, &kk)
				checkSums(t, fmt.Sprintf("%s, threshold %d", name, th), sums, msgs)
			}
		}
	})
}

// TestSumManyShortCalls runs the scheduler with calls of at most 1, 2 and
// 3 blocks, so that lanes stop in their messages' whole blocks and in
// their pads between calls, and carry on in the next.
func TestSumManyShortCalls(t *testing.T) {
	saved := manyMaxCall
	t.Cleanup(func() { manyMaxCall = saved })
	rng := newRand(t)
	msgs := randomBatch(rng, 70, 700)
	forEachManyKernel(t, func(t *testing.T, k *manyKernel) {
		for _, max := range []int{1, 2, 3} {
			manyMaxCall = max
			sums := make([][Size]byte, len(msgs))
			sumMany(sums, msgs, k)
			checkSums(t, fmt.Sprintf("calls of at most %d blocks", max), sums, msgs)
		}
	})
}

// TestSumManySingleKernels runs the multi-lane kernels with each
// single-stream kernel finishing the handed-over lanes.
func TestSumManySingleKernels(t *testing.T) {
	rng := newRand(t)
	msgs := append(randomBatch(rng, 40, 3000), randomBytes(rng, 20000))
	forEachManyKernel(t, func(t *testing.T, k *manyKernel) {
		forEachKernel(t, func(t *testing.T) {
			kk := *k
			kk.minLive = max(1, k.lanes/2)
			sums := make([][Size]byte, len(msgs))
			sumMany(sums, msgs, &kk)
			checkSums(t, "single kernel "+active.name, sums, msgs)
		})
	})
}

// TestSumManyAPI checks SumMany itself: the dispatched kernel, no batch,
// and the panics for a length mismatch and for sums overlapping a message.
func TestSumManyAPI(t *testing.T) {
	rng := newRand(t)
	msgs := randomBatch(rng, 50, 2000)
	sums := make([][Size]byte, len(msgs))
	SumMany(sums, msgs)
	checkSums(t, "SumMany with "+ManyKernel(), sums, msgs)
	SumMany(nil, nil)
	SumMany([][Size]byte{}, [][]byte{})

	mustPanic := func(what, want string, f func()) {
		t.Helper()
		defer func() {
			t.Helper()
			r := recover()
			if r == nil || !strings.Contains(fmt.Sprint(r), want) {
				t.Fatalf("%s: panic %v, want one saying %q", what, r, want)
			}
		}()
		f()
	}
	mustPanic("one sum short", "len(sums) = 49 but len(msgs) = 50", func() { SumMany(sums[:49], msgs) })
	mustPanic("no sums", "len(sums) = 0 but len(msgs) = 50", func() { SumMany(nil, msgs) })
	backing := make([][Size]byte, 4)
	inside := unsafeBytes(backing)
	mustPanic("sums overlapping a message", "sums overlaps msgs[1]", func() {
		SumMany(backing[:2], [][]byte{nil, inside[30:50]})
	})
	// Adjacent but not overlapping is fine.
	SumMany(backing[:2], [][]byte{inside[2*Size:], inside[:0]})
	checkSums(t, "a message right after sums", backing[:2], [][]byte{inside[2*Size:], nil})
}

// TestSumManyAllocs checks that SumMany does not allocate: its lanes,
// buffers and the sums it hands back stay on the stack.
func TestSumManyAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation changes allocation counts")
	}
	rng := newRand(t)
	msgs := randomBatch(rng, 100, 3000)
	sums := make([][Size]byte, len(msgs))
	forEachManyKernel(t, func(t *testing.T, k *manyKernel) {
		if n := testing.AllocsPerRun(5, func() { sumMany(sums, msgs, k) }); n != 0 {
			t.Fatalf("%v allocations per call", n)
		}
	})
	if n := testing.AllocsPerRun(5, func() { SumMany(sums, msgs) }); n != 0 {
		t.Fatalf("SumMany: %v allocations per call", n)
	}
}

// TestManyDispatch checks the kernel SumMany chose at init: a registered
// one, which dispatch may choose, and with SIMDHASH_SHA1_MANY_KERNEL set
// (as the emulated runs do) exactly that one. Natively,
// TestManyDispatchMatchesCPUInfo checks the choice against /proc/cpuinfo.
func TestManyDispatch(t *testing.T) {
	got := ManyKernel()
	if !slices.Contains(manyKernelNames(), got) {
		t.Fatalf("ManyKernel() = %q is not a registered kernel %v", got, manyKernelNames())
	}
	if want, ok := os.LookupEnv("SIMDHASH_SHA1_MANY_KERNEL"); ok && got != want {
		t.Fatalf("ManyKernel() = %q, but SIMDHASH_SHA1_MANY_KERNEL = %q (GODEBUG=%q)", got, want, os.Getenv("GODEBUG"))
	}
	for _, k := range manyKernels {
		if !k.dispatch && k.name == got {
			t.Fatalf("ManyKernel() = %q, which dispatch may not choose", got)
		}
	}
	if got == "single" && manyMinLive(activeMany) != 0 {
		t.Fatalf("single has a handoff threshold %d", manyMinLive(activeMany))
	}
	t.Logf("ManyKernel() = %q (threshold %d busy lanes with %s); registry %v", got, manyMinLive(activeMany), Kernel(), manyKernelNames())
}

// FuzzSumMany cuts the fuzzer's data into messages (lengths from cuts,
// each message starting where the last one started plus a step, so that
// they overlap) and compares SumMany with the reference SHA-1 on every available
// kernel.
func FuzzSumMany(f *testing.F) {
	f.Add([]byte("abc"), []byte{1, 2, 3})
	f.Add(bytes.Repeat([]byte{0x5a}, 700), []byte{55, 56, 64, 119, 120, 0, 200, 9, 9})
	f.Add(bytes.Repeat([]byte("0123456789abcdef"), 100), bytes.Repeat([]byte{255, 128, 63}, 12))
	f.Add([]byte{}, []byte{0, 0, 0})
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		var msgs [][]byte
		start := 0
		for i := 0; i+1 < len(cuts); i += 2 {
			n := int(cuts[i]) * (1 + int(cuts[i+1]%8))
			s := min(start, len(data))
			msgs = append(msgs, data[s:min(s+n, len(data))])
			start += int(cuts[i+1])
		}
		sums := make([][Size]byte, len(msgs))
		for i := range manyKernels {
			if k := &manyKernels[i]; k.available {
				clear(sums)
				sumMany(sums, msgs, k)
				checkSums(t, k.name, sums, msgs)
			}
		}
	})
}

// unsafeBytes is the memory of sums as bytes.
func unsafeBytes(sums [][Size]byte) []byte {
	return unsafe.Slice(&sums[0][0], len(sums)*Size)
}
