package gcm

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/simdhash/simdhash/ghash"
	"github.com/simdhash/simdhash/internal/ref"
	"github.com/simdhash/simdhash/internal/testvectors"
)

// plainBlock hides a block cipher behind a type with the three methods of
// cipher.Block alone, so that crypto/cipher and this package take their
// generic paths for it (no crypto/aes recognition, no NewCTR).
type plainBlock = ref.PlainBlock

func newAES(t testing.TB, key []byte) cipher.Block {
	t.Helper()
	b, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustNew(t testing.TB, b cipher.Block, nonceSize, tagSize int) cipher.AEAD {
	t.Helper()
	a, err := NewWithSizes(b, nonceSize, tagSize)
	if err != nil {
		t.Fatalf("NewWithSizes(%T, %d, %d): %v", b, nonceSize, tagSize, err)
	}
	return a
}

// ours returns this package's GCM over AES with key, through a
// plainBlock, and fails unless it is this package's code.
func ours(t testing.TB, key []byte, nonceSize, tagSize int) *aead {
	t.Helper()
	a, ok := mustNew(t, plainBlock{Block: newAES(t, key)}, nonceSize, tagSize).(*aead)
	if !ok {
		t.Fatal("NewWithSizes over a plainBlock did not return this package's GCM")
	}
	return a
}

// refSeal returns what Seal must: internal/ref's GCM (SP 800-38D step by
// step, its bit-serial GHASH, an inc32 counter a block at a time) over b,
// with the tag cut to tagSize bytes.
func refSeal(t testing.TB, b cipher.Block, nonce, pt, ad []byte, tagSize int) []byte {
	t.Helper()
	ct, tag, err := ref.NewGCM(b).Seal(nonce, pt, ad)
	if err != nil {
		t.Fatal(err)
	}
	return append(ct, tag[:tagSize]...)
}

// stdSeal returns crypto/cipher's GCM over b, sealed, with the tag cut to
// tagSize bytes: NewGCMWithTagSize for a 12-byte nonce, otherwise
// NewGCMWithNonceSize, whose 16-byte tag SP 800-38D truncates.
func stdSeal(t testing.TB, b cipher.Block, nonce, pt, ad []byte, tagSize int) []byte {
	t.Helper()
	var std cipher.AEAD
	var err error
	if len(nonce) == stdNonceSize {
		std, err = cipher.NewGCMWithTagSize(b, tagSize)
	} else {
		std, err = cipher.NewGCMWithNonceSize(b, len(nonce))
	}
	if err != nil {
		t.Fatal(err)
	}
	s := std.Seal(nil, nonce, pt, ad)
	return s[:len(pt)+tagSize]
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// checkSealOpen seals pt with a, compares the result with want, and opens
// it again.
func checkSealOpen(t testing.TB, a cipher.AEAD, nonce, pt, ad, want []byte, what string) {
	t.Helper()
	got := a.Seal(nil, nonce, pt, ad)
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: Seal = %x, want %x", what, got, want)
	}
	back, err := a.Open(nil, nonce, got, ad)
	if err != nil || !bytes.Equal(back, pt) {
		t.Fatalf("%s: Open = %x, %v; want the plaintext %x", what, back, err, pt)
	}
}

// TestDispatch checks, when SIMDHASH_GHASH_KERNEL is set (the emulated and
// GODEBUG runs of make test set it), that ghash chose that kernel, so that
// the run tests this package on the kernel it is meant to.
func TestDispatch(t *testing.T) {
	want := os.Getenv("SIMDHASH_GHASH_KERNEL")
	if want == "" {
		t.Skipf("SIMDHASH_GHASH_KERNEL is not set; ghash chose %q (ghash's TestDispatch checks the choice)", ghash.Kernel())
	}
	if got := ghash.Kernel(); got != want {
		t.Fatalf("ghash.Kernel() = %q, but SIMDHASH_GHASH_KERNEL calls for %q", got, want)
	}
	t.Logf("ghash.Kernel() = %q", want)
}

// nonceSizes and the tag sizes 12..16 are the sizes the random tests
// combine.
var nonceSizes = []int{1, 8, 12, 13, 16, 64}

// lengths returns the message lengths of the random tests: every
// length from 0 to 600, and those around 4 KiB and 64 KiB; under -short,
// every length to 300, then one in 7, and a few at 4 and 64 KiB.
func lengths() []int {
	var ls []int
	for n := 0; n <= 600; n++ {
		if !testing.Short() || n <= 300 || n%7 == 0 {
			ls = append(ls, n)
		}
	}
	for _, base := range []int{4096, 65536} {
		for n := base - 17; n <= base+17; n++ {
			if !testing.Short() || n == base-1 || n == base+1 {
				ls = append(ls, n)
			}
		}
	}
	return ls
}

// TestAgainstReference seals random messages with this package's GCM over
// AES (through a plainBlock), with every nonce size of nonceSizes and
// every tag size, and compares each result with internal/ref's GCM and
// with crypto/cipher's GCM over the same block; then opens it. Each
// length takes the next size combination in turn, so that every length
// meets several.
func TestAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var keys [3][]byte
	for i := range keys {
		keys[i] = randBytes(r, 16+8*i)
	}
	combos := len(nonceSizes) * 5
	aeads := make([]*aead, 0, combos*len(keys))
	for _, key := range keys {
		for _, ns := range nonceSizes {
			for ts := minTagSize; ts <= stdTagSize; ts++ {
				aeads = append(aeads, ours(t, key, ns, ts))
			}
		}
	}
	ls := lengths()
	perLength := 3
	if testing.Short() {
		perLength = 1
	}
	i := 0
	for _, n := range ls {
		for range perLength {
			g := aeads[i%len(aeads)]
			i++
			nonce, pt := randBytes(r, g.nonceSize), randBytes(r, n)
			ad := randBytes(r, []int{0, 1, 13, 16, 40, 300}[i%6])
			what := fmt.Sprintf("nonce %d bytes, tag %d, plaintext %d, additional data %d", g.nonceSize, g.tagSize, n, len(ad))
			want := refSeal(t, g.block, nonce, pt, ad, g.tagSize)
			if std := stdSeal(t, g.block, nonce, pt, ad, g.tagSize); !bytes.Equal(std, want) {
				t.Fatalf("%s: the references disagree: crypto/cipher %x, internal/ref %x", what, std, want)
			}
			checkSealOpen(t, g, nonce, pt, ad, want, what)
		}
	}
	t.Logf("%d messages of %d lengths", i, len(ls))
}

