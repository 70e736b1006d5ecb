package sha1dc

import (
	"math/bits"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/simdhash/simdhash/internal/testvectors"
)

// forEachKernel runs f once per kernel of the registry, with that kernel
// active, skipping those the CPU cannot run.
func forEachKernel(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	if len(kernels) == 0 || kernels[len(kernels)-1].name != "generic" {
		t.Fatalf("kernel registry must end with generic, got %v", kernelNames())
	}
	for i := range kernels {
		k := &kernels[i]
		t.Run(k.name, func(t *testing.T) {
			if !k.available {
				t.Skipf("kernel %q not available: the CPU lacks an extension it needs, or GODEBUG disabled one", k.name)
			}
			saved := active
			active = k
			t.Cleanup(func() { active = saved })
			f(t)
		})
	}
}

func kernelNames() []string {
	var names []string
	for _, k := range kernels {
		names = append(names, k.name)
	}
	return names
}

func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// newRand returns a generator seeded from the test name, so every run of a
// test sees the same data and a failure can be reproduced.
func newRand(t testing.TB) *rand.Rand {
	var seed uint64
	for _, c := range t.Name() {
		seed = seed*1099511628211 + uint64(c)
	}
	return rand.New(rand.NewPCG(seed, 0xdc))
}

// collisionFile returns testdata/sha1dc/name.
func collisionFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(testvectors.Path("sha1dc", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// recorded returns the records of testdata/sha1dc/sha1cd-digests.txt with
// their messages; with -short, only those of at most 64 KiB.
func recorded(t testing.TB) ([]testvectors.SHA1DCRecord, [][]byte) {
	t.Helper()
	recs, err := testvectors.SHA1DCDigests()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 100 {
		t.Fatalf("sha1cd-digests.txt: %d records, want at least 100", len(recs))
	}
	var keep []testvectors.SHA1DCRecord
	var msgs [][]byte
	for _, r := range recs {
		if testing.Short() && r.Prefix+r.Append > 64<<10 {
			continue
		}
		m, err := testvectors.SHA1DCMessage(r)
		if err != nil {
			t.Fatal(err)
		}
		keep = append(keep, r)
		msgs = append(msgs, m)
	}
	return keep, msgs
}

// recompressSlow is recompress written as loops over the steps, with f and
// k of FIPS 180-4: the reference for the generated, unrolled one.
func recompressSlow(testT int, dm, w *[80]uint32, st *[5]uint32) [5]uint32 {
	a, b, c, d, e := st[0], st[1], st[2], st[3], st[4]
	for t := testT - 1; t >= 0; t-- {
		// Step t made (a, b, c, d, e) from (a', b', c', d', e'):
		// a = ROTL5(a') + f(b', c', d') + e' + K + W, b = a',
		// c = ROTL30(b'), d = c', e = d'.
		pa, pb, pc, pd := b, bits.RotateLeft32(c, -30), d, e
		pe := a - (bits.RotateLeft32(pa, 5) + f(t, pb, pc, pd) + k(t) + (w[t] ^ dm[t]))
		a, b, c, d, e = pa, pb, pc, pd, pe
	}
	in := [5]uint32{a, b, c, d, e}
	a, b, c, d, e = st[0], st[1], st[2], st[3], st[4]
	for t := testT; t < 80; t++ {
		n := bits.RotateLeft32(a, 5) + f(t, b, c, d) + e + k(t) + (w[t] ^ dm[t])
		a, b, c, d, e = n, a, bits.RotateLeft32(b, 30), c, d
	}
	return [5]uint32{in[0] + a, in[1] + b, in[2] + c, in[3] + d, in[4] + e}
}

// f is SHA-1's function of step t (FIPS 180-4 section 4.1.1).
func f(t int, b, c, d uint32) uint32 {
	switch {
	case t < 20:
		return b&c | ^b&d
	case t < 40, t >= 60:
		return b ^ c ^ d
	default:
		return b&c | b&d | c&d
	}
}

// k is SHA-1's constant of step t (FIPS 180-4 section 4.2.1).
func k(t int) uint32 {
	return [4]uint32{0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6}[t/20]
}
