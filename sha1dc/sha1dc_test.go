package sha1dc

import (
	"bytes"
	stdsha1 "crypto/sha1"
	"encoding"
	"encoding/hex"
	"hash"
	"math/bits"
	"os"
	"slices"
	"testing"

	"github.com/simdhash/simdhash/internal/ref"
	"github.com/simdhash/simdhash/internal/testvectors"
)

// TestUBCCheck holds the generated check to the table of terms evaluated one
// at a time, on random words, on words that reach each DV
// (ubcReach, with random words around them), on the blocks that break one
// term of a DV each (ubcBreakBlocks), and on the blocks of the collision
// files.
func TestUBCCheck(t *testing.T) {
	if len(ubcTerms) != 156 || len(ubcReach) != len(dvTable) {
		t.Fatalf("%d terms and %d reaching vectors, want 156 and %d", len(ubcTerms), len(ubcReach), len(dvTable))
	}
	slow := func(w *[80]uint32) uint32 {
		m := ^uint32(0)
		for _, tm := range ubcTerms {
			if (w[tm.a]>>tm.ka^w[tm.b]>>tm.kb)&1 != tm.eq {
				m &^= tm.dvs
			}
		}
		return m
	}
	rng := newRand(t)
	random := func() (w [80]uint32) {
		for i := range w {
			w[i] = rng.Uint32()
		}
		return w
	}
	try := func(what string, w *[80]uint32) uint32 {
		t.Helper()
		got, want := ubcCheck(w), slow(w)
		if got != want {
			t.Fatalf("%s: ubcCheck = %#08x, the table gives %#08x", what, got, want)
		}
		return got
	}
	for range 10000 {
		w := random()
		try("random W", &w)
	}
	for d := range dvTable {
		for range 20 {
			w := random()
			copy(w[ubcReachLo:], ubcReach[d][:])
			if try("ubcReach", &w)&(1<<d) == 0 {
				t.Fatalf("ubcReach[%d] does not reach DV %d", d, d)
			}
			// Each condition of the DV broken in turn clears it.
			for _, tm := range ubcTerms {
				if tm.dvs&(1<<d) == 0 {
					continue
				}
				v := w
				v[tm.b] ^= 1 << tm.kb
				if try("ubcReach, one condition broken", &v)&(1<<d) != 0 {
					t.Fatalf("DV %d survives its term %+v broken", d, tm)
				}
			}
		}
	}
	// The blocks that break one term of a DV each: the DV is killed.
	for j, e := range ubcBreakBlocks {
		blk, err := hex.DecodeString(e.block)
		if err != nil || len(blk) != BlockSize {
			t.Fatalf("ubcBreakBlocks[%d]: %v", j, err)
		}
		var w [80]uint32
		var s [len(testSteps)][5]uint32
		h := initState
		compressW(&h, (*[BlockSize]byte)(blk), &w, &s)
		if try("a block breaking one term", &w)&(1<<e.dv) != 0 {
			t.Fatalf("ubcBreakBlocks[%d]: DV %d survives its term %d broken", j, e.dv, j)
		}
	}
	reached := uint32(0)
	for _, name := range []string{"shattered-1.pdf", "sha-mbles-1.bin"} {
		b := collisionFile(t, name)
		h := initState
		var w [80]uint32
		var s [len(testSteps)][5]uint32
		for p := b; len(p) >= BlockSize && len(b)-len(p) < 4096; p = p[BlockSize:] {
			compressW(&h, (*[BlockSize]byte)(p), &w, &s)
			reached |= try(name, &w)
		}
	}
	t.Logf("the collision files' first 4 KiB reach DVs %#08x", reached)
}

// TestCompressW checks the compression that keeps W and the states against
// the reference: its chaining value, W (the expansion of FIPS 180-4), and
// the states before the test steps, by running the reference's steps.
func TestCompressW(t *testing.T) {
	rng := newRand(t)
	for range 200 {
		var q [BlockSize]byte
		copy(q[:], randomBytes(rng, BlockSize))
		h := [5]uint32{rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32()}
		want := h
		ref.SHA1Blocks(&want, q[:])
		var w [80]uint32
		var s [len(testSteps)][5]uint32
		got := h
		compressW(&got, &q, &w, &s)
		if got != want {
			t.Fatalf("compressW: %08x, want %08x", got, want)
		}
		var x [80]uint32
		for i := range x {
			if i < 16 {
				x[i] = uint32(q[4*i])<<24 | uint32(q[4*i+1])<<16 | uint32(q[4*i+2])<<8 | uint32(q[4*i+3])
			} else {
				x[i] = bits.RotateLeft32(x[i-3]^x[i-8]^x[i-14]^x[i-16], 1)
			}
		}
		if w != x {
			t.Fatalf("compressW's W differs from the expansion")
		}
		a, b, c, d, e := h[0], h[1], h[2], h[3], h[4]
		for i := range 80 {
			if j := slices.Index(testSteps[:], i); j >= 0 && s[j] != [5]uint32{a, b, c, d, e} {
				t.Fatalf("state before step %d: %08x, want %08x", i, s[j], [5]uint32{a, b, c, d, e})
			}
			n := bits.RotateLeft32(a, 5) + f(i, b, c, d) + e + k(i) + x[i]
			a, b, c, d, e = n, a, bits.RotateLeft32(b, 30), c, d
		}
	}
}

