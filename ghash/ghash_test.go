package ghash

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/simdhash/simdhash/internal/ref"
	"github.com/simdhash/simdhash/internal/testvectors"
)

// forEachKernel runs f as one subtest per registered kernel, named after it,
// with that kernel set as active (and the previous one restored after). A
// kernel this CPU cannot run is skipped, never replaced by another.
func forEachKernel(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	for i := range kernels {
		k := &kernels[i]
		t.Run(k.name, func(t *testing.T) {
			if !k.available {
				t.Skip(unavailable(k))
			}
			saved := active
			active = k
			t.Cleanup(func() { active = saved })
			f(t)
		})
	}
}

// unavailable says why kernel k cannot run here, and where it can.
func unavailable(k *kernel) string {
	lacks := "an extension it needs"
	if k.missing != "" {
		lacks = k.missing
	}
	return fmt.Sprintf("kernel %q is not available: the CPU lacks %s, or GODEBUG turns it off "+
		"(no qemu model has AVX-512 or VPCLMULQDQ: make test-bochs runs such kernels on an emulated Tiger Lake, docs/verification.md)", k.name, lacks)
}

// availableKernels returns the kernels this CPU can run.
func availableKernels() []*kernel {
	var ks []*kernel
	for i := range kernels {
		if kernels[i].available {
			ks = append(ks, &kernels[i])
		}
	}
	return ks
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

func mustBlock(t testing.TB, s string) [16]byte {
	t.Helper()
	b := mustHex(t, s)
	if len(b) != 16 {
		t.Fatalf("%q is %d bytes, want 16", s, len(b))
	}
	return [16]byte(b)
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func randKey(r *rand.Rand) [16]byte { return [16]byte(randBytes(r, 16)) }

// zeroPad returns p followed by zeros up to a multiple of 16 bytes.
func zeroPad(p []byte) []byte {
	out := make([]byte, (len(p)+15)&^15)
	copy(out, p)
	return out
}

// refGHASH is ref.GHASH on whole blocks; the test fails on a partial one.
func refGHASH(t testing.TB, h [16]byte, x []byte) [16]byte {
	t.Helper()
	y, err := ref.GHASH(h, x)
	if err != nil {
		t.Fatal(err)
	}
	return y
}

// refUpdate is what a kernel's update must compute: the whole blocks of p
// absorbed into y0, that is GHASH of the blocks with y0 XORed into the first.
func refUpdate(t testing.TB, h, y0 [16]byte, p []byte) [16]byte {
	t.Helper()
	whole := bytes.Clone(p[:len(p)&^15])
	if len(whole) == 0 {
		return y0
	}
	for i := range y0 {
		whole[i] ^= y0[i]
	}
	return refGHASH(t, h, whole)
}

// hashOf returns the plain GHASH of d through a Hash of key.
func hashOf(key *Key, d []byte) []byte {
	g := key.NewHash()
	g.Write(d)
	return g.Sum(nil)
}

func loadVectors(t *testing.T) testvectors.GHASHFile {
	t.Helper()
	f, err := testvectors.GHASH()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestKnownAnswers checks every kernel on the McGrew-Viega GHASH(H, A, C)
// and Y0 values through Key.SumGCM and SumGCM, and on the RFC 8452
// raw-block example through a Hash (whole blocks, so no padding happens).
func TestKnownAnswers(t *testing.T) {
	f := loadVectors(t)
	forEachKernel(t, func(t *testing.T) {
		for _, v := range f.Vectors {
			h := mustBlock(t, v.H)
			a, c := mustHex(t, v.A), mustHex(t, v.C)
			want := mustBlock(t, v.GHASH)
			key := NewKey(h)
			if got := key.SumGCM(a, c); got != want {
				t.Errorf("%s: Key.SumGCM = %x, want %x", v.Name, got, want)
			}
			if got := SumGCM(h, a, c); got != want {
				t.Errorf("%s: SumGCM = %x, want %x", v.Name, got, want)
			}
		}
		for _, v := range f.RawBlockVectors {
			if v.LengthBlock {
				t.Fatalf("%s: raw-block vector with a length block: unknown format", v.Name)
			}
			key := NewKey(mustBlock(t, v.H))
			x := mustHex(t, v.X)
			if len(x)%16 != 0 {
				t.Fatalf("%s: X is not whole blocks", v.Name)
			}
			d := key.NewHash()
			if n, err := d.Write(x); n != len(x) || err != nil {
				t.Fatalf("%s: Write = %d, %v", v.Name, n, err)
			}
			if got, want := d.Sum(nil), mustHex(t, v.GHASH); !bytes.Equal(got, want) {
				t.Errorf("%s: GHASH = %x, want %x", v.Name, got, want)
			}
		}
	})
}

// shortLen is the longest input of kernel k in a -short test that tries
// every length: three of its widest loop's groups and a partial block
// (at least floor), so that the widest loop runs zero, one and two times,
// each time followed by every tail the narrower loops take.
func shortLen(k *kernel, floor int) int {
	return max(floor, 3*k.powers*BlockSize+BlockSize-1)
}

// testLen returns the longest input of kernel k in a test that tries
// every length: full without -short, shortLen(k, floor) with it.
func testLen(k *kernel, full, floor int) int {
	if testing.Short() {
		return shortLen(k, floor)
	}
	return full
}

// A refCase is an input with a key and a starting y, and what the
// reference makes of them.
type refCase struct {
	h, y0  [16]byte
	d      []byte
	raw    [16]byte // the whole blocks of d absorbed into y0 (refUpdate)
	padded [16]byte // GHASH of d, zero-padded, from y = 0
	gcm    [16]byte // if asked for: GCM's GHASH with A = d and C = d[:len(d)/2]
}

// refCases returns a refCase for every length 0..n, at random from seed,
// the lengths of the kernels' inputs in testLen(k, full, floor): computed
// once for every kernel, since the bit-serial reference takes far longer
// than the kernels (minutes under bochs, if once per kernel).
func refCases(t *testing.T, seed uint64, full, floor int, gcm bool) []refCase {
	n := 0
	for i := range kernels {
		n = max(n, testLen(&kernels[i], full, floor))
	}
	r := rand.New(rand.NewPCG(seed, seed+1))
	cases := make([]refCase, n+1)
	for i := range cases {
		c := &cases[i]
		c.h, c.y0 = randKey(r), randKey(r)
		c.d = randBytes(r, i)
		c.raw = refUpdate(t, c.h, c.y0, c.d)
		c.padded = refGHASH(t, c.h, zeroPad(c.d))
		if gcm {
			c.gcm = ref.GCMGHASH(c.h, c.d, c.d[:i/2])
		}
	}
	return cases
}

// TestUpdateAgainstRef calls each kernel's update directly, on a full key,
// on every length 0..2048 (0..shortLen with -short) at every start offset
// 0..15, from a random starting y, and checks that it absorbed exactly the
// whole blocks and left p alone. The same inputs then go through a Hash,
// which must equal the reference over the zero-padded input.
func TestUpdateAgainstRef(t *testing.T) {
	const full, floor = 2048, 8*BlockSize + 2*BlockSize + 15 // floor: past the 8-block loops, plus a tail
	cases := refCases(t, 1, full, floor, false)
	forEachKernel(t, func(t *testing.T) {
		maxLen := testLen(active, full, floor)
		buf := make([]byte, maxLen+16)
		for n, c := range cases[:maxLen+1] {
			key := NewKey(c.h)
			for off := 0; off < 16; off++ {
				p := buf[off : off+n]
				copy(p, c.d)
				y := c.y0
				updateWith(active, &y, &key.ek, p)
				if y != c.raw {
					t.Fatalf("update, len %d, offset %d: y = %x, want %x", n, off, y, c.raw)
				}
				if !bytes.Equal(p, c.d) {
					t.Fatalf("update, len %d, offset %d: changed its input", n, off)
				}
				if got := hashOf(&key, p); !bytes.Equal(got, c.padded[:]) {
					t.Fatalf("Hash, len %d, offset %d: Sum = %x, want %x", n, off, got, c.padded)
				}
			}
		}
	})
}

// TestPartialKeys checks powersFor, the rule that decides which powers of
// H a key needs for an input length: for every block count n, a key with
// the powers powersFor gives for n, and every other word of the key
// garbage, must absorb n blocks (and any fewer) correctly. A kernel that
// used a power the rule leaves out would read the garbage.
func TestPartialKeys(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		k := active
		if p := powersFor(k, 0); p != 1 {
			t.Errorf("powersFor(%s, 0) = %d, want 1: H itself is always needed", k.name, p)
		}
		if p := powersFor(k, 1<<20); p != k.powers {
			t.Errorf("powersFor(%s, 1<<20) = %d, want all %d", k.name, p, k.powers)
		}
		r := rand.New(rand.NewPCG(0x5a, uint64(k.id)))
		maxN := 3*k.powers + 3
		for trial := 0; trial < 8; trial++ {
			h, y0 := randKey(r), randKey(r)
			// The inputs of m blocks, and a partial block to ignore, with
			// their references, for every key below.
			inputs := make([][]byte, maxN+1)
			wants := make([][16]byte, maxN+1)
			for m := range inputs {
				inputs[m] = randBytes(r, m*BlockSize+trial)
				wants[m] = refUpdate(t, h, y0, inputs[m])
			}
			for n := 0; n <= maxN; n++ {
				var ek expandedKey
				garbage := randBytes(r, int(unsafe.Sizeof(ek)))
				copy(unsafe.Slice((*byte)(unsafe.Pointer(&ek)), unsafe.Sizeof(ek)), garbage)
				expandWith(k, &ek, &h, powersFor(k, n))
				for m := 0; m <= n; m++ {
					y := y0
					updateWith(k, &y, &ek, inputs[m])
					if y != wants[m] {
						t.Fatalf("key expanded for %d blocks (%d powers), update of %d: y = %x, want %x",
							n, powersFor(k, n), m, y, wants[m])
					}
				}
			}
		}
	})
}

// TestSumGCMAgainstRef compares Key.SumGCM and SumGCM with ref.GCMGHASH
// over many lengths of A and C, including those that reach the 8-block
// main loops.
func TestSumGCMAgainstRef(t *testing.T) {
	// The cases and their references, once for every kernel.
	type gcmCase struct {
		h    [16]byte
		a, c []byte
		want [16]byte
	}
	var cases []gcmCase
	r := rand.New(rand.NewPCG(2, 3))
	add := func(h [16]byte, a, c []byte) { cases = append(cases, gcmCase{h, a, c, ref.GCMGHASH(h, a, c)}) }
	for la := 0; la <= 50; la++ {
		for _, lc := range []int{0, 1, 15, 16, 17, 31, 32, 33, 100, 257} {
			add(randKey(r), randBytes(r, la), randBytes(r, lc))
		}
	}
	for i := 0; i < 200; i++ {
		add(randKey(r), randBytes(r, r.IntN(300)), randBytes(r, r.IntN(300)))
	}
	// Lengths of A and C around the edges of the long path's pieces
	// (sumGCMLong): the short paths' limits, the last group's (A's partial
	// block with C, or C alone), and the wide loops' 256 bytes.
	edges := []int{0, 1, 15, 16, 17, 111, 112, 113, 127, 128, 129, 239, 240, 241, 255, 256, 257, 383, 384, 1000, 1024}
	if testing.Short() {
		edges = []int{0, 1, 16, 113, 129, 241, 257, 1000}
	}
	for _, la := range edges {
		for _, lc := range edges {
			add(randKey(r), randBytes(r, la), randBytes(r, lc))
		}
	}
	forEachKernel(t, func(t *testing.T) {
		for _, c := range cases {
			key := NewKey(c.h)
			if got := key.SumGCM(c.a, c.c); got != c.want {
				t.Fatalf("len(A) = %d, len(C) = %d: Key.SumGCM = %x, want %x", len(c.a), len(c.c), got, c.want)
			}
			if got := SumGCM(c.h, c.a, c.c); got != c.want {
				t.Fatalf("len(A) = %d, len(C) = %d: SumGCM = %x, want %x", len(c.a), len(c.c), got, c.want)
			}
		}
	})
}

// TestIncrementalWrites splits inputs at random points (empty pieces
// included) and compares with one Write and with the reference.
func TestIncrementalWrites(t *testing.T) {
	// The inputs, their pieces and references, once for every kernel.
	type writes struct {
		h      [16]byte
		d      []byte
		pieces []int
		want   [16]byte
	}
	r := rand.New(rand.NewPCG(6, 7))
	cases := make([]writes, 300)
	for i := range cases {
		c := &cases[i]
		c.h = randKey(r)
		c.d = randBytes(r, r.IntN(1000))
		c.want = refGHASH(t, c.h, zeroPad(c.d))
		for rest := len(c.d); ; {
			k := r.IntN(min(rest, 40) + 1)
			c.pieces = append(c.pieces, k)
			if rest -= k; rest == 0 {
				break
			}
		}
	}
	forEachKernel(t, func(t *testing.T) {
		for _, c := range cases {
			key := NewKey(c.h)
			want := hashOf(&key, c.d)
			if !bytes.Equal(want, c.want[:]) {
				t.Fatalf("one Write, len %d: %x, want %x", len(c.d), want, c.want)
			}
			inc := key.NewHash()
			rest := c.d
			for _, k := range c.pieces {
				n, err := inc.Write(rest[:k])
				if n != k || err != nil {
					t.Fatalf("Write(%d bytes) = %d, %v", k, n, err)
				}
				rest = rest[k:]
			}
			if got := inc.Sum(nil); !bytes.Equal(got, want) {
				t.Fatalf("len %d: incremental %x, one Write %x", len(c.d), got, want)
			}
		}
	})
}

// TestSumKeepsState checks that Sum does not change the Hash: two Sums
// agree, and writing after a Sum continues the same stream.
func TestSumKeepsState(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(8, 9))
		for i := 0; i < 200; i++ {
			h := randKey(r)
			key := NewKey(h)
			a, b := randBytes(r, r.IntN(70)), randBytes(r, r.IntN(70))
			g := key.NewHash()
			g.Write(a)
			before := *g
			s1 := g.Sum(nil)
			s2 := g.Sum([]byte("prefix"))
			if *g != before {
				t.Fatal("Sum changed the Hash")
			}
			if !bytes.Equal(s2[:6], []byte("prefix")) || !bytes.Equal(s1, s2[6:]) {
				t.Fatalf("second Sum = %x, first %x", s2, s1)
			}
			if want := refGHASH(t, h, zeroPad(a)); !bytes.Equal(s1, want[:]) {
				t.Fatalf("Sum after %d bytes = %x, want %x", len(a), s1, want)
			}
			g.Write(b)
			want := refGHASH(t, h, zeroPad(append(bytes.Clone(a), b...)))
			if got := g.Sum(nil); !bytes.Equal(got, want[:]) {
				t.Fatalf("Sum after %d+%d bytes with a Sum between = %x, want %x", len(a), len(b), got, want)
			}
		}
	})
}

