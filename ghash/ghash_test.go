package ghash

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"testing"

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
				t.Skipf("kernel %q is not available on this CPU", k.name)
			}
			saved := active
			active = k
			t.Cleanup(func() { active = saved })
			f(t)
		})
	}
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

func loadVectors(t *testing.T) testvectors.GHASHFile {
	t.Helper()
	f, err := testvectors.GHASH()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestKnownAnswers checks every kernel on the McGrew-Viega GHASH(H, A, C)
// and Y0 values through Sum, and on the RFC 8452 raw-block example through
// New, Write and Sum (whole blocks, so no padding happens).
func TestKnownAnswers(t *testing.T) {
	f := loadVectors(t)
	forEachKernel(t, func(t *testing.T) {
		for _, v := range f.Vectors {
			h := mustBlock(t, v.H)
			got := Sum(&h, mustHex(t, v.A), mustHex(t, v.C))
			if want := mustBlock(t, v.GHASH); got != want {
				t.Errorf("%s: Sum = %x, want %x", v.Name, got, want)
			}
		}
		for _, v := range f.RawBlockVectors {
			if v.LengthBlock {
				t.Fatalf("%s: raw-block vector with a length block: unknown format", v.Name)
			}
			h := mustBlock(t, v.H)
			x := mustHex(t, v.X)
			if len(x)%16 != 0 {
				t.Fatalf("%s: X is not whole blocks", v.Name)
			}
			d := New(&h)
			if n, err := d.Write(x); n != len(x) || err != nil {
				t.Fatalf("%s: Write = %d, %v", v.Name, n, err)
			}
			got := d.Sum(nil)
			if want := mustHex(t, v.GHASH); !bytes.Equal(got, want) {
				t.Errorf("%s: GHASH = %x, want %x", v.Name, got, want)
			}
		}
	})
}

// testGCM is GCM (SP 800-38D section 7) composed in this test from a block
// cipher and a GHASH function, so that GHASH can be checked against
// complete AEAD test vectors.
type testGCM struct {
	block cipher.Block
	h     [16]byte
	ghash func(key *[16]byte, a, c []byte) [16]byte
}

var errTestGCM = errors.New("testGCM: message authentication failed")

func newTestGCM(key []byte, ghash func(*[16]byte, []byte, []byte) [16]byte) (*testGCM, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	g := &testGCM{block: b, ghash: ghash}
	b.Encrypt(g.h[:], g.h[:])
	return g, nil
}

// j0 is the pre-counter block. SP 800-38D section 8.2 requires IVs of at
// least one bit, so an empty IV is an error.
func (g *testGCM) j0(iv []byte) ([16]byte, error) {
	var j [16]byte
	switch len(iv) {
	case 0:
		return j, errors.New("testGCM: empty IV")
	case 12:
		copy(j[:], iv)
		j[15] = 1
		return j, nil
	default:
		return g.ghash(&g.h, nil, iv), nil
	}
}

// ctr XORs src with the key stream that starts at inc32(j0) into dst.
func (g *testGCM) ctr(j0 [16]byte, dst, src []byte) {
	cb := j0
	var ks [16]byte
	for i := 0; i < len(src); i += 16 {
		binary.BigEndian.PutUint32(cb[12:], binary.BigEndian.Uint32(cb[12:])+1)
		g.block.Encrypt(ks[:], cb[:])
		subtle.XORBytes(dst[i:], src[i:min(i+16, len(src))], ks[:])
	}
}

func (g *testGCM) tag(j0 [16]byte, a, c []byte) [16]byte {
	var t [16]byte
	g.block.Encrypt(t[:], j0[:])
	s := g.ghash(&g.h, a, c)
	subtle.XORBytes(t[:], t[:], s[:])
	return t
}

func (g *testGCM) seal(iv, pt, a []byte) (ct []byte, tag [16]byte, err error) {
	j, err := g.j0(iv)
	if err != nil {
		return nil, tag, err
	}
	ct = make([]byte, len(pt))
	g.ctr(j, ct, pt)
	return ct, g.tag(j, a, ct), nil
}

func (g *testGCM) open(iv, ct, a, tag []byte) ([]byte, error) {
	j, err := g.j0(iv)
	if err != nil {
		return nil, err
	}
	want := g.tag(j, a, ct)
	if len(tag) == 0 || len(tag) > 16 || subtle.ConstantTimeCompare(want[:len(tag)], tag) != 1 {
		return nil, errTestGCM
	}
	pt := make([]byte, len(ct))
	g.ctr(j, pt, ct)
	return pt, nil
}

// wycheproofFile is testdata/gcm/aes_gcm_test.json (Wycheproof schema
// aead_test_schema_v1.json).
type wycheproofFile struct {
	NumberOfTests int `json:"numberOfTests"`
	TestGroups    []struct {
		IVSize  int `json:"ivSize"`
		KeySize int `json:"keySize"`
		TagSize int `json:"tagSize"`
		Tests   []struct {
			TcID                               int `json:"tcId"`
			Comment                            string
			Flags                              []string
			Key, IV, AAD, Msg, CT, Tag, Result string
		} `json:"tests"`
	} `json:"testGroups"`
}

// TestWycheproofGCM runs every Wycheproof AES-GCM case through testGCM
// built on Sum with every kernel: valid cases must reproduce the ciphertext
// and tag and decrypt; invalid ones must be rejected.
func TestWycheproofGCM(t *testing.T) {
	data, err := os.ReadFile(testvectors.Path("gcm", "aes_gcm_test.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f wycheproofFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	forEachKernel(t, func(t *testing.T) {
		var valid, invalid, emptyIV int
		for _, grp := range f.TestGroups {
			for _, tc := range grp.Tests {
				key, iv, aad := mustHex(t, tc.Key), mustHex(t, tc.IV), mustHex(t, tc.AAD)
				msg, ct, tag := mustHex(t, tc.Msg), mustHex(t, tc.CT), mustHex(t, tc.Tag)
				if len(key)*8 != grp.KeySize || len(iv)*8 != grp.IVSize || len(tag)*8 != grp.TagSize {
					t.Fatalf("tcId %d: sizes do not match its group", tc.TcID)
				}
				g, err := newTestGCM(key, Sum)
				if err != nil {
					t.Fatalf("tcId %d: %v", tc.TcID, err)
				}
				switch tc.Result {
				case "valid":
					valid++
					gotCT, gotTag, err := g.seal(iv, msg, aad)
					if err != nil {
						t.Errorf("tcId %d (%s): seal: %v", tc.TcID, tc.Comment, err)
						continue
					}
					if !bytes.Equal(gotCT, ct) || !bytes.Equal(gotTag[:len(tag)], tag) {
						t.Errorf("tcId %d (%s): seal = %x %x, want %x %x", tc.TcID, tc.Comment, gotCT, gotTag[:len(tag)], ct, tag)
					}
					pt, err := g.open(iv, ct, aad, tag)
					if err != nil || !bytes.Equal(pt, msg) {
						t.Errorf("tcId %d (%s): open = %x, %v; want %x", tc.TcID, tc.Comment, pt, err, msg)
					}
				case "invalid":
					invalid++
					if len(iv) == 0 {
						emptyIV++
					}
					if pt, err := g.open(iv, ct, aad, tag); err == nil {
						t.Errorf("tcId %d (%s): invalid case opened to %x", tc.TcID, tc.Comment, pt)
					}
				default:
					t.Fatalf("tcId %d: result %q is neither valid nor invalid", tc.TcID, tc.Result)
				}
			}
		}
		if valid+invalid != f.NumberOfTests {
			t.Errorf("ran %d cases, the file says it has %d", valid+invalid, f.NumberOfTests)
		}
		if valid == 0 || invalid == 0 {
			t.Errorf("ran %d valid and %d invalid cases; want some of each", valid, invalid)
		}
		t.Logf("%d valid, %d invalid (%d of them with an empty IV, rejected before GHASH)", valid, invalid, emptyIV)
	})
}

// TestUpdateAgainstRef calls each kernel's update directly on every length
// 0..600 at every start offset 0..15, from a random starting y, and checks
// that it absorbed exactly the whole blocks and left p alone. The same
// inputs then go through New/Write/Sum, which must equal the reference over
// the zero-padded input.
func TestUpdateAgainstRef(t *testing.T) {
	maxLen := 600
	if testing.Short() {
		maxLen = 8*BlockSize + 2*BlockSize + 15 // past the 8-block main loops, plus a tail
	}
	forEachKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, uint64(len(active.name))))
		buf := make([]byte, maxLen+16)
		for n := 0; n <= maxLen; n++ {
			h, y0 := randKey(r), randKey(r)
			d := randBytes(r, n)
			wantRaw := refUpdate(t, h, y0, d)
			wantPad := refGHASH(t, h, zeroPad(d))
			var ek expandedKey
			active.expand(&ek, &h)
			for off := 0; off < 16; off++ {
				p := buf[off : off+n]
				copy(p, d)
				y := y0
				active.update(&y, &ek, p)
				if y != wantRaw {
					t.Fatalf("update, len %d, offset %d: y = %x, want %x", n, off, y, wantRaw)
				}
				if !bytes.Equal(p, d) {
					t.Fatalf("update, len %d, offset %d: changed its input", n, off)
				}
				g := New(&h)
				g.Write(p)
				if got := g.Sum(nil); !bytes.Equal(got, wantPad[:]) {
					t.Fatalf("Hash, len %d, offset %d: Sum = %x, want %x", n, off, got, wantPad)
				}
			}
		}
	})
}

