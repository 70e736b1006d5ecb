// Package gcm implements the Galois/Counter Mode of NIST SP 800-38D as a
// cipher.AEAD over any block cipher with 16-byte blocks: SM4, ARIA,
// Camellia, LEA, SEED, or AES. GMAC is Seal with an empty plaintext.
//
// New gives the usual sizes, a 12-byte nonce and a 16-byte tag;
// NewWithSizes any nonce size of at least one byte together with any tag
// size from 12 to 16 bytes, as SP 800-38D allows (crypto/cipher offers a
// custom nonce size or a custom tag size, not both).
//
// # What it does per key and per message
//
// The constructor computes H = E(K, 0^128) and expands it, with its
// powers, into a ghash.Key, once. A message then costs its key stream and
// one ghash Key.SumGCM, whose kernel (PCLMULQDQ or VPCLMULQDQ on amd64,
// PMULL or 8x8-bit NEON multiplies on ARM, constant-time Go elsewhere) is
// the one ghash.Kernel names.
//
// The key stream is made in batches of up to 32 counter blocks: the
// batch's counter blocks are written out, encrypted one by one with the
// block's Encrypt, and XORed into the message with crypto/subtle.XORBytes.
// The first batch of a message also holds E(K, J0), the block that masks
// the tag. If the block has a method NewCTR(iv []byte) cipher.Stream
// (gmsm's SM4 has one, a multi-block assembly loop), messages of 128
// bytes and more with a 12-byte nonce take their key stream from it
// instead, from inc32(J0) on. Such a stream increments all 128 bits of
// its counter, which agrees with GCM's only while the low 32 bits do not
// wrap; with a 12-byte nonce they never do (J0 ends in 1, and a message
// has at most 2^32-2 blocks). With another nonce size J0 is a GHASH of the
// nonce under H, so where its low word wraps is secret: those messages
// never use NewCTR, and the batches increment the low word modulo 2^32
// (inc32) with arithmetic alone, with no branch on it.
//
// # crypto/aes blocks
//
// For a block made by crypto/aes.NewCipher, New, and NewWithSizes with
// sizes that crypto/cipher supports (a 12-byte nonce, a 16-byte tag, or
// both), return crypto/cipher's own AES-GCM (cipher.NewGCM,
// NewGCMWithTagSize or NewGCMWithNonceSize): its fused AES and GHASH
// code is faster than a block-at-a-time key stream, and it is the FIPS
// 140-3 validated module. Its results are the same bytes; its Open error
// is crypto/cipher's, and a failed Open there zeroes the bytes of dst's
// capacity that the plaintext would have filled, where this package's
// own code writes nothing. A crypto/aes block with both a custom nonce
// size and a custom tag size takes this package's code.
//
// # The cipher.AEAD contract
//
// Seal and Open append to dst, as cipher.AEAD specifies, and do not
// allocate when dst has room for the result: their scratch space, a
// batch of key stream, comes from a sync.Pool (a garbage collection may
// empty the pool, and the next message then allocates one again). What a
// block's NewCTR allocates is the block's own. The output may overlap the
// input exactly (plaintext[:0] or ciphertext[:0] as dst); any other
// overlap of the output with the input or the additional data panics. So
// do a nonce of the wrong length and a plaintext of more than 2^32-2
// blocks (SP 800-38D's limit), as in crypto/cipher. Open checks the tag,
// in constant time, before it decrypts anything: a failed Open returns
// an error and writes nothing, not even to dst's spare capacity.
//
// An AEAD never changes after it is made: any number of goroutines may
// use one at once, provided the block's Encrypt (and NewCTR, if it has
// one) may be called concurrently, as those of crypto/aes and of other
// cipher.Block implementations generally may.
//
// # Constant time
//
// Nothing here branches on or indexes memory with secret data: not the
// key stream, the counter, J0, the tag or the message. Run time depends on
// the lengths and on the block cipher, which must itself be constant time
// for the whole to be.
//
// In FIPS 140-only mode (GODEBUG=fips140=only, crypto/fips140.Enforced),
// the constructors refuse to build this package's GCM, which is not a
// validated module, as crypto/cipher refuses GCM over other ciphers.
package gcm

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/fips140"
	"crypto/subtle"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/simdhash/simdhash/ghash"
)

