package gcm

import (
	"bytes"
	"crypto/cipher"
	"crypto/des"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestTamper flips, one at a time, every bit of the ciphertext, of the
// tag and of the additional data of sealed messages, and cuts the tag
// short: Open must refuse each, return nil, and write nothing to dst (up
// to its capacity) or to its input, also when opening in place.
func TestTamper(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, ns := range []int{12, 13} {
		for _, ts := range []int{12, 16} {
			g := ours(t, randBytes(r, 16), ns, ts)
			for _, n := range []int{0, 1, 16, 33, 100} {
				nonce, pt, ad := randBytes(r, ns), randBytes(r, n), randBytes(r, []int{0, 5, 20}[n%3])
				sealed := g.Seal(nil, nonce, pt, ad)
				what := fmt.Sprintf("nonce %d, tag %d, plaintext %d, additional data %d", ns, ts, n, len(ad))
				for bit := range 8 * len(sealed) {
					bad := bytes.Clone(sealed)
					bad[bit/8] ^= 1 << (bit % 8)
					checkRejected(t, g, nonce, bad, ad, true, fmt.Sprintf("%s, sealed bit %d flipped", what, bit))
				}
				for bit := range 8 * len(ad) {
					bad := bytes.Clone(ad)
					bad[bit/8] ^= 1 << (bit % 8)
					checkRejected(t, g, nonce, bytes.Clone(sealed), bad, true, fmt.Sprintf("%s, additional data bit %d flipped", what, bit))
				}
				for cut := 1; cut <= len(sealed); cut++ {
					checkRejected(t, g, nonce, bytes.Clone(sealed[:len(sealed)-cut]), ad, true, fmt.Sprintf("%s, %d bytes cut", what, cut))
				}
				if back, err := g.Open(nil, nonce, sealed, ad); err != nil || !bytes.Equal(back, pt) {
					t.Fatalf("%s: the untampered message does not open: %x, %v", what, back, err)
				}
			}
		}
	}
}

// TestInPlace seals and opens with the output exactly over the input
// (plaintext[:0], ciphertext[:0], and behind a prefix of dst), and checks
// that the results are those of separate buffers, in the input's array.
func TestInPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, ns := range []int{12, 16} {
		g := ours(t, randBytes(r, 16), ns, 14)
		for _, n := range []int{0, 1, 15, 16, 17, 100, 511, 512, 513, 3000} {
			nonce, pt, ad := randBytes(r, ns), randBytes(r, n), randBytes(r, 7)
			want := g.Seal(nil, nonce, pt, ad)
			for _, prefix := range []int{0, 5} {
				what := fmt.Sprintf("nonce %d, plaintext %d, prefix %d", ns, n, prefix)
				buf := make([]byte, prefix+n, prefix+n+g.tagSize)
				copy(buf[:prefix], "head!")
				copy(buf[prefix:], pt)
				sealed := g.Seal(buf[:prefix], nonce, buf[prefix:], ad)
				if !bytes.Equal(sealed[prefix:], want) || !bytes.Equal(sealed[:prefix], buf[:prefix]) || !sameStart(sealed, buf) {
					t.Fatalf("%s: Seal in place = %x, want %x in the same array", what, sealed, want)
				}
				opened, err := g.Open(sealed[:prefix], nonce, sealed[prefix:], ad)
				if err != nil || !bytes.Equal(opened[prefix:], pt) || !sameStart(opened, buf) {
					t.Fatalf("%s: Open in place = %x, %v; want %x in the same array", what, opened, err, pt)
				}
			}
		}
	}
}

// sameStart reports whether a and b start at the same address.
func sameStart(a, b []byte) bool {
	return cap(a) > 0 && cap(b) > 0 && &a[:1][0] == &b[:1][0]
}

