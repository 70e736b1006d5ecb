package gcm_test

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"fmt"

	"github.com/simdhash/simdhash/gcm"
)

// ownBlock stands for a block cipher of another package, such as SM4,
// ARIA or Camellia: a cipher.Block with 16-byte blocks. (It is AES behind
// a type of its own, so that the examples' results can be checked against
// published AES-GCM values and crypto/cipher.)
type ownBlock struct{ b cipher.Block }

func (o ownBlock) BlockSize() int          { return o.b.BlockSize() }
func (o ownBlock) Encrypt(dst, src []byte) { o.b.Encrypt(dst, src) }
func (o ownBlock) Decrypt(dst, src []byte) { o.b.Decrypt(dst, src) }

// newCipher stands for sm4.NewCipher, aria.NewCipher, camellia.NewCipher,
// ...
func newCipher(key []byte) (cipher.Block, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return ownBlock{b}, nil
}

// GCM over a block cipher other than crypto/aes's: replace newCipher by
// the cipher's own constructor. The key, nonce, plaintext and additional
// data are test case 4 of McGrew and Viega, "The Galois/Counter Mode of
// Operation (GCM)", Appendix B, whose ciphertext and tag these are.
func ExampleNew() {
	key, _ := hex.DecodeString("feffe9928665731c6d6a8f9467308308")
	nonce, _ := hex.DecodeString("cafebabefacedbaddecaf888")
	plaintext, _ := hex.DecodeString("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72" +
		"1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
	ad, _ := hex.DecodeString("feedfacedeadbeeffeedfacedeadbeefabaddad2")

	block, err := newCipher(key)
	if err != nil {
		panic(err)
	}
	aead, err := gcm.New(block) // once per key: H and its powers
	if err != nil {
		panic(err)
	}
	sealed := aead.Seal(nil, nonce, plaintext, ad)
	fmt.Printf("ciphertext: %x\n", sealed[:len(plaintext)])
	fmt.Printf("tag: %x\n", sealed[len(plaintext):])

	opened, err := aead.Open(nil, nonce, sealed, ad)
	fmt.Println("opens to the plaintext:", err == nil && bytes.Equal(opened, plaintext))
	sealed[3] ^= 0x20
	_, err = aead.Open(nil, nonce, sealed, ad)
	fmt.Println("after a flipped bit:", err)
	// Output:
	// ciphertext: 42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091
	// tag: 5bc94fbc3221a5db94fae95ae7121a47
	// opens to the plaintext: true
	// after a flipped bit: gcm: message authentication failed
}

// A 16-byte nonce with a 12-byte tag, sizes that crypto/cipher offers one
// at a time but not together. A shorter tag is the full tag's prefix
// (SP 800-38D section 5.2.1.2), as this checks against crypto/cipher.
func ExampleNewWithSizes() {
	key := bytes.Repeat([]byte{0x42}, 32)
	nonce := bytes.Repeat([]byte{0x07}, 16)
	plaintext := []byte("a message under a 128-bit nonce")

	block, err := newCipher(key)
	if err != nil {
		panic(err)
	}
	aead, err := gcm.NewWithSizes(block, 16, 12)
	if err != nil {
		panic(err)
	}
	sealed := aead.Seal(nil, nonce, plaintext, nil)
	fmt.Println("nonce, tag and sealed sizes:", aead.NonceSize(), aead.Overhead(), len(sealed))

	std, _ := cipher.NewGCMWithNonceSize(block, 16) // crypto/cipher: a 16-byte tag
	full := std.Seal(nil, nonce, plaintext, nil)
	fmt.Println("crypto/cipher's result, its tag cut to 12 bytes:", bytes.Equal(sealed, full[:len(plaintext)+12]))
	// Output:
	// nonce, tag and sealed sizes: 16 12 43
	// crypto/cipher's result, its tag cut to 12 bytes: true
}

// GMAC, GCM's authentication alone, is Seal with an empty plaintext: the
// message goes in as additional data, and the result is the tag, checked
// here against crypto/cipher's.
func Example_gmac() {
	key, _ := hex.DecodeString("feffe9928665731c6d6a8f9467308308")
	nonce, _ := hex.DecodeString("cafebabefacedbaddecaf888")
	message := []byte("authenticated, not encrypted")

	block, err := newCipher(key)
	if err != nil {
		panic(err)
	}
	aead, err := gcm.New(block)
	if err != nil {
		panic(err)
	}
	tag := aead.Seal(nil, nonce, nil, message)
	_, err = aead.Open(nil, nonce, tag, message) // verifies; opens to nothing
	fmt.Println("tag length:", len(tag), "verifies:", err == nil)

	std, _ := cipher.NewGCM(block)
	fmt.Println("crypto/cipher's tag:", bytes.Equal(tag, std.Seal(nil, nonce, nil, message)))
	_, err = aead.Open(nil, nonce, tag, []byte("authenticated, not encrypted!"))
	fmt.Println("another message:", err)
	// Output:
	// tag length: 16 verifies: true
	// crypto/cipher's tag: true
	// another message: gcm: message authentication failed
}