// TestRecompress checks the generated, unrolled recompression against
// recompressSlow for every DV, on random blocks, states and differences, and
// with a zero difference, where from any step's state it must give back the
// block's own chaining value.
func TestRecompress(t *testing.T) {
	rng := newRand(t)
	for range 100 {
		var q [BlockSize]byte
		copy(q[:], randomBytes(rng, BlockSize))
		h := [5]uint32{rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32()}
		var w [80]uint32
		var s [len(testSteps)][5]uint32
		out := h
		compressW(&out, &q, &w, &s)
		for i, st := range testSteps {
			dv := dvInfo{state: i, testT: st}
			if got := recompress(&dv, &w, &s[i]); got != out {
				t.Fatalf("recompress from step %d with no difference: %08x, want %08x", st, got, out)
			}
		}
		for i := range dvTable {
			dv := dvTable[i]
			if rng.IntN(2) == 0 {
				for j := range dv.dm {
					dv.dm[j] = rng.Uint32()
				}
			}
			st := [5]uint32{rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32()}
			if got, want := recompress(&dv, &w, &st), recompressSlow(dv.testT, &dv.dm, &w, &st); got != want {
				t.Fatalf("DV %d (test step %d): recompress %08x, recompressSlow %08x", i, dv.testT, got, want)
			}
		}
	}
}

// TestCollisionFiles checks every record of sha1cd-digests.txt (the
// collision files whole, as prefixes and with data appended; the digests and
// flags sha1cd gives) with Sum, a hash from New written in random chunks,
// and SumMany.
func TestCollisionFiles(t *testing.T) {
	recs, msgs := recorded(t)
	collisions := 0
	forEachKernel(t, func(t *testing.T) {
		rng := newRand(t)
		sums := make([][Size]byte, len(msgs))
		detected := make([]bool, len(msgs))
		SumMany(sums, detected, msgs)
		for i, r := range recs {
			m := msgs[i]
			if got, col := Sum(m); got != r.Sum || col != r.Collision {
				t.Errorf("line %d (%s[:%d]+%d): Sum = %x %v, sha1cd gives %x %v", r.Line, r.File, r.Prefix, r.Append, got, col, r.Sum, r.Collision)
			}
			h := New().(CollisionResistantHash)
			for p := m; len(p) > 0; {
				n := min(len(p), rng.IntN(4*BlockSize))
				h.Write(p[:n])
				p = p[n:]
			}
			if got, col := h.CollisionResistantSum(nil); !bytes.Equal(got, r.Sum[:]) || col != r.Collision {
				t.Errorf("line %d: streamed %x %v, want %x %v", r.Line, got, col, r.Sum, r.Collision)
			}
			if got := h.Sum([]byte("x")); string(got) != "x"+string(r.Sum[:]) {
				t.Errorf("line %d: Sum(\"x\") = %x, want 78%x", r.Line, got, r.Sum)
			}
			if sums[i] != r.Sum || detected[i] != r.Collision {
				t.Errorf("line %d: SumMany %x %v, want %x %v", r.Line, sums[i], detected[i], r.Sum, r.Collision)
			}
			if r.Collision {
				collisions++
			} else if r.Sum != stdsha1.Sum(m) {
				t.Errorf("line %d: no collision, but the digest %x is not SHA-1's %x", r.Line, r.Sum, stdsha1.Sum(m))
			}
		}
	})
	if collisions == 0 {
		t.Fatal("no record is a collision")
	}
}

// TestNIST checks the SHAVS messages: SHA-1's digest, no collision.
func TestNIST(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		for _, f := range []string{"SHA1ShortMsg.rsp", "SHA1LongMsg.rsp"} {
			recs, err := testvectors.SHAVSMessages(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range recs {
				if got, col := Sum(r.Msg); got != r.MD || col {
					t.Errorf("%s:%d: Sum = %x %v, want %x false", f, r.Line, got, col, r.MD)
				}
			}
		}
	})
}