// TestResetKeepsKey checks that Reset forgets the data and keeps the key.
func TestResetKeepsKey(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(10, 11))
		for i := 0; i < 100; i++ {
			h := randKey(r)
			key := NewKey(h)
			junk, d := randBytes(r, r.IntN(50)), randBytes(r, 1+r.IntN(50))
			g := key.NewHash()
			g.Write(junk)
			g.Reset()
			g.Write(d)
			want := refGHASH(t, h, zeroPad(d))
			if got := g.Sum(nil); !bytes.Equal(got, want[:]) {
				t.Fatalf("after Reset: %x, want %x", got, want)
			}
			g.Reset()
			if got := g.Sum(nil); !bytes.Equal(got, make([]byte, Size)) {
				t.Fatalf("empty after Reset: %x, want zeros", got)
			}
		}
	})
}

// TestHashInterface checks the constant methods.
func TestHashInterface(t *testing.T) {
	key := NewKey([16]byte{1})
	g := key.NewHash()
	if g.Size() != Size || g.BlockSize() != BlockSize || Size != 16 || BlockSize != 16 {
		t.Errorf("Size, BlockSize = %d, %d; want 16, 16", g.Size(), g.BlockSize())
	}
}

// TestKeyKeepsKernel checks that a Key keeps the kernel that was active
// when NewKey made it, whatever active becomes later (its layout is that
// kernel's), and that its results, and its Hashes', stay right.
func TestKeyKeepsKernel(t *testing.T) {
	saved := active
	t.Cleanup(func() { active = saved })
	r := rand.New(rand.NewPCG(7, 8))
	ks := availableKernels()
	for i, k := range ks {
		h := randKey(r)
		data := randBytes(r, 8*BlockSize+5)
		active = k
		key := NewKey(h)
		active = ks[(i+1)%len(ks)] // another kernel, where there is one
		if key.kern != k {
			t.Fatalf("Key kernel = %q, want %q, the kernel active at NewKey", key.kern.name, k.name)
		}
		if got, want := key.SumGCM(data, data[:7]), ref.GCMGHASH(h, data, data[:7]); got != want {
			t.Fatalf("%s: SumGCM = %x, want %x", k.name, got, want)
		}
		want := refGHASH(t, h, zeroPad(data))
		if got := hashOf(&key, data); !bytes.Equal(got, want[:]) {
			t.Fatalf("%s: Hash = %x, want %x", k.name, got, want)
		}
	}
}