// TestOverlap checks the cases of overlapping buffers: exact overlap
// works, any other overlap of the output with the input or with the
// additional data panics, naming it; and each case panics here exactly
// when it panics in crypto/cipher's GCM over the same block.
func TestOverlap(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	key := randBytes(r, 16)
	g := ours(t, key, stdNonceSize, stdTagSize)
	std, err := cipher.NewGCM(plainBlock{Block: newAES(t, key)})
	if err != nil {
		t.Fatal(err)
	}
	const n = 40
	nonce, pt, ad := randBytes(r, stdNonceSize), randBytes(r, n), randBytes(r, 9)
	sealed := g.Seal(nil, nonce, pt, ad)
	type call struct {
		name  string
		panic string // this package's panic, or "" if the call must work
		run   func(a cipher.AEAD)
	}
	var calls []call
	for _, shift := range []int{-3, -1, 0, 1, 16} {
		// The output starts shift bytes after the input, within one array.
		calls = append(calls, call{
			fmt.Sprintf("Seal, output %+d bytes from the plaintext", shift), msgOverlapInput,
			func(a cipher.AEAD) {
				buf := make([]byte, 64+n+stdTagSize)
				in := buf[32 : 32+n]
				copy(in, pt)
				a.Seal(buf[32+shift:32+shift], nonce, in, ad)
			},
		}, call{
			fmt.Sprintf("Open, output %+d bytes from the ciphertext", shift), msgOverlapInput,
			func(a cipher.AEAD) {
				buf := make([]byte, 64+n+stdTagSize)
				in := buf[32 : 32+n+stdTagSize]
				copy(in, sealed)
				if _, err := a.Open(buf[32+shift:32+shift], nonce, in, ad); err != nil {
					panic("the message did not open: " + err.Error())
				}
			},
		})
		if shift == 0 {
			calls[len(calls)-2].panic, calls[len(calls)-1].panic = "", ""
		}
	}
	calls = append(calls, call{
		"Seal, output over the additional data", msgOverlapAddData,
		func(a cipher.AEAD) {
			buf := make([]byte, 0, n+stdTagSize)
			a.Seal(buf, nonce, pt, append(buf[n:n], ad...))
		},
	}, call{
		"Open, output over the additional data", msgOverlapAddData,
		func(a cipher.AEAD) {
			buf := make([]byte, 0, n)
			a.Open(buf, nonce, sealed, append(buf[n-len(ad):n-len(ad)], ad...))
		},
	}, call{
		"Seal, dst without room (a new array) inside the plaintext", "",
		func(a cipher.AEAD) {
			in := bytes.Clone(pt)
			a.Seal(in[1:1:2], nonce, in, ad)
		},
	})
	for _, c := range calls {
		for _, a := range []cipher.AEAD{g, std} {
			got := panicOf(func() { c.run(a) })
			mine := a == cipher.AEAD(g)
			switch {
			case c.panic == "" && got != "":
				t.Errorf("%s, %T: panicked: %s", c.name, a, got)
			case c.panic != "" && got == "":
				t.Errorf("%s, %T: did not panic", c.name, a)
			case mine && got != c.panic:
				t.Errorf("%s: panic %q, want %q", c.name, got, c.panic)
			}
		}
	}
}

// panicOf runs f and returns what it panicked with, as a string, or "".
func panicOf(f func()) (msg string) {
	defer func() {
		if e := recover(); e != nil {
			msg = fmt.Sprint(e)
			if msg == "" {
				msg = "(an empty panic)"
			}
		}
	}()
	f()
	return ""
}

// TestMisuse checks the panics of programming mistakes: a nil block, and
// a nonce of the wrong length at Seal and Open, whose message names both
// lengths. (A plaintext too long: TestLengthLimit.)
func TestMisuse(t *testing.T) {
	if got := panicOf(func() { New(nil) }); got != "gcm: nil cipher.Block" {
		t.Errorf("New(nil): panic %q", got)
	}
	if got := panicOf(func() { NewWithSizes(nil, 16, 12) }); got != "gcm: nil cipher.Block" {
		t.Errorf("NewWithSizes(nil, ...): panic %q", got)
	}
	r := rand.New(rand.NewPCG(13, 14))
	for _, ns := range []int{1, 12, 16} {
		g := ours(t, randBytes(r, 16), ns, stdTagSize)
		sealed := g.Seal(nil, randBytes(r, ns), []byte("x"), nil)
		for _, wrong := range []int{0, ns - 1, ns + 1} {
			if wrong == ns-1 && ns == 1 {
				continue
			}
			nonce := make([]byte, wrong)
			want := fmt.Sprintf("given a %d-byte nonce; this AEAD's nonces are %d bytes", wrong, ns)
			if got := panicOf(func() { g.Seal(nil, nonce, []byte("x"), nil) }); !strings.HasPrefix(got, "gcm: Seal ") || !strings.Contains(got, want) {
				t.Errorf("Seal with a %d-byte nonce, want %d: panic %q", wrong, ns, got)
			}
			if got := panicOf(func() { g.Open(nil, nonce, sealed, nil) }); !strings.HasPrefix(got, "gcm: Open ") || !strings.Contains(got, want) {
				t.Errorf("Open with a %d-byte nonce, want %d: panic %q", wrong, ns, got)
			}
		}
	}
}