// The sizes of SP 800-38D that this package uses.
const (
	blockSize       = 16 // the block cipher's block, and GHASH's
	stdNonceSize    = 12 // the nonce whose J0 is the nonce itself, then 0^31 || 1
	stdTagSize      = 16
	minTagSize      = 12 // SP 800-38D section 5.2.1.2: 128, 120, 112, 104 or 96 bits
	maxMessageBlock = 1<<32 - 2
)

// maxPlaintext is the most bytes Seal encrypts: 2^32-2 blocks (SP 800-38D
// section 5.2.1.1: len(P) <= 2^39-256 bits), so that the counter, from
// inc32(J0), never comes back to J0.
const maxPlaintext = maxMessageBlock * blockSize

// errOpen is what Open returns for a message that fails authentication.
var errOpen = errors.New("gcm: message authentication failed")

// errFIPS is what the constructors return in FIPS 140-only mode.
var errFIPS = errors.New("gcm: FIPS 140-only mode allows GCM only through crypto/cipher, over crypto/aes blocks with a 12-byte nonce or a 16-byte tag")

// The misuse panics of Seal and Open.
const (
	msgTooLong        = "gcm: plaintext longer than GCM allows (2^32-2 blocks of 16 bytes)"
	msgOverlapInput   = "gcm: invalid buffer overlap of output and input (only exact overlap is allowed)"
	msgOverlapAddData = "gcm: invalid buffer overlap of output and additional data"
)

// aesBlockType is the dynamic type of the blocks crypto/aes.NewCipher
// returns, which crypto/cipher's GCM recognises.
var aesBlockType = func() reflect.Type {
	b, err := aes.NewCipher(make([]byte, 16))
	if err != nil {
		panic("gcm: crypto/aes refused a 16-byte key: " + err.Error())
	}
	return reflect.TypeOf(b)
}()

// New returns GCM over the 128-bit block cipher b, with 12-byte nonces and
// 16-byte tags. For a crypto/aes block it returns cipher.NewGCM(b). It
// returns an error if b's block size is not 16 bytes, and panics if b is
// nil.
func New(b cipher.Block) (cipher.AEAD, error) {
	return NewWithSizes(b, stdNonceSize, stdTagSize)
}

// NewWithSizes returns GCM over the 128-bit block cipher b with nonces of
// nonceSize bytes (at least 1) and tags of tagSize bytes (12 to 16). A
// nonce of 12 bytes is GCM's fast, recommended case; another size costs a
// GHASH of the nonce per message. For a crypto/aes block and sizes
// crypto/cipher supports, it returns crypto/cipher's AES-GCM (see the
// package documentation). It returns an error for a size out of range or
// a block size other than 16 bytes, and panics if b is nil.
func NewWithSizes(b cipher.Block, nonceSize, tagSize int) (cipher.AEAD, error) {
	if b == nil {
		panic("gcm: nil cipher.Block")
	}
	if tagSize < minTagSize || tagSize > stdTagSize {
		return nil, fmt.Errorf("gcm: tag size %d bytes: GCM's tags are 12 to 16 bytes", tagSize)
	}
	if nonceSize < 1 {
		return nil, fmt.Errorf("gcm: nonce size %d bytes: GCM's nonces are at least 1 byte", nonceSize)
	}
	if reflect.TypeOf(b) == aesBlockType {
		switch {
		case nonceSize == stdNonceSize && tagSize == stdTagSize:
			return cipher.NewGCM(b)
		case nonceSize == stdNonceSize:
			return cipher.NewGCMWithTagSize(b, tagSize)
		case tagSize == stdTagSize:
			return cipher.NewGCMWithNonceSize(b, nonceSize)
		}
	}
	if n := b.BlockSize(); n != blockSize {
		return nil, fmt.Errorf("gcm: the block cipher's blocks are %d bytes; GCM needs 16", n)
	}
	if fips140.Enforced() {
		return nil, errFIPS
	}
	g := &aead{block: b, nonceSize: nonceSize, tagSize: tagSize}
	if c, ok := b.(ctrAble); ok {
		g.ctr = c
	}
	var h [blockSize]byte
	b.Encrypt(h[:], h[:])
	g.key = ghash.NewKey(h)
	return g, nil
}