// TestKeySize checks that a Key stays under 1 KiB, room left for kernels
// with more powers of H.
func TestKeySize(t *testing.T) {
	if n := unsafe.Sizeof(Key{}); n >= 1024 {
		t.Errorf("a Key is %d bytes; keep it under 1 KiB", n)
	}
}

// mustPanic calls f and fails unless it panics with a message containing
// each of want.
func mustPanic(t *testing.T, what string, f func(), want ...string) {
	t.Helper()
	defer func() {
		t.Helper()
		e := recover()
		if e == nil {
			t.Errorf("%s did not panic", what)
			return
		}
		var msg string
		switch e := e.(type) {
		case error:
			msg = e.Error()
		case string:
			msg = e
		}
		for _, w := range want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s panicked with %q, which does not say %q", what, msg, w)
			}
		}
	}()
	f()
}

// TestMisuse checks that each misuse panics with a message naming the
// mistake, rather than yielding a zero tag, an empty Sum or an error.
func TestMisuse(t *testing.T) {
	var zero Key
	mustPanic(t, "zero Key's SumGCM", func() { zero.SumGCM(nil, []byte("c")) }, "NewKey")
	mustPanic(t, "zero Key's NewHash", func() { zero.NewHash() }, "NewKey")
	var nilKey *Key
	mustPanic(t, "nil *Key's SumGCM", func() { nilKey.SumGCM(nil, nil) }, "nil *Key")
	mustPanic(t, "nil *Key's NewHash", func() { nilKey.NewHash() }, "nil *Key")
	var g Hash
	mustPanic(t, "zero Hash's Write", func() { g.Write([]byte("x")) }, "Key.NewHash")
	mustPanic(t, "zero Hash's empty Write", func() { g.Write(nil) }, "Key.NewHash")
	mustPanic(t, "zero Hash's Sum", func() { g.Sum(nil) }, "Key.NewHash")
	mustPanic(t, "zero Hash's Reset", func() { g.Reset() }, "Key.NewHash")
	// A Hash whose Key was zeroed after NewHash.
	key := NewKey([16]byte{1})
	h := key.NewHash()
	key = Key{}
	mustPanic(t, "Hash of a zeroed Key", func() { h.Write([]byte("x")) }, "NewKey")

	// Write's result, for every length.
	key = NewKey([16]byte{2})
	h = key.NewHash()
	for n := 0; n < 40; n++ {
		if got, err := h.Write(make([]byte, n)); got != n || err != nil {
			t.Fatalf("Write(%d bytes) = %d, %v; want %d, nil", n, got, err, n)
		}
	}
}

