package ghash

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/simdhash/simdhash/internal/testvectors"
)

// testGCM is GCM (SP 800-38D section 7) composed in this test from a block
// cipher and a GHASH function, so that GHASH can be checked against
// complete AEAD test vectors. It increments the counter as inc32 does, so
// that it is GCM for every IV length.
type testGCM struct {
	block cipher.Block
	ghash func(a, c []byte) [16]byte // GCM's GHASH under the cipher's H
}

// ghashAPI is how a testGCM computes GCM's GHASH from H with kernel k.
type ghashAPI int

const (
	viaKey     ghashAPI = iota // NewKey, then Key.SumGCM
	viaOneShot                 // SumGCM
)

func (api ghashAPI) String() string { return [...]string{"Key.SumGCM", "SumGCM"}[api] }

var errTestGCM = errors.New("testGCM: message authentication failed")

func newTestGCM(key []byte, k *kernel, api ghashAPI) (*testGCM, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	var h [16]byte
	b.Encrypt(h[:], h[:])
	g := &testGCM{block: b}
	switch api {
	case viaKey:
		hk := newKey(k, &h)
		g.ghash = hk.SumGCM
	case viaOneShot:
		g.ghash = func(a, c []byte) [16]byte { return sumGCMOnce(k, &h, a, c) }
	}
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
		return g.ghash(nil, iv), nil
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
	s := g.ghash(a, c)
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
// built on a Key (and, separately, on SumGCM) with every kernel: valid
// cases must reproduce the ciphertext and tag and decrypt; invalid ones
// must be rejected.
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
		for _, api := range []ghashAPI{viaKey, viaOneShot} {
			var valid, invalid, emptyIV int
			for _, grp := range f.TestGroups {
				for _, tc := range grp.Tests {
					key, iv, aad := mustHex(t, tc.Key), mustHex(t, tc.IV), mustHex(t, tc.AAD)
					msg, ct, tag := mustHex(t, tc.Msg), mustHex(t, tc.CT), mustHex(t, tc.Tag)
					if len(key)*8 != grp.KeySize || len(iv)*8 != grp.IVSize || len(tag)*8 != grp.TagSize {
						t.Fatalf("tcId %d: sizes do not match its group", tc.TcID)
					}
					g, err := newTestGCM(key, active, api)
					if err != nil {
						t.Fatalf("tcId %d: %v", tc.TcID, err)
					}
					switch tc.Result {
					case "valid":
						valid++
						gotCT, gotTag, err := g.seal(iv, msg, aad)
						if err != nil {
							t.Errorf("%s, tcId %d (%s): seal: %v", api, tc.TcID, tc.Comment, err)
							continue
						}
						if !bytes.Equal(gotCT, ct) || !bytes.Equal(gotTag[:len(tag)], tag) {
							t.Errorf("%s, tcId %d (%s): seal = %x %x, want %x %x", api, tc.TcID, tc.Comment, gotCT, gotTag[:len(tag)], ct, tag)
						}
						pt, err := g.open(iv, ct, aad, tag)
						if err != nil || !bytes.Equal(pt, msg) {
							t.Errorf("%s, tcId %d (%s): open = %x, %v; want %x", api, tc.TcID, tc.Comment, pt, err, msg)
						}
					case "invalid":
						invalid++
						if len(iv) == 0 {
							emptyIV++
						}
						if pt, err := g.open(iv, ct, aad, tag); err == nil {
							t.Errorf("%s, tcId %d (%s): invalid case opened to %x", api, tc.TcID, tc.Comment, pt)
						}
					default:
						t.Fatalf("tcId %d: result %q is neither valid nor invalid", tc.TcID, tc.Result)
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

// TestGCMAgainstStdlib compares testGCM on a Key with crypto/cipher's GCM
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

// FuzzGCM compares testGCM, on every available kernel and both APIs, with
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
					t.Fatalf("%s, %s: got %x, want %x", kern.name, api, got, want)
				}
			}
		}
	})
}