// TestWycheproof runs every Wycheproof AES-GCM case through this
// package's GCM over AES in a plainBlock (its own code) and over a bare
// crypto/aes block (crypto/cipher's AES-GCM, or for sizes crypto/cipher
// cannot combine, its own code again). The file's tags are all 16 bytes;
// each valid case is also sealed and opened with its tag cut to 12..15
// bytes, whose right value SP 800-38D defines as the tag's prefix. An
// invalid case must fail to open, and, through this package's code, leave
// dst untouched; an empty nonce must be refused by the constructor.
func TestWycheproof(t *testing.T) {
	f, err := testvectors.WycheproofAEAD("aes_gcm_test.json")
	if err != nil {
		t.Fatal(err)
	}
	var valid, invalid, refused, wraps int
	for _, grp := range f.Groups {
		for _, tc := range grp.Tests {
			bare := newAES(t, tc.Key)
			for _, b := range []cipher.Block{plainBlock{Block: bare}, bare} {
				what := fmt.Sprintf("tcId %d (%s), %T", tc.TcID, tc.Comment, b)
				if len(tc.IV) == 0 {
					if a, err := NewWithSizes(b, 0, stdTagSize); err == nil || a != nil {
						t.Errorf("%s: NewWithSizes accepted an empty nonce", what)
					}
					refused++
					continue
				}
				a := mustNew(t, b, len(tc.IV), stdTagSize)
				if !tc.Valid {
					invalid++
					_, ourCode := a.(*aead)
					checkRejected(t, a, tc.IV, append(bytes.Clone(tc.CT), tc.Tag...), tc.AAD, ourCode, what)
					continue
				}
				valid++
				if hasFlag(tc.Flags, "CounterWrap") {
					wraps++
				}
				for ts := stdTagSize; ts >= minTagSize; ts-- {
					a := a
					if ts != stdTagSize {
						a = mustNew(t, b, len(tc.IV), ts)
					}
					want := append(bytes.Clone(tc.CT), tc.Tag[:ts]...)
					checkSealOpen(t, a, tc.IV, tc.Msg, tc.AAD, want, fmt.Sprintf("%s, tag %d bytes", what, ts))
				}
			}
		}
	}
	if valid+invalid+refused != 2*f.NumberOfTests {
		t.Errorf("ran %d cases twice over, the file has %d", (valid+invalid+refused)/2, f.NumberOfTests)
	}
	if valid == 0 || invalid == 0 || refused == 0 || wraps == 0 {
		t.Errorf("%d valid (%d with a counter wrap), %d invalid, %d refused: want some of each", valid, wraps, invalid, refused)
	}
}

