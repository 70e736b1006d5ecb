package sha1dc

import (
	"os"
	"strings"
	"testing"
)

// TestSumManyRandom hashes random batches that mix plain messages of
// random lengths with the collision files, their prefixes and their
// prefixes with data appended, and compares with Sum.
func TestSumManyRandom(t *testing.T) {
	rng := newRand(t)
	files := [][]byte{collisionFile(t, "sha-mbles-1.bin"), collisionFile(t, "sha-mbles-2.bin"), collisionFile(t, "shattered-1.pdf")[:8192]}
	rounds := 40
	if testing.Short() {
		rounds = 8
	}
	forEachKernel(t, func(t *testing.T) {
		for range rounds {
			msgs := make([][]byte, rng.IntN(40))
			for i := range msgs {
				switch rng.IntN(4) {
				case 0:
					f := files[rng.IntN(len(files))]
					msgs[i] = append(f[:rng.IntN(len(f)+1):len(f)], randomBytes(rng, rng.IntN(100))...)
				case 1:
					msgs[i] = files[rng.IntN(len(files))]
				default:
					msgs[i] = randomBytes(rng, rng.IntN(3000))
				}
			}
			sums := make([][Size]byte, len(msgs))
			detected := make([]bool, len(msgs))
			SumMany(sums, detected, msgs)
			for i, m := range msgs {
				if s, c := Sum(m); sums[i] != s || detected[i] != c {
					t.Fatalf("message %d of %d (%d bytes): SumMany %x %v, Sum %x %v", i, len(msgs), len(m), sums[i], detected[i], s, c)
				}
			}
		}
	})
}

// TestSumManyAPI checks the panics of misuse, each naming the mistake, and
// that messages may share memory.
func TestSumManyAPI(t *testing.T) {
	buf := make([]byte, 200)
	mustPanic := func(what, want string, f func()) {
		t.Helper()
		defer func() {
			r := recover()
			if s, ok := r.(string); !ok || !strings.HasPrefix(s, "sha1dc: SumMany: ") || !strings.Contains(s, want) {
				t.Errorf("%s: recovered %v, want a panic about %q", what, r, want)
			}
		}()
		f()
	}
	mustPanic("fewer sums", "len(sums) = 1", func() { SumMany(make([][Size]byte, 1), make([]bool, 2), make([][]byte, 2)) })
	mustPanic("fewer flags", "len(detected) = 1", func() { SumMany(make([][Size]byte, 2), make([]bool, 1), make([][]byte, 2)) })
	mustPanic("nil flags", "len(detected) = 0", func() { SumMany(make([][Size]byte, 2), nil, make([][]byte, 2)) })
	sums := make([][Size]byte, 2)
	mustPanic("sums in a message", "sums overlaps msgs[1]", func() {
		SumMany(sums, make([]bool, 2), [][]byte{nil, unsafeBytes(sums)})
	})
	flags := make([]bool, 3)
	mustPanic("flags in a message", "detected overlaps msgs[2]", func() {
		SumMany(make([][Size]byte, 3), flags, [][]byte{buf, buf[10:20], boolBytes(flags)[1:]})
	})
	SumMany(nil, nil, nil)
	// Shared and overlapping messages are fine.
	msgs := [][]byte{buf, buf[5:], buf[5:], buf[:0]}
	s := make([][Size]byte, len(msgs))
	d := make([]bool, len(msgs))
	SumMany(s, d, msgs)
	for i, m := range msgs {
		if want, _ := Sum(m); s[i] != want || d[i] {
			t.Errorf("message %d: %x %v, want %x false", i, s[i], d[i], want)
		}
	}
}

// TestSumManyLengths hashes one batch of every length from 0 to 300.
func TestSumManyLengths(t *testing.T) {
	rng := newRand(t)
	var msgs [][]byte
	for n := 0; n <= 300; n++ {
		msgs = append(msgs, randomBytes(rng, n))
	}
	sums := make([][Size]byte, len(msgs))
	detected := make([]bool, len(msgs))
	SumMany(sums, detected, msgs)
	for i, m := range msgs {
		if s, c := Sum(m); sums[i] != s || detected[i] != c {
			t.Fatalf("len %d: SumMany %x %v, Sum %x %v", len(m), sums[i], detected[i], s, c)
		}
	}
}

