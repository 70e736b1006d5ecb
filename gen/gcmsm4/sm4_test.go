package gcmsm4

import (
	"bytes"
	"crypto/cipher"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/emmansun/gmsm/sm4"
	"github.com/simdhash/simdhash/gcm"
	"github.com/simdhash/simdhash/internal/ref"
)

// plainBlock hides a block cipher behind the three methods of
// cipher.Block alone: no NewCTR for gcm, no NewGCM for crypto/cipher.
type plainBlock = ref.PlainBlock

func newSM4(t testing.TB, key []byte) cipher.Block {
	t.Helper()
	b, err := sm4.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// TestRFC8998 checks gcm over SM4 on the SM4-GCM test vector of RFC 8998
// (appendix A.1), over gmsm's block as it is (with its NewCTR) and hidden
// in a plainBlock.
func TestRFC8998(t *testing.T) {
	key := mustHex(t, "0123456789abcdeffedcba9876543210")
	nonce := mustHex(t, "00001234567800000000abcd")
	ad := mustHex(t, "feedfacedeadbeeffeedfacedeadbeefabaddad2")
	pt := mustHex(t, "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbbccccccccccccccccdddddddddddddddd"+
		"eeeeeeeeeeeeeeeeffffffffffffffffeeeeeeeeeeeeeeeeaaaaaaaaaaaaaaaa")
	want := mustHex(t, "17f399f08c67d5ee19d0dc9969c4bb7d5fd46fd3756489069157b282bb200735"+
		"d82710ca5c22f0ccfa7cbf93d496ac15a56834cbcf98c397b4024a2691233b8d"+
		"83de3541e4c2b58177e065a9bf7b62ec")
	for _, b := range []cipher.Block{newSM4(t, key), plainBlock{Block: newSM4(t, key)}} {
		a, err := gcm.New(b)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
			t.Errorf("%T: Seal = %x, want %x", b, got, want)
		}
		if got, err := a.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(got, pt) {
			t.Errorf("%T: Open = %x, %v; want %x", b, got, err, pt)
		}
	}
}

// TestAgainstGmsm compares gcm over SM4 (gmsm's block with its NewCTR,
// and the same in a plainBlock) with gmsm's own SM4-GCM, which
// crypto/cipher's constructors reach through gmsm's NewGCM method: random
// messages of 0 to 2100 bytes, which take the block's NewCTR from 256
// bytes on with a 12-byte nonce, and 16-byte nonces, for every tag size
// (gmsm's tag is cut where crypto/cipher cannot combine the sizes).
func TestAgainstGmsm(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, ns := range []int{12, 16} {
		for ts := 12; ts <= 16; ts++ {
			key := randBytes(r, 16)
			var std cipher.AEAD
			var err error
			if ns == 12 {
				std, err = cipher.NewGCMWithTagSize(newSM4(t, key), ts)
			} else {
				std, err = cipher.NewGCMWithNonceSize(newSM4(t, key), ns)
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range []cipher.Block{newSM4(t, key), plainBlock{Block: newSM4(t, key)}} {
				a, err := gcm.NewWithSizes(b, ns, ts)
				if err != nil {
					t.Fatal(err)
				}
				for n := 0; n <= 2100; n += 1 + r.IntN(40) {
					nonce, pt, ad := randBytes(r, ns), randBytes(r, n), randBytes(r, r.IntN(40))
					want := std.Seal(nil, nonce, pt, ad)[:n+ts]
					what := fmt.Sprintf("%T, nonce %d, tag %d, plaintext %d", b, ns, ts, n)
					got := a.Seal(nil, nonce, pt, ad)
					if !bytes.Equal(got, want) {
						t.Fatalf("%s: Seal = %x, want gmsm's %x", what, got, want)
					}
					if back, err := a.Open(nil, nonce, got, ad); err != nil || !bytes.Equal(back, pt) {
						t.Fatalf("%s: Open = %x, %v", what, back, err)
					}
				}
			}
		}
	}
}

// BenchmarkSealOpen measures Seal then Open over SM4, 12-byte nonces and
// 16-byte tags:
//
//	gcm          gcm over gmsm's block (its NewCTR from 256 bytes on)
//	gcm-plain    gcm over the block in a plainBlock (Encrypt a block at a time)
//	gmsm         gmsm's own SM4-GCM (cipher.NewGCM reaches it through gmsm's NewGCM)
//	stdlib-plain crypto/cipher's generic GCM over the plainBlock
func BenchmarkSealOpen(b *testing.B) {
	key := []byte("benchmark key 16")
	for _, impl := range []string{"gcm", "gcm-plain", "gmsm", "stdlib-plain"} {
		b.Run(impl, func(b *testing.B) {
			var blk cipher.Block = newSM4(b, key)
			if impl == "gcm-plain" || impl == "stdlib-plain" {
				blk = plainBlock{Block: blk}
			}
			var a cipher.AEAD
			var err error
			if impl == "gmsm" || impl == "stdlib-plain" {
				a, err = cipher.NewGCM(blk)
			} else {
				a, err = gcm.New(blk)
			}
			if err != nil {
				b.Fatal(err)
			}
			for _, n := range []int{64, 128, 192, 256, 384, 1024, 8192} {
				b.Run(strconv.Itoa(n), func(b *testing.B) {
					nonce, pt := make([]byte, 12), make([]byte, n)
					sealed, opened := make([]byte, 0, n+16), make([]byte, 0, n)
					b.SetBytes(int64(n))
					b.ReportAllocs()
					for range b.N {
						sealed = a.Seal(sealed[:0], nonce, pt, nil)
						if opened, err = a.Open(opened[:0], nonce, sealed, nil); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}
