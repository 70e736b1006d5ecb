package ref

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/simdhash/simdhash/internal/testvectors"
)

// TestGCMWycheproof runs every Wycheproof AES-GCM case through NewGCM:
// valid cases must seal to their ciphertext and tag and open; invalid
// ones (modified tags, empty IVs) must not open. The counter-wrap cases
// (flag CounterWrap) have J0s whose low word wraps within the message.
func TestGCMWycheproof(t *testing.T) {
	f, err := testvectors.WycheproofAEAD("aes_gcm_test.json")
	if err != nil {
		t.Fatal(err)
	}
	var valid, invalid, wraps int
	for _, grp := range f.Groups {
		for _, tc := range grp.Tests {
			b, err := aes.NewCipher(tc.Key)
			if err != nil {
				t.Fatal(err)
			}
			g := NewGCM(b)
			if !tc.Valid {
				invalid++
				if pt, err := g.Open(tc.IV, tc.CT, tc.AAD, tc.Tag); err == nil {
					t.Errorf("tcId %d (%s): invalid case opened to %x", tc.TcID, tc.Comment, pt)
				}
				continue
			}
			valid++
			for _, flag := range tc.Flags {
				if flag == "CounterWrap" {
					wraps++
				}
			}
			ct, tag, err := g.Seal(tc.IV, tc.Msg, tc.AAD)
			if err != nil || !bytes.Equal(ct, tc.CT) || !bytes.Equal(tag[:], tc.Tag) {
				t.Errorf("tcId %d (%s): Seal = %x %x, %v; want %x %x", tc.TcID, tc.Comment, ct, tag, err, tc.CT, tc.Tag)
			}
			if pt, err := g.Open(tc.IV, tc.CT, tc.AAD, tc.Tag); err != nil || !bytes.Equal(pt, tc.Msg) {
				t.Errorf("tcId %d (%s): Open = %x, %v; want %x", tc.TcID, tc.Comment, pt, err, tc.Msg)
			}
		}
	}
	if valid == 0 || invalid == 0 || wraps == 0 {
		t.Errorf("%d valid cases (%d with a counter wrap), %d invalid; want some of each", valid, wraps, invalid)
	}
}

// TestGCMAgainstStdlib compares NewGCM, and so GCMGHASH, with
// crypto/cipher's AES-GCM, an oracle that shares no code with this
// package, for random keys, IV sizes and lengths; and its Open with tags
// cut short.
func TestGCMAgainstStdlib(t *testing.T) {
	r := rand.New(rand.NewPCG(40, 41))
	for i := 0; i < 100; i++ {
		key, iv := randBytes(r, 16+8*(i%3)), randBytes(r, []int{12, 1, 16, 33}[i%4])
		pt, a := randBytes(r, r.IntN(100)), randBytes(r, r.IntN(70))
		b, err := aes.NewCipher(key)
		if err != nil {
			t.Fatal(err)
		}
		std, err := cipher.NewGCMWithNonceSize(b, len(iv))
		if err != nil {
			t.Fatal(err)
		}
		g := NewGCM(b)
		ct, tag, err := g.Seal(iv, pt, a)
		if want := std.Seal(nil, iv, pt, a); err != nil || !bytes.Equal(append(ct, tag[:]...), want) {
			t.Fatalf("IV %d bytes, pt %d, a %d: Seal = %x %x, %v; want %x", len(iv), len(pt), len(a), ct, tag, err, want)
		}
		short := tag[:12]
		if got, err := g.Open(iv, ct, a, short); err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("Open with a 12-byte tag = %x, %v; want %x", got, err, pt)
		}
		short[r.IntN(12)] ^= 1 << r.IntN(8)
		if _, err := g.Open(iv, ct, a, short); !errors.Is(err, ErrGCMOpen) {
			t.Fatalf("Open with a flipped tag bit: err = %v, want ErrGCMOpen", err)
		}
	}
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}