// TestNoCase checks that a kernel id without a case in the dispatch
// switches panics there instead of falling through to another kernel.
func TestNoCase(t *testing.T) {
	bogus := &kernel{name: "bogus", id: 200, available: true, powers: 1}
	var ek expandedKey
	var y, h [16]byte
	mustPanic(t, "expandWith", func() { expandWith(bogus, &ek, &h, 1) }, "bogus", "no case")
	mustPanic(t, "updateWith", func() { updateWith(bogus, &y, &ek, make([]byte, 16)) }, "bogus", "no case")
}

// TestAllocs checks that NewKey, Key.SumGCM, SumGCM, and NewHash, Write
// and Sum into a buffer of the caller's do not allocate.
func TestAllocs(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		h := [16]byte{3: 7}
		a, c := make([]byte, 37), make([]byte, 200)
		var key Key
		if n := testing.AllocsPerRun(100, func() { key = NewKey(h) }); n != 0 {
			t.Errorf("NewKey allocates %v times", n)
		}
		if n := testing.AllocsPerRun(100, func() { key.SumGCM(a, c) }); n != 0 {
			t.Errorf("Key.SumGCM allocates %v times", n)
		}
		if n := testing.AllocsPerRun(100, func() { SumGCM(h, a, c) }); n != 0 {
			t.Errorf("SumGCM allocates %v times", n)
		}
		out := make([]byte, 0, Size)
		if n := testing.AllocsPerRun(100, func() {
			g := key.NewHash()
			g.Write(a)
			g.Write(c)
			out = g.Sum(out[:0])
		}); n != 0 {
			t.Errorf("NewHash, Write and Sum allocate %v times", n)
		}
	})
}