// TestSumAgainstRef compares Sum with ref.GCMGHASH over many lengths of A
// and C.
func TestSumAgainstRef(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(2, 3))
		for la := 0; la <= 50; la++ {
			for _, lc := range []int{0, 1, 15, 16, 17, 31, 32, 33, 100, 257} {
				h := randKey(r)
				a, c := randBytes(r, la), randBytes(r, lc)
				if got, want := Sum(&h, a, c), ref.GCMGHASH(h, a, c); got != want {
					t.Fatalf("len(A) = %d, len(C) = %d: Sum = %x, want %x", la, lc, got, want)
				}
			}
		}
	})
}

// TestSumKernelPath checks sum, Sum's body, with every kernel against the
// reference, for lengths that reach the 8-block main loops.
func TestSumKernelPath(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 5))
	for i := range kernels {
		k := &kernels[i]
		if !k.available {
			continue
		}
		for j := 0; j < 200; j++ {
			h := randKey(r)
			a, c := randBytes(r, r.IntN(200)), randBytes(r, r.IntN(200))
			if got, want := sum(k, &h, a, c), ref.GCMGHASH(h, a, c); got != want {
				t.Fatalf("%s: len(A) = %d, len(C) = %d: sum = %x, want %x", k.name, len(a), len(c), got, want)
			}
		}
	}
}