// TestPlain compares with crypto/sha1 and the reference on random messages
// of every length up to 1100 bytes and some longer: the same digest, no
// collision.
func TestPlain(t *testing.T) {
	rng := newRand(t)
	forEachKernel(t, func(t *testing.T) {
		lengths := []int{100000, 1 << 20}
		for n := 0; n <= 1100; n++ {
			lengths = append(lengths, n)
		}
		for _, n := range lengths {
			m := randomBytes(rng, n)
			got, col := Sum(m)
			if col || got != stdsha1.Sum(m) || got != ref.SHA1(m) {
				t.Fatalf("len %d: Sum = %x %v, crypto/sha1 %x, ref %x", n, got, col, stdsha1.Sum(m), ref.SHA1(m))
			}
		}
	})
}

// TestStreaming writes random and colliding messages in random chunks,
// with Sum calls in between that must not disturb the state, and compares
// with Sum.
func TestStreaming(t *testing.T) {
	rng := newRand(t)
	msgs := [][]byte{collisionFile(t, "sha-mbles-1.bin"), collisionFile(t, "shattered-2.pdf")[:5000]}
	for range 50 {
		msgs = append(msgs, randomBytes(rng, rng.IntN(2000)))
	}
	forEachKernel(t, func(t *testing.T) {
		for _, m := range msgs {
			want, wantCol := Sum(m)
			h := New().(CollisionResistantHash)
			for p := m; len(p) > 0; {
				n := min(len(p), rng.IntN(200))
				h.Write(p[:n])
				p = p[n:]
				if rng.IntN(4) == 0 {
					h.Sum(nil)
				}
			}
			if got, col := h.CollisionResistantSum(nil); !bytes.Equal(got, want[:]) || col != wantCol {
				t.Fatalf("len %d: streamed %x %v, Sum %x %v", len(m), got, col, want, wantCol)
			}
			h.Reset()
			h.Write(m[:len(m)/3])
			c, _ := h.(hash.Cloner).Clone()
			c.Write(m[len(m)/3:])
			if got, col := c.(CollisionResistantHash).CollisionResistantSum(nil); !bytes.Equal(got, want[:]) || col != wantCol {
				t.Fatalf("len %d: clone %x %v, Sum %x %v", len(m), got, col, want, wantCol)
			}
		}
	})
}

// TestMarshal saves and restores the state at every cut of a colliding
// message and a plain one, with MarshalBinary and AppendBinary: the
// restored hash finishes with the same digest and flag, the flag included
// for cuts after the collision. A state that has seen no collision is
// written with sha1cd's magic, one that has with the other.
func TestMarshal(t *testing.T) {
	rng := newRand(t)
	for _, m := range [][]byte{collisionFile(t, "sha-mbles-2.bin"), randomBytes(rng, 700)} {
		want, wantCol := Sum(m)
		for cut := 0; cut <= len(m); cut++ {
			h := New().(CollisionResistantHash)
			h.Write(m[:cut])
			b, err := h.(encoding.BinaryMarshaler).MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if len(b) != marshaledSize {
				t.Fatalf("cut %d: %d bytes, want %d", cut, len(b), marshaledSize)
			}
			a, _ := h.(encoding.BinaryAppender).AppendBinary([]byte("prefix"))
			if string(a) != "prefix"+string(b) {
				t.Fatalf("cut %d: AppendBinary differs from MarshalBinary", cut)
			}
			if magic := string(b[:len(magicClean)]); (magic == magicCollided) != h.(*digest).col || magic != magicClean && magic != magicCollided {
				t.Fatalf("cut %d: magic %q, collision seen %v", cut, magic, h.(*digest).col)
			}
			r := New().(CollisionResistantHash)
			r.Write([]byte("something else"))
			if err := r.(encoding.BinaryUnmarshaler).UnmarshalBinary(b); err != nil {
				t.Fatalf("cut %d: %v", cut, err)
			}
			r.Write(m[cut:])
			if got, col := r.CollisionResistantSum(nil); !bytes.Equal(got, want[:]) || col != wantCol {
				t.Fatalf("cut %d: restored %x %v, want %x %v", cut, got, col, want, wantCol)
			}
		}
	}
}

