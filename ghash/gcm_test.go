package ghash

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"math/rand/v2"
	"testing"

	"github.com/simdhash/simdhash/internal/ref"
	"github.com/simdhash/simdhash/internal/testvectors"
)

// ghashAPI is how a test GCM computes GCM's GHASH from H with kernel k.
type ghashAPI int

const (
	viaKey     ghashAPI = iota // NewKey, then Key.SumGCM
	viaOneShot                 // SumGCM
)

func (api ghashAPI) String() string { return [...]string{"Key.SumGCM", "SumGCM"}[api] }

// newTestGCM returns internal/ref's GCM (SP 800-38D section 7, composed
// step by step, with the inc32 counter, so that it is GCM for every IV
// length) over AES with key, and with the GHASH under test: kernel k
// through api. So complete AEAD test vectors check GHASH.
func newTestGCM(key []byte, k *kernel, api ghashAPI) (ref.GCM, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return ref.GCM{}, err
	}
	var h [16]byte
	b.Encrypt(h[:], h[:])
	g := ref.GCM{Block: b}
	switch api {
	case viaKey:
		hk := newKey(k, &h)
		g.GHASH = hk.SumGCM
	case viaOneShot:
		g.GHASH = func(a, c []byte) [16]byte { return sumGCMOnce(k, &h, a, c) }
	}
	return g, nil
}

// TestWycheproofGCM runs every Wycheproof AES-GCM case through a test GCM
// built on a Key (and, separately, on SumGCM) with every kernel: valid
// cases must reproduce the ciphertext and tag and decrypt; invalid ones
// must be rejected.
func TestWycheproofGCM(t *testing.T) {
	f, err := testvectors.WycheproofAEAD("aes_gcm_test.json")
	if err != nil {
		t.Fatal(err)
	}
	forEachKernel(t, func(t *testing.T) {
		for _, api := range []ghashAPI{viaKey, viaOneShot} {
			var valid, invalid, emptyIV int
			for _, grp := range f.Groups {
				for _, tc := range grp.Tests {
					g, err := newTestGCM(tc.Key, active, api)
					if err != nil {
						t.Fatalf("tcId %d: %v", tc.TcID, err)
					}
					if !tc.Valid {
						invalid++
						if len(tc.IV) == 0 {
							emptyIV++
						}
						if pt, err := g.Open(tc.IV, tc.CT, tc.AAD, tc.Tag); err == nil {
							t.Errorf("%s, tcId %d (%s): invalid case opened to %x", api, tc.TcID, tc.Comment, pt)
						}
						continue
					}
					valid++
					gotCT, gotTag, err := g.Seal(tc.IV, tc.Msg, tc.AAD)
					if err != nil {
						t.Errorf("%s, tcId %d (%s): seal: %v", api, tc.TcID, tc.Comment, err)
						continue
					}
					if !bytes.Equal(gotCT, tc.CT) || !bytes.Equal(gotTag[:len(tc.Tag)], tc.Tag) {
						t.Errorf("%s, tcId %d (%s): seal = %x %x, want %x %x", api, tc.TcID, tc.Comment, gotCT, gotTag[:len(tc.Tag)], tc.CT, tc.Tag)
					}
					pt, err := g.Open(tc.IV, tc.CT, tc.AAD, tc.Tag)
					if err != nil || !bytes.Equal(pt, tc.Msg) {
						t.Errorf("%s, tcId %d (%s): open = %x, %v; want %x", api, tc.TcID, tc.Comment, pt, err, tc.Msg)
					}
				}
			}
			if valid+invalid != f.NumberOfTests {
				t.Errorf("%s: ran %d cases, the file says it has %d", api, valid+invalid, f.NumberOfTests)
			}
			if valid == 0 || invalid == 0 {
				t.Errorf("%s: ran %d valid and %d invalid cases; want some of each", api, valid, invalid)
			}
			t.Logf("%s: %d valid, %d invalid (%d of them with an empty IV, rejected before GHASH)", api, valid, invalid, emptyIV)
		}
	})
}

// TestGCMAgainstStdlib compares a test GCM on a Key with crypto/cipher's GCM
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
			g, err := newTestGCM(key, active, ghashAPI(i%2))
			if err != nil {
				t.Fatal(err)
			}
			ct, tag, err := g.Seal(nonce, pt, ad)
			if err != nil {
				t.Fatal(err)
			}
			if got := append(ct, tag[:]...); !bytes.Equal(got, want) {
				t.Fatalf("key %d bytes, nonce %d bytes, pt %d, ad %d: got %x, want %x", len(key), len(nonce), len(pt), len(ad), got, want)
			}
			// A flipped tag bit must be rejected.
			bad := tag
			bad[r.IntN(16)] ^= 1 << r.IntN(8)
			if _, err := g.Open(nonce, ct, ad, bad[:]); err == nil {
				t.Fatal("open accepted a corrupted tag")
			}
		}
	})
}

// FuzzGCM compares a test GCM, on every available kernel and both APIs, with
// crypto/cipher's GCM.
func FuzzGCM(f *testing.F) {
	f.Add(make([]byte, 16), make([]byte, 12), []byte{}, []byte{})
	f.Add(bytes.Repeat([]byte{1}, 32), []byte{1}, []byte("plaintext"), []byte("ad"))
	f.Add(bytes.Repeat([]byte{2}, 24), make([]byte, 60), bytes.Repeat([]byte{3}, 100), []byte{})
	f.Add(bytes.Repeat([]byte{4}, 16), []byte{}, []byte("x"), []byte("y"))
	f.Fuzz(func(t *testing.T, key, nonce, pt, ad []byte) {
		sizes := []int{16, 24, 32}
		k := make([]byte, sizes[len(key)%3])
		copy(k, key)
		for _, kern := range availableKernels() {
			for _, api := range []ghashAPI{viaKey, viaOneShot} {
				g, err := newTestGCM(k, kern, api)
				if err != nil {
					t.Fatal(err)
				}
				ct, tag, err := g.Seal(nonce, pt, ad)
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
					t.Fatalf("%s, %s: got %x, want %x", kern.name, api, got, want)
				}
			}
		}
	})
}