// wycheproofCase returns the key and IV of the Wycheproof AES-GCM case
// tcID, and fails unless its comment is comment.
func wycheproofCase(t testing.TB, tcID int, comment string) (key, iv []byte) {
	t.Helper()
	f, err := testvectors.WycheproofAEAD("aes_gcm_test.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, grp := range f.Groups {
		for _, tc := range grp.Tests {
			if tc.TcID == tcID {
				if tc.Comment != comment {
					t.Fatalf("Wycheproof tcId %d is %q, want %q", tcID, tc.Comment, comment)
				}
				return tc.Key, tc.IV
			}
		}
	}
	t.Fatalf("Wycheproof has no tcId %d", tcID)
	return nil, nil
}

func hasFlag(flags []string, f string) bool {
	for _, g := range flags {
		if g == f {
			return true
		}
	}
	return false
}

// checkRejected checks that Open refuses sealed: it returns nil and an
// error, and, when untouched is set, leaves every byte of dst up to its
// capacity as it was, and sealed too (also when opened in place).
func checkRejected(t testing.TB, a cipher.AEAD, nonce, sealed, ad []byte, untouched bool, what string) {
	t.Helper()
	dst := bytes.Repeat([]byte{0xa5}, 3+len(sealed)+32)[:3]
	canary := bytes.Clone(dst[:cap(dst)])
	before := bytes.Clone(sealed)
	got, err := a.Open(dst, nonce, sealed, ad)
	if err == nil || got != nil {
		t.Fatalf("%s: Open of a bad message = %x, %v; want nil and an error", what, got, err)
	}
	if !untouched {
		return
	}
	if !bytes.Equal(dst[:cap(dst)], canary) {
		t.Fatalf("%s: a failed Open wrote to dst's capacity: %x", what, dst[:cap(dst)])
	}
	if got, err := a.Open(sealed[:0], nonce, sealed, ad); err == nil || got != nil {
		t.Fatalf("%s: Open in place of a bad message = %x, %v; want nil and an error", what, got, err)
	}
	if !bytes.Equal(sealed, before) {
		t.Fatalf("%s: a failed Open changed its input", what)
	}
}

// TestDelegation checks which constructor calls return crypto/cipher's
// AES-GCM for a bare crypto/aes block (the sizes crypto/cipher offers)
// and which return this package's GCM (a plainBlock; both sizes custom),
// and that the two give the same bytes for random messages, each opening
// what the other sealed.
func TestDelegation(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, ns := range nonceSizes {
		for ts := minTagSize; ts <= stdTagSize; ts++ {
			key := randBytes(r, []int{16, 24, 32}[(ns+ts)%3])
			bare := newAES(t, key)
			var d cipher.AEAD
			if ns == stdNonceSize && ts == stdTagSize {
				var err error
				if d, err = New(bare); err != nil {
					t.Fatal(err)
				}
			} else {
				d = mustNew(t, bare, ns, ts)
			}
			_, ourCode := d.(*aead)
			if want := ns != stdNonceSize && ts != stdTagSize; ourCode != want {
				t.Errorf("nonce %d, tag %d: a crypto/aes block got this package's code: %v, want %v", ns, ts, ourCode, want)
			}
			if d.NonceSize() != ns || d.Overhead() != ts {
				t.Errorf("nonce %d, tag %d: NonceSize, Overhead = %d, %d", ns, ts, d.NonceSize(), d.Overhead())
			}
			o := ours(t, key, ns, ts)
			for _, n := range []int{0, 1, 16, 63, 64, 255, 256, 1000} {
				nonce, pt, ad := randBytes(r, ns), randBytes(r, n), randBytes(r, n%50)
				what := fmt.Sprintf("nonce %d, tag %d, plaintext %d", ns, ts, n)
				want := o.Seal(nil, nonce, pt, ad)
				checkSealOpen(t, d, nonce, pt, ad, want, what)
				if back, err := o.Open(nil, nonce, d.Seal(nil, nonce, pt, ad), ad); err != nil || !bytes.Equal(back, pt) {
					t.Fatalf("%s: this package's Open of crypto/cipher's Seal = %x, %v", what, back, err)
				}
			}
		}
	}
}