// TestUnmarshalBad checks that bad states are refused with an error that
// says what is wrong, and leave the hash as it was.
func TestUnmarshalBad(t *testing.T) {
	h := New().(CollisionResistantHash)
	h.Write(collisionFile(t, "sha-mbles-1.bin"))
	h.Write([]byte("tail"))
	before, _ := h.(encoding.BinaryMarshaler).MarshalBinary()
	good := slices.Clone(before)
	std, _ := stdsha1.New().(encoding.BinaryMarshaler).MarshalBinary()
	for _, c := range []struct {
		name, want string
		b          []byte
	}{
		{"empty", "identifier", nil},
		{"short", "identifier", []byte("shacd")},
		{"crypto/sha1's", "identifier", std},
		{"other magic", "identifier", append([]byte("shacd\x03"), good[6:]...)},
		{"one byte short", "size", good[:len(good)-1]},
		{"one byte long", "size", append(slices.Clone(good), 0)},
	} {
		err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(c.b)
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte(c.want)) || !bytes.HasPrefix([]byte(err.Error()), []byte("sha1dc: ")) {
			t.Errorf("%s: error %v, want one about the %s", c.name, err, c.want)
		}
		after, _ := h.(encoding.BinaryMarshaler).MarshalBinary()
		if !bytes.Equal(after, before) {
			t.Errorf("%s: the refused state changed the hash", c.name)
		}
	}
}

// TestNew checks what the hash offers and reports.
func TestNew(t *testing.T) {
	h := New()
	if h.Size() != Size || h.BlockSize() != BlockSize || Size != 20 || BlockSize != 64 {
		t.Fatalf("Size %d, BlockSize %d", h.Size(), h.BlockSize())
	}
	for _, ok := range []bool{
		func() bool { _, ok := h.(CollisionResistantHash); return ok }(),
		func() bool { _, ok := h.(encoding.BinaryMarshaler); return ok }(),
		func() bool { _, ok := h.(encoding.BinaryUnmarshaler); return ok }(),
		func() bool { _, ok := h.(encoding.BinaryAppender); return ok }(),
		func() bool { _, ok := h.(hash.Cloner); return ok }(),
	} {
		if !ok {
			t.Fatal("the hash lacks an interface")
		}
	}
	// Reset forgets a collision.
	h.Write(collisionFile(t, "sha-mbles-1.bin"))
	if _, col := h.(CollisionResistantHash).CollisionResistantSum(nil); !col {
		t.Fatal("no collision in sha-mbles-1.bin")
	}
	h.Reset()
	if s, col := h.(CollisionResistantHash).CollisionResistantSum(nil); col || string(s) != string(stdsha1.New().Sum(nil)) {
		t.Fatalf("after Reset: %x %v", s, col)
	}
}

// TestDispatch checks the kernel chosen at init. With
// SIMDHASH_SHA1DC_KERNEL set (as the emulated runs do) Kernel must report
// exactly that; otherwise it must be the first available kernel of the
// registry.
func TestDispatch(t *testing.T) {
	got := Kernel()
	if !slices.Contains(kernelNames(), got) {
		t.Fatalf("Kernel() = %q is not a registered kernel %v", got, kernelNames())
	}
	if want, ok := os.LookupEnv("SIMDHASH_SHA1DC_KERNEL"); ok {
		if got != want {
			t.Fatalf("Kernel() = %q, but SIMDHASH_SHA1DC_KERNEL = %q (GODEBUG=%q)", got, want, os.Getenv("GODEBUG"))
		}
		return
	}
	t.Logf("Kernel() = %q; registry %v", got, kernelNames())
	for _, k := range kernels {
		if k.available {
			if got != k.name {
				t.Fatalf("Kernel() = %q, want the first available kernel %q", got, k.name)
			}
			return
		}
	}
	t.Fatal("no available kernel in the registry")
}

// TestUnknownKernel checks that the dispatch switch panics, naming the
// kernel, on a kernel it has no case for.
func TestUnknownKernel(t *testing.T) {
	saved := active
	defer func() { active = saved }()
	active = &kernel{name: "bogus", id: 255, available: true}
	defer func() {
		if r := recover(); r == nil || !bytes.Contains([]byte(r.(string)), []byte("sha1dc: no case for kernel bogus")) {
			t.Fatalf("recovered %v, want the dispatch's panic", r)
		}
	}()
	Sum(make([]byte, 64))
}

// TestAllocs checks that Sum, SumMany, and Write and Sum on a hash from
// New, do not allocate.
func TestAllocs(t *testing.T) {
	msg := collisionFile(t, "sha-mbles-1.bin")
	h := New()
	var buf [Size]byte
	msgs := [][]byte{msg, msg[:100], nil}
	sums := make([][Size]byte, len(msgs))
	detected := make([]bool, len(msgs))
	if n := testing.AllocsPerRun(10, func() {
		Sum(msg)
		SumMany(sums, detected, msgs)
		h.Reset()
		h.Write(msg)
		h.Sum(buf[:0])
	}); n != 0 {
		t.Fatalf("%v allocations per run, want 0", n)
	}
}
