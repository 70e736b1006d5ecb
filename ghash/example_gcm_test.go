package ghash_test

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/simdhash/simdhash/ghash"
)

// gcm is GCM (NIST SP 800-38D) with 96-bit nonces and 16-byte tags, built
// from a 128-bit block cipher, crypto/cipher's CTR mode and a ghash.Key.
// Any cipher.Block with 16-byte blocks will do: AES here, SM4, ARIA or
// Camellia as well.
type gcm struct {
	block cipher.Block
	h     ghash.Key // made once per cipher key, then only read
}

var errOpen = errors.New("gcm: message authentication failed")

func newGCM(block cipher.Block) (*gcm, error) {
	if block.BlockSize() != 16 {
		return nil, errors.New("gcm: the cipher's block size is not 16 bytes")
	}
	var h [16]byte
	block.Encrypt(h[:], h[:]) // H = E(K, 0^128)
	return &gcm{block: block, h: ghash.NewKey(h)}, nil
}

// counters returns J0 = nonce || 0^31 || 1 and the first counter block of
// the encryption, inc32(J0). crypto/cipher's CTR increments all 128 bits
// of the counter where GCM's inc32 increments the low 32: from a 96-bit
// nonce's J0 they agree for the 2^32-2 blocks GCM allows. (A nonce of
// another length makes J0 with GHASH, and its counter needs inc32.)
func counters(nonce []byte) (j0, first [16]byte) {
	if len(nonce) != 12 {
		panic("gcm: the nonce must be 12 bytes")
	}
	copy(j0[:], nonce)
	j0[15] = 1
	first = j0
	first[15] = 2
	return j0, first
}

// tag is E(K, J0) XOR GHASH_H(A, C), with the lengths block.
func (g *gcm) tag(j0 [16]byte, additionalData, ciphertext []byte) [16]byte {
	s := g.h.SumGCM(additionalData, ciphertext)
	var t [16]byte
	g.block.Encrypt(t[:], j0[:])
	subtle.XORBytes(t[:], t[:], s[:])
	return t
}

// seal appends the encrypted plaintext and its tag to dst.
func (g *gcm) seal(dst, nonce, plaintext, additionalData []byte) []byte {
	if uint64(len(plaintext)) > (1<<32-2)*16 {
		panic("gcm: plaintext too long")
	}
	j0, first := counters(nonce)
	out := append(dst, make([]byte, len(plaintext)+16)...)
	ct := out[len(dst) : len(dst)+len(plaintext)]
	cipher.NewCTR(g.block, first[:]).XORKeyStream(ct, plaintext)
	t := g.tag(j0, additionalData, ct)
	copy(out[len(dst)+len(plaintext):], t[:])
	return out
}

// open checks the tag of sealed (ciphertext || tag) in constant time and,
// if it is right, appends the decrypted ciphertext to dst.
func (g *gcm) open(dst, nonce, sealed, additionalData []byte) ([]byte, error) {
	if len(sealed) < 16 {
		return nil, errOpen
	}
	ct, tag := sealed[:len(sealed)-16], sealed[len(sealed)-16:]
	j0, first := counters(nonce)
	want := g.tag(j0, additionalData, ct)
	if subtle.ConstantTimeCompare(want[:], tag) != 1 {
		return nil, errOpen
	}
	out := append(dst, make([]byte, len(ct))...)
	cipher.NewCTR(g.block, first[:]).XORKeyStream(out[len(dst):], ct)
	return out, nil
}

// AES-GCM Seal and Open from crypto/aes, crypto/cipher's CTR mode and a
// ghash.Key, checked byte for byte against crypto/cipher's own GCM. The
// key, nonce, plaintext and additional data are test case 4 of McGrew and
// Viega, "The Galois/Counter Mode of Operation (GCM)", Appendix B.
func Example_gcm() {
	key, _ := hex.DecodeString("feffe9928665731c6d6a8f9467308308")
	nonce, _ := hex.DecodeString("cafebabefacedbaddecaf888")
	plaintext, _ := hex.DecodeString("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72" +
		"1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
	ad, _ := hex.DecodeString("feedfacedeadbeeffeedfacedeadbeefabaddad2")

	block, err := aes.NewCipher(key)
	if err != nil {
		panic(err)
	}
	ours, err := newGCM(block)
	if err != nil {
		panic(err)
	}
	sealed := ours.seal(nil, nonce, plaintext, ad)

	std, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	fmt.Println("same bytes as cipher.NewGCM:", bytes.Equal(sealed, std.Seal(nil, nonce, plaintext, ad)))
	fmt.Printf("tag: %x\n", sealed[len(sealed)-16:])

	opened, err := ours.open(nil, nonce, sealed, ad)
	fmt.Println("opens to the plaintext:", err == nil && bytes.Equal(opened, plaintext))
	sealed[3] ^= 0x20
	_, err = ours.open(nil, nonce, sealed, ad)
	fmt.Println("after a flipped bit:", err)
	// Output:
	// same bytes as cipher.NewGCM: true
	// tag: 5bc94fbc3221a5db94fae95ae7121a47
	// opens to the plaintext: true
	// after a flipped bit: gcm: message authentication failed
}