// TestLengthLimit checks the limit that Seal panics beyond and Open
// refuses beyond: 2^32-2 blocks, the most whose counters do not come back
// to J0. (TestHugeMessages, where the address space allows, has Seal and
// Open meet it.)
func TestLengthLimit(t *testing.T) {
	if maxPlaintext != 68719476704 { // (2^32-2) * 16
		t.Fatalf("maxPlaintext = %d", uint64(maxPlaintext))
	}
	for _, n := range []int{0, 1, 1 << 20, math.MaxInt32} {
		if tooLong(n) {
			t.Errorf("tooLong(%d) = true", n)
		}
	}
	big, ok := maxPlaintextInt()
	if !ok {
		t.Logf("int has %d bits: no int is over the limit", bits.UintSize)
		return
	}
	for _, c := range []struct {
		n    int
		long bool
	}{{big - 1, false}, {big, false}, {big + 1, true}, {big + 16, true}, {math.MaxInt, true}} {
		if got := tooLong(c.n); got != c.long {
			t.Errorf("tooLong(%d) = %v, want %v", c.n, got, c.long)
		}
	}
}

// maxPlaintextInt returns maxPlaintext as an int, if an int is wider (a
// 64-bit int). It converts a variable, so that 32-bit builds compile it.
func maxPlaintextInt() (int, bool) {
	limit := uint64(maxPlaintext)
	if uint64(math.MaxInt) <= limit {
		return 0, false
	}
	return int(limit), true
}

// TestConstructors checks the constructors' errors, for every kind of
// block: a block size other than 16 bytes, a nonce size below 1, a tag
// size outside 12..16; and the sizes of what they return.
func TestConstructors(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	d, err := des.NewCipher(randBytes(r, 8))
	if err != nil {
		t.Fatal(err)
	}
	aesKey := randBytes(r, 16)
	for _, c := range []struct {
		b         cipher.Block
		nonceSize int
		tagSize   int
		err       string // "" if it must succeed
	}{
		{d, 12, 16, "gcm: the block cipher's blocks are 8 bytes; GCM needs 16"},
		{plainBlock{Block: d}, 16, 12, "gcm: the block cipher's blocks are 8 bytes; GCM needs 16"},
		{sizedBlock(32), 12, 16, "gcm: the block cipher's blocks are 32 bytes; GCM needs 16"},
		{newAES(t, aesKey), 0, 16, "gcm: nonce size 0 bytes: GCM's nonces are at least 1 byte"},
		{plainBlock{Block: newAES(t, aesKey)}, -1, 16, "gcm: nonce size -1 bytes: GCM's nonces are at least 1 byte"},
		{plainBlock{Block: newAES(t, aesKey)}, 12, 11, "gcm: tag size 11 bytes: GCM's tags are 12 to 16 bytes"},
		{newAES(t, aesKey), 12, 17, "gcm: tag size 17 bytes: GCM's tags are 12 to 16 bytes"},
		{newAES(t, aesKey), 16, 0, "gcm: tag size 0 bytes: GCM's tags are 12 to 16 bytes"},
		{plainBlock{Block: newAES(t, aesKey)}, 1, 12, ""},
		{plainBlock{Block: newAES(t, aesKey)}, 1000, 16, ""},
		{newAES(t, aesKey), 1, 12, ""},
	} {
		what := fmt.Sprintf("NewWithSizes(%T, %d, %d)", c.b, c.nonceSize, c.tagSize)
		a, err := NewWithSizes(c.b, c.nonceSize, c.tagSize)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err || a != nil):
			t.Errorf("%s = %T, %v; want nil, %q", what, a, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", what, err)
		case c.err == "" && (a.NonceSize() != c.nonceSize || a.Overhead() != c.tagSize):
			t.Errorf("%s: NonceSize, Overhead = %d, %d", what, a.NonceSize(), a.Overhead())
		}
	}
	if a, err := New(d); err == nil || a != nil {
		t.Errorf("New(DES) = %T, %v; want an error", a, err)
	}
	if a, err := New(plainBlock{Block: newAES(t, aesKey)}); err != nil || a.NonceSize() != 12 || a.Overhead() != 16 {
		t.Errorf("New = %T, %v; want 12-byte nonces and 16-byte tags", a, err)
	}
}