// TestIncrementalWrites splits inputs at random points (empty pieces
// included) and compares with one Write and with the reference.
func TestIncrementalWrites(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(6, 7))
		for i := 0; i < 300; i++ {
			h := randKey(r)
			d := randBytes(r, r.IntN(1000))
			one := New(&h)
			one.Write(d)
			want := one.Sum(nil)
			if ref := refGHASH(t, h, zeroPad(d)); !bytes.Equal(want, ref[:]) {
				t.Fatalf("one-shot, len %d: %x, want %x", len(d), want, ref)
			}
			inc := New(&h)
			for rest := d; ; {
				k := r.IntN(min(len(rest), 40) + 1)
				n, err := inc.Write(rest[:k])
				if n != k || err != nil {
					t.Fatalf("Write(%d bytes) = %d, %v", k, n, err)
				}
				rest = rest[k:]
				if len(rest) == 0 {
					break
				}
			}
			if got := inc.Sum(nil); !bytes.Equal(got, want) {
				t.Fatalf("len %d: incremental %x, one-shot %x", len(d), got, want)
			}
		}
	})
}

// TestSumKeepsState checks that Sum does not change the state: two Sums
// agree, and writing after a Sum continues the same stream.
func TestSumKeepsState(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(8, 9))
		for i := 0; i < 200; i++ {
			h := randKey(r)
			a, b := randBytes(r, r.IntN(70)), randBytes(r, r.IntN(70))
			g := New(&h)
			g.Write(a)
			s1 := g.Sum(nil)
			s2 := g.Sum([]byte("prefix"))
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
			junk, d := randBytes(r, r.IntN(50)), randBytes(r, 1+r.IntN(50))
			g := New(&h)
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
	var h [16]byte
	g := New(&h)
	if g.Size() != Size || g.BlockSize() != BlockSize || Size != 16 || BlockSize != 16 {
		t.Errorf("Size, BlockSize = %d, %d; want 16, 16", g.Size(), g.BlockSize())
	}
}