// ctrAble is a block cipher with a key stream of its own for counter mode:
// NewCTR(iv) encrypts iv, iv+1, ... (a 128-bit big-endian counter), as
// cipher.NewCTR does.
type ctrAble interface {
	NewCTR(iv []byte) cipher.Stream
}

// aead is GCM over a block cipher. It is never written after the
// constructor, so any number of goroutines may use it.
type aead struct {
	block     cipher.Block
	ctr       ctrAble // block's own counter mode, or nil
	nonceSize int
	tagSize   int
	key       ghash.Key // H = E(K, 0^128) and its powers
}

// NonceSize returns the size of the nonces Seal and Open take.
func (g *aead) NonceSize() int { return g.nonceSize }

// Overhead returns the tag size: how much longer a sealed message is than
// its plaintext.
func (g *aead) Overhead() int { return g.tagSize }

// Seal encrypts and authenticates plaintext, authenticates additionalData,
// and appends the ciphertext and its tag to dst, returning the result. It
// panics if nonce is not NonceSize bytes, if plaintext is longer than GCM
// allows, or if the output overlaps plaintext other than exactly, or
// overlaps additionalData.
func (g *aead) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	g.checkNonce("Seal", nonce)
	if tooLong(len(plaintext)) {
		panic(msgTooLong)
	}
	ret, out := grow(dst, len(plaintext)+g.tagSize)
	if inexactOverlap(out, plaintext) {
		panic(msgOverlapInput)
	}
	if anyOverlap(out, additionalData) {
		panic(msgOverlapAddData)
	}
	ct := out[:len(plaintext)]
	var ks keystream
	ks.start(g, nonce, len(plaintext))
	ks.xor(ct, plaintext)
	s := g.key.SumGCM(additionalData, ct)
	subtle.XORBytes(out[len(plaintext):], ks.mask[:g.tagSize], s[:])
	ks.finish()
	return ret
}

// Open checks the tag of ciphertext (the ciphertext and the tag, as Seal
// appends them) and additionalData and, if it is right, appends the
// decrypted plaintext to dst and returns the result. Otherwise it returns
// an error and writes nothing. It panics if nonce is not NonceSize bytes,
// or if the output overlaps ciphertext other than exactly, or overlaps
// additionalData.
func (g *aead) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	g.checkNonce("Open", nonce)
	if len(ciphertext) < g.tagSize || tooLong(len(ciphertext)-g.tagSize) {
		return nil, errOpen
	}
	ct, tag := ciphertext[:len(ciphertext)-g.tagSize], ciphertext[len(ciphertext)-g.tagSize:]
	ret, out := grow(dst, len(ct))
	if inexactOverlap(out, ciphertext) {
		panic(msgOverlapInput)
	}
	if anyOverlap(out, additionalData) {
		panic(msgOverlapAddData)
	}
	var ks keystream
	ks.start(g, nonce, len(ct))
	s := g.key.SumGCM(additionalData, ct)
	var want [blockSize]byte
	subtle.XORBytes(want[:], ks.mask[:], s[:])
	if subtle.ConstantTimeCompare(want[:g.tagSize], tag) != 1 {
		ks.finish()
		return nil, errOpen
	}
	ks.xor(out, ct)
	ks.finish()
	return ret, nil
}

// checkNonce panics unless nonce is g.nonceSize bytes long.
func (g *aead) checkNonce(op string, nonce []byte) {
	if len(nonce) != g.nonceSize {
		panicNonce(op, len(nonce), g.nonceSize)
	}
}

// panicNonce is checkNonce's panic, out of line so that the message is
// built only when it is raised.
//
//go:noinline
func panicNonce(op string, got, want int) {
	panic(fmt.Sprintf("gcm: %s given a %d-byte nonce; this AEAD's nonces are %d bytes (NonceSize)", op, got, want))
}

// tooLong reports whether a plaintext of n bytes is longer than GCM allows.
func tooLong(n int) bool { return uint64(n) > maxPlaintext }

// grow returns dst extended by n bytes, in dst's own array when its
// capacity allows (the n bytes then hold whatever was there), and those n
// bytes alone.
func grow(dst []byte, n int) (whole, tail []byte) {
	whole = slices.Grow(dst, n)[:len(dst)+n]
	return whole, whole[len(dst):]
}