// sizedBlock is a block cipher that claims blocks of its own size; it
// never encrypts.
type sizedBlock int

func (s sizedBlock) BlockSize() int    { return int(s) }
func (sizedBlock) Encrypt(_, _ []byte) { panic("sizedBlock: Encrypt") }
func (sizedBlock) Decrypt(_, _ []byte) { panic("sizedBlock: Decrypt") }

// TestAllocs checks that Seal and Open into a buffer with room allocate
// nothing, for several lengths and nonce sizes. (The race detector's
// sync.Pool drops a quarter of what it is given, on purpose: the test is
// skipped there.)
func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("under -race, sync.Pool drops items at random, and the scratch space is allocated again")
	}
	r := rand.New(rand.NewPCG(17, 18))
	for _, ns := range []int{12, 13} {
		for _, ts := range []int{12, 16} {
			g := ours(t, randBytes(r, 16), ns, ts)
			for _, n := range []int{0, 64, 1024, 8192} {
				nonce, pt, ad := randBytes(r, ns), randBytes(r, n), randBytes(r, 13)
				sealed := make([]byte, 0, n+ts)
				opened := make([]byte, 0, n)
				sealed = g.Seal(sealed, nonce, pt, ad)
				seal := testing.AllocsPerRun(50, func() { g.Seal(sealed[:0], nonce, pt, ad) })
				open := testing.AllocsPerRun(50, func() {
					if _, err := g.Open(opened, nonce, sealed, ad); err != nil {
						t.Fatal(err)
					}
				})
				if seal != 0 || open != 0 {
					t.Errorf("nonce %d, tag %d, %d bytes: Seal makes %v allocations, Open %v; want 0", ns, ts, n, seal, open)
				}
			}
		}
	}
}

// ctrBlock is AES behind a plainBlock with a NewCTR method, as gmsm's SM4
// has: its stream is crypto/cipher's generic CTR mode over the plainBlock
// (a 128-bit counter). It records the IVs it was given.
type ctrBlock struct {
	plainBlock
	ivs *[][]byte
}

func (c ctrBlock) NewCTR(iv []byte) cipher.Stream {
	*c.ivs = append(*c.ivs, bytes.Clone(iv))
	return cipher.NewCTR(c.plainBlock, iv)
}

// TestStream checks the use of a block's own NewCTR: only for a 12-byte
// nonce and a message of streamMin bytes or more, once, from inc32(J0) =
// nonce || 2; never for another nonce size, including a nonce whose
// counter wraps (Wycheproof's tcId 84, J0 = 00010203..0bfffffd, where the
// stream's 128-bit counter would be wrong). Every result must be
// internal/ref's.
func TestStream(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	wrapKey, wrapNonce := wycheproofCase(t, 84, "J0:000102030405060708090a0bfffffffd")
	for _, key := range [][]byte{randBytes(r, 16), wrapKey} {
		var ivs [][]byte
		b := ctrBlock{plainBlock{Block: newAES(t, key)}, &ivs}
		for _, ns := range []int{12, 16} {
			for _, ts := range []int{12, 16} {
				g := mustNew(t, b, ns, ts)
				if g.(*aead).ctr == nil {
					t.Fatal("a block with NewCTR: the AEAD does not have its stream")
				}
				for _, n := range []int{0, 1, streamMin - 1, streamMin, streamMin + 1, 1000, 5000} {
					nonce, pt, ad := randBytes(r, ns), randBytes(r, n), randBytes(r, 5)
					if ns == len(wrapNonce) && bytes.Equal(key, wrapKey) {
						nonce = wrapNonce
					}
					what := fmt.Sprintf("nonce %x, tag %d, plaintext %d", nonce, ts, n)
					ivs = nil
					checkSealOpen(t, g, nonce, pt, ad, refSeal(t, b.plainBlock, nonce, pt, ad, ts), what)
					wantIV := append(bytes.Clone(nonce), 0, 0, 0, 2)
					switch {
					case ns == stdNonceSize && n >= streamMin:
						if len(ivs) != 2 || !bytes.Equal(ivs[0], wantIV) || !bytes.Equal(ivs[1], wantIV) {
							t.Errorf("%s: NewCTR IVs %x; want %x once for Seal and once for Open", what, ivs, wantIV)
						}
					case len(ivs) != 0:
						t.Errorf("%s: NewCTR called with %x; want no call", what, ivs)
					}
				}
			}
		}
	}
}