// TestHashUsesKernelAtNew checks that a Hash keeps the kernel that was
// active when it was created, whatever active becomes later, and that its
// results stay right.
func TestHashUsesKernelAtNew(t *testing.T) {
	generic := &kernels[len(kernels)-1]
	saved := active
	t.Cleanup(func() { active = saved })
	r := rand.New(rand.NewPCG(7, 8))
	for i := range kernels {
		k := &kernels[i]
		if !k.available {
			continue
		}
		h := randKey(r)
		data := randBytes(r, 8*BlockSize+5)
		active = k
		g := New(&h)
		active = generic
		if k == generic && kernels[0].available {
			active = &kernels[0]
		}
		g.Write(data)
		if g.kern != k {
			t.Fatalf("Hash kernel = %q, want %q, the kernel active at New", g.kern.name, k.name)
		}
		want := refGHASH(t, h, zeroPad(data))
		if got := g.Sum(nil); !bytes.Equal(got, want[:]) {
			t.Fatalf("%s: Sum = %x, want %x", k.name, got, want)
		}
	}
}

// TestZeroHash checks that a zero Hash, which has no key, reports an error
// and produces no output rather than panicking or hashing with H = 0.
func TestZeroHash(t *testing.T) {
	var g Hash
	if n, err := g.Write(make([]byte, 32)); err == nil || n != 0 {
		t.Errorf("Write on a zero Hash = %d, %v; want 0 and an error", n, err)
	}
	if out := g.Sum([]byte{1}); !bytes.Equal(out, []byte{1}) {
		t.Errorf("Sum on a zero Hash = %x, want its argument unchanged", out)
	}
	g.Reset()
}

// TestNilKey checks the documented behaviour for a nil key: no panic, an
// error from Write, and no output that could pass for a hash.
func TestNilKey(t *testing.T) {
	g := New(nil)
	if g != nil {
		t.Fatal("New(nil) != nil")
	}
	if n, err := g.Write([]byte("x")); n != 0 || !errors.Is(err, errNilKey) {
		t.Errorf("Write on New(nil) = %d, %v; want 0, %v", n, err, errNilKey)
	}
	if got := g.Sum([]byte("b")); string(got) != "b" {
		t.Errorf("Sum on New(nil) = %q, want b unchanged", got)
	}
	g.Reset()
	if got := Sum(nil, []byte("a"), []byte("c")); got != ([16]byte{}) {
		t.Errorf("Sum(nil, ...) = %x, want zeros", got)
	}
}

// TestGCMAgainstStdlib compares testGCM on Sum with crypto/cipher's GCM
// for random keys, nonce sizes, plaintexts and additional data.
func TestGCMAgainstStdlib(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(12, 13))
		nonceSizes := []int{12, 12, 1, 8, 13, 16, 17, 32, 64}
		for i := 0; i < 300; i++ {
			key := randBytes(r, []int{16, 24, 32}[i%3])
			nonce := randBytes(r, nonceSizes[i%len(nonceSizes)])
			pt, ad := randBytes(r, r.IntN(300)), randBytes(r, r.IntN(100))
			block, err := aes.NewCipher(key)
			if err != nil {
				t.Fatal(err)
			}
			std, err := cipher.NewGCMWithNonceSize(block, len(nonce))
			if err != nil {
				t.Fatal(err)
			}
			want := std.Seal(nil, nonce, pt, ad)
			g, err := newTestGCM(key, Sum)
			if err != nil {
				t.Fatal(err)
			}
			ct, tag, err := g.seal(nonce, pt, ad)
			if err != nil {
				t.Fatal(err)
			}
			if got := append(ct, tag[:]...); !bytes.Equal(got, want) {
				t.Fatalf("key %d bytes, nonce %d bytes, pt %d, ad %d: got %x, want %x", len(key), len(nonce), len(pt), len(ad), got, want)
			}
			// A flipped tag bit must be rejected.
			bad := tag
			bad[r.IntN(16)] ^= 1 << r.IntN(8)
			if _, err := g.open(nonce, ct, ad, bad[:]); err == nil {
				t.Fatal("open accepted a corrupted tag")
			}
		}
	})
}