// fuzzKey makes a key from arbitrary fuzz bytes.
func fuzzKey(b []byte) [16]byte {
	var k [16]byte
	copy(k[:], b)
	return k
}

// FuzzGHASH compares every available kernel, through a Hash with a split
// Write, Key.SumGCM and SumGCM, with the reference.
func FuzzGHASH(f *testing.F) {
	f.Add(make([]byte, 16), []byte{}, uint16(0))
	f.Add(bytes.Repeat([]byte{0xff}, 16), bytes.Repeat([]byte{0xff}, 100), uint16(33))
	f.Add([]byte{0x80}, []byte("the quick brown fox jumps over the lazy dog"), uint16(7))
	f.Add(bytes.Repeat([]byte{0x11}, 16), bytes.Repeat([]byte{0x11}, 64), uint16(16))
	f.Fuzz(func(t *testing.T, key, data []byte, split uint16) {
		h := fuzzKey(key)
		want := refGHASH(t, h, zeroPad(data))
		s := int(split) % (len(data) + 1)
		wantSum := ref.GCMGHASH(h, data[:s], data[s:])
		for _, k := range availableKernels() {
			key := newKey(k, &h)
			g := key.NewHash()
			g.Write(data[:s])
			g.Write(data[s:])
			if got := g.Sum(nil); !bytes.Equal(got, want[:]) {
				t.Fatalf("%s: Hash = %x, want %x", k.name, got, want)
			}
			if got := key.SumGCM(data[:s], data[s:]); got != wantSum {
				t.Fatalf("%s: Key.SumGCM = %x, want %x", k.name, got, wantSum)
			}
			if got := sumGCMOnce(k, &h, data[:s], data[s:]); got != wantSum {
				t.Fatalf("%s: SumGCM = %x, want %x", k.name, got, wantSum)
			}
		}
	})
}