// TestCounterWrap checks the 32-bit counter where it wraps. First the
// batches alone: from a counter block whose low word is 0xfffffffd, each
// batch size's key stream must be E(K, cb), E(K, inc32(cb)), ... as a loop
// of Encrypt calls makes it, wrapping to 0 without a carry into the
// nonce's bytes. Then whole messages under the 16-byte nonces of
// Wycheproof's CounterWrap cases, whose J0s end in 0xffffffff,
// 0xfffffffe, 0xfffffffd, 0x7fffffff, ... (checked here with
// internal/ref's GHASH): long random messages, every tag size, against
// internal/ref's GCM and crypto/cipher's (whose generic GCM also
// increments 32 bits).
func TestCounterWrap(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	g := ours(t, randBytes(r, 16), stdNonceSize, stdTagSize)
	start := [blockSize]byte([]byte("prefix-bytes\xff\xff\xff\xfd"))
	for nb := 1; nb <= batchBlocks; nb++ {
		k := keystream{g: g, buf: new(scratch), cb: start}
		got := k.batch(nb)
		cb := start
		for i := range nb {
			var want [blockSize]byte
			g.block.Encrypt(want[:], cb[:])
			if !bytes.Equal(got[i*blockSize:(i+1)*blockSize], want[:]) {
				t.Fatalf("batch of %d: block %d (counter %x) is %x, want %x", nb, i, cb, got[i*blockSize:(i+1)*blockSize], want)
			}
			binary.BigEndian.PutUint32(cb[12:], binary.BigEndian.Uint32(cb[12:])+1)
		}
		if k.cb != cb {
			t.Fatalf("batch of %d: next counter %x, want %x", nb, k.cb, cb)
		}
	}

	f, err := testvectors.WycheproofAEAD("aes_gcm_test.json")
	if err != nil {
		t.Fatal(err)
	}
	lens := []int{0, 15, 16, 17, 40, 48, 64, 100, 511, 512, 513, 4100}
	if testing.Short() {
		lens = []int{40, 64, 513}
	}
	wrapped, lows := 0, map[uint32]bool{}
	for _, grp := range f.Groups {
		for _, tc := range grp.Tests {
			if !hasFlag(tc.Flags, "CounterWrap") {
				continue
			}
			b := newAES(t, tc.Key)
			var h [blockSize]byte
			b.Encrypt(h[:], h[:])
			j0 := ref.GCMGHASH(h, nil, tc.IV)
			low := binary.BigEndian.Uint32(j0[12:])
			lows[low] = true
			for i, n := range lens {
				ts := minTagSize + i%5
				a := ours(t, tc.Key, len(tc.IV), ts)
				if uint64(low)+uint64(blocks(n)) > 1<<32-1 {
					wrapped++
				}
				pt, ad := randBytes(r, n), randBytes(r, i*3)
				what := fmt.Sprintf("tcId %d (J0 %x), plaintext %d, tag %d", tc.TcID, j0, n, ts)
				want := refSeal(t, b, tc.IV, pt, ad, ts)
				if std := stdSeal(t, b, tc.IV, pt, ad, ts); !bytes.Equal(std, want) {
					t.Fatalf("%s: the references disagree: crypto/cipher %x, internal/ref %x", what, std, want)
				}
				checkSealOpen(t, a, tc.IV, pt, ad, want, what)
			}
		}
	}
	for _, low := range []uint32{0xffffffff, 0xfffffffe, 0xfffffffd} {
		if !lows[low] || wrapped == 0 {
			t.Fatalf("no CounterWrap nonce has a J0 ending in %08x, or no message wrapped (%d did): the file is not what this test expects", low, wrapped)
		}
	}
	t.Logf("%d messages wrapped their counter", wrapped)
}