// TestSumAllocs checks that Sum, Write and Hash.Sum into a large enough
// slice do not allocate.
func TestSumAllocs(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		var h [16]byte
		h[3] = 7
		a, c := make([]byte, 37), make([]byte, 100)
		if n := testing.AllocsPerRun(100, func() { Sum(&h, a, c) }); n != 0 {
			t.Errorf("Sum allocates %v times", n)
		}
		g := New(&h)
		out := make([]byte, 0, Size)
		if n := testing.AllocsPerRun(100, func() {
			g.Write(a)
			out = g.Sum(out[:0])
		}); n != 0 {
			t.Errorf("Write and Sum allocate %v times", n)
		}
	})
}

// TestDispatch checks the kernel chosen at init. If SIMDHASH_GHASH_KERNEL
// is set (by CI, which knows what the machine or emulator offers), Kernel
// must name it; otherwise it must be the first available kernel.
func TestDispatch(t *testing.T) {
	if len(kernels) == 0 || kernels[len(kernels)-1].name != genericName || !kernels[len(kernels)-1].available {
		t.Fatal("the last registered kernel must be the always-available generic one")
	}
	if want := os.Getenv("SIMDHASH_GHASH_KERNEL"); want != "" {
		if got := Kernel(); got != want {
			t.Fatalf("Kernel() = %q, but SIMDHASH_GHASH_KERNEL = %q", got, want)
		}
		return
	}
	for _, k := range kernels {
		if k.available {
			if got := Kernel(); got != k.name {
				t.Fatalf("Kernel() = %q, want %q, the first available kernel", got, k.name)
			}
			return
		}
	}
}

// fuzzKey makes a key from arbitrary fuzz bytes.
func fuzzKey(b []byte) [16]byte {
	var k [16]byte
	copy(k[:], b)
	return k
}

// FuzzGHASH compares every available kernel, through Hash with a split
// Write and through Sum, with the reference.
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
		for i := range kernels {
			k := &kernels[i]
			if !k.available {
				continue
			}
			g := newHash(k, &h)
			g.Write(data[:s])
			g.Write(data[s:])
			if got := g.Sum(nil); !bytes.Equal(got, want[:]) {
				t.Fatalf("%s: Hash = %x, want %x", k.name, got, want)
			}
			if got := sum(k, &h, data[:s], data[s:]); got != wantSum {
				t.Fatalf("%s: Sum = %x, want %x", k.name, got, wantSum)
			}
		}
		if got := sum(&kernels[len(kernels)-1], &h, data[:s], data[s:]); got != wantSum {
			t.Fatalf("generic sum = %x, want %x", got, wantSum)
		}
	})
}

// FuzzGCM compares testGCM, on every available kernel, with crypto/cipher's
// GCM.
func FuzzGCM(f *testing.F) {
	f.Add(make([]byte, 16), make([]byte, 12), []byte{}, []byte{})
	f.Add(bytes.Repeat([]byte{1}, 32), []byte{1}, []byte("plaintext"), []byte("ad"))
	f.Add(bytes.Repeat([]byte{2}, 24), make([]byte, 60), bytes.Repeat([]byte{3}, 100), []byte{})
	f.Add(bytes.Repeat([]byte{4}, 16), []byte{}, []byte("x"), []byte("y"))
	f.Fuzz(func(t *testing.T, key, nonce, pt, ad []byte) {
		sizes := []int{16, 24, 32}
		k := make([]byte, sizes[len(key)%3])
		copy(k, key)
		for i := range kernels {
			kern := &kernels[i]
			if !kern.available {
				continue
			}
			g, err := newTestGCM(k, func(h *[16]byte, a, c []byte) [16]byte { return sum(kern, h, a, c) })
			if err != nil {
				t.Fatal(err)
			}
			ct, tag, err := g.seal(nonce, pt, ad)
			if len(nonce) == 0 {
				if err == nil {
					t.Fatal("empty nonce accepted")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			block, _ := aes.NewCipher(k)
			std, err := cipher.NewGCMWithNonceSize(block, len(nonce))
			if err != nil {
				t.Fatal(err)
			}
			want := std.Seal(nil, nonce, pt, ad)
			if got := append(ct, tag[:]...); !bytes.Equal(got, want) {
				t.Fatalf("%s: got %x, want %x", kern.name, got, want)
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
			for _, d := range []byte{0xff, b, ^b} {
				x := bytes.Repeat([]byte{d}, 64)
				if got, want := Sum(&h, x, x[:17]), ref.GCMGHASH(h, x, x[:17]); got != want {
					t.Fatalf("H = %02x.., data %02x..: Sum = %x, want %x", b, d, got, want)
				}
			}
		}
	})
}