// TestMul64 checks the generic kernel's 64x64 carry-less multiply with
// holes against ref.ClMul64, including the operands that fill whole residue
// classes (the case the top-nibble split exists for).
func TestMul64(t *testing.T) {
	edges := []uint64{0, 1, 1 << 63, ^uint64(0), 0x1111111111111111, 0x2222222222222222,
		0x4444444444444444, 0x8888888888888888, 0xf000000000000000, 0x0fffffffffffffff,
		0xaaaaaaaaaaaaaaaa, 0x5555555555555555, 0x1111111111111111 | 0xf000000000000000}
	for i := 0; i < 64; i++ {
		edges = append(edges, 1<<i, ^uint64(1<<i))
	}
	check := func(x, k uint64) {
		kw := splitKeyWord(k)
		gh, gl := mul64(x, &kw)
		wh, wl := ref.ClMul64(x, k)
		if gh != wh || gl != wl {
			t.Fatalf("mul64(%#016x, %#016x) = %#016x:%#016x, want %#016x:%#016x", x, k, gh, gl, wh, wl)
		}
	}
	for _, x := range edges {
		for _, k := range edges {
			check(x, k)
		}
	}
	r := rand.New(rand.NewPCG(14, 15))
	for i := 0; i < 20000; i++ {
		x, k := r.Uint64(), r.Uint64()
		// Dense operands make long columns; sparse ones are rare at random.
		switch i % 4 {
		case 1:
			x |= r.Uint64()
			k |= r.Uint64()
		case 2:
			x &= r.Uint64()
		}
		check(x, k)
	}
}