// Every multi-lane kernel, and single, against Sum on batches that mix
// random messages, messages made of blocks reaching each DV (so that
// most calls record flagged blocks, whose recompression finds no
// collision), and the collision files, whole, as prefixes and with data
// appended (whose lanes collide and are hashed again on their own); with
// every lane count the scheduler gives a call, from batches of 1 to 60;
// and on pieces of 8 KiB end to end, which the scheduler staggers.
func TestSumManyKernels(t *testing.T) {
	rng := newRand(t)
	files := [][]byte{collisionFile(t, "sha-mbles-1.bin"), collisionFile(t, "shattered-2.pdf")[:4096]}
	for i := range manyKernels {
		k := &manyKernels[i]
		t.Run(k.name, func(t *testing.T) {
			if !k.available {
				t.Skipf("kernel %q not available on this CPU", k.name)
			}
			for trial := range 30 {
				msgs := make([][]byte, 1+rng.IntN(60))
				for i := range msgs {
					switch rng.IntN(5) {
					case 0:
						f := files[rng.IntN(len(files))]
						msgs[i] = append(f[:rng.IntN(len(f)+1):len(f)], randomBytes(rng, rng.IntN(100))...)
					case 1, 2:
						var m []byte
						for range rng.IntN(12) {
							m = append(m, reachBlock(t, rng.IntN(len(ubcReachBlocks)), rng.IntN(len(ubcReachBlocks[0])))...)
							m = append(m, randomBytes(rng, BlockSize*rng.IntN(3))...)
						}
						msgs[i] = append(m, randomBytes(rng, rng.IntN(BlockSize))...)
					default:
						msgs[i] = randomBytes(rng, rng.IntN(5000))
					}
				}
				if trial%5 == 4 {
					// Pieces of 8 KiB end to end, whose lanes the scheduler
					// staggers (internal/lanes' TestStagger), with blocks
					// that reach a DV, so that held lanes record blocks.
					buf := randomBytes(rng, 20*8192)
					for b := 0; b < len(buf); b += BlockSize * (1 + rng.IntN(8)) {
						copy(buf[b:], reachBlock(t, rng.IntN(len(ubcReachBlocks)), rng.IntN(len(ubcReachBlocks[0]))))
					}
					msgs = msgs[:0]
					for off := 0; off < len(buf); off += 8192 {
						msgs = append(msgs, buf[off:off+8192])
					}
				}
				sums := make([][Size]byte, len(msgs))
				detected := make([]bool, len(msgs))
				for i := range detected {
					detected[i] = trial%2 == 0 // SumMany sets every flag
				}
				sumMany(sums, detected, msgs, k)
				for i, m := range msgs {
					if s, c := Sum(m); sums[i] != s || detected[i] != c {
						t.Fatalf("trial %d, message %d of %d (%d bytes): %x %v, Sum %x %v", trial, i, len(msgs), len(m), sums[i], detected[i], s, c)
					}
				}
			}
		})
	}
}

// TestManyDispatch checks SumMany's kernel chosen at init: with
// SIMDHASH_SHA1DC_MANY_KERNEL set (as the emulated and native runs of make
// test do), ManyKernel must report exactly that; otherwise the first
// available kernel of the registry.
func TestManyDispatch(t *testing.T) {
	got := ManyKernel()
	if want, ok := os.LookupEnv("SIMDHASH_SHA1DC_MANY_KERNEL"); ok {
		if got != want {
			t.Fatalf("ManyKernel() = %q, but SIMDHASH_SHA1DC_MANY_KERNEL = %q (GODEBUG=%q)", got, want, os.Getenv("GODEBUG"))
		}
		return
	}
	for _, k := range manyKernels {
		if k.available {
			if got != k.name {
				t.Fatalf("ManyKernel() = %q, want the first available kernel %q", got, k.name)
			}
			return
		}
	}
	t.Fatal("no available SumMany kernel")
}