// TestDenseOperands runs GHASH with all-ones keys and data, whose products
// have the longest columns, on every kernel.
func TestDenseOperands(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		for _, b := range []byte{0xff, 0x11, 0x22, 0x44, 0x88, 0xee, 0x77} {
			h := [16]byte(bytes.Repeat([]byte{b}, 16))
			key := NewKey(h)
			for _, d := range []byte{0xff, b, ^b} {
				x := bytes.Repeat([]byte{d}, 160)
				if got, want := key.SumGCM(x, x[:17]), ref.GCMGHASH(h, x, x[:17]); got != want {
					t.Fatalf("H = %02x.., data %02x..: SumGCM = %x, want %x", b, d, got, want)
				}
			}
		}
	})
}

// TestSumGCMShort checks Key.SumGCM on every kernel for every pair of
// lengths of A and C up to a block beyond the kernel's short path
// (shortLimit of padded A and C, one kernel call), so that each split of
// whole and partial blocks, and the switch to the long path, meets the
// reference. A starts one byte into its buffer, so whole blocks are
// unaligned. With -short, C's lengths are sampled away from the limit.
func TestSumGCMShort(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		most := shortLimit(active) + BlockSize
		buf := make([]byte, 2*most+1)
		for i := range buf {
			buf[i] = byte(i*29 + 3)
		}
		var h [16]byte
		copy(h[:], buf[7:])
		key := NewKey(h)
		for la := 0; la <= most; la++ {
			for lc := 0; padded(la)+padded(lc) <= most; lc++ {
				// With -short (the emulated runs), every length of A
				// with a sample of C's, and every pair at the limit.
				edge := padded(la)+padded(lc) >= most-BlockSize
				if testing.Short() && !edge && lc%16 > 1 && lc%16 != 15 && lc%5 != 0 {
					continue
				}
				a, c := buf[1:1+la], buf[1+most:1+most+lc]
				if got, want := key.SumGCM(a, c), ref.GCMGHASH(h, a, c); got != want {
					t.Fatalf("len(A) = %d, len(C) = %d: %x, want %x", la, lc, got, want)
				}
			}
		}
	})
}
