// This file is the GCM reference: NIST SP 800-38D section 7, Algorithms 4
// (GCM-AE) and 5 (GCM-AD), composed step by step from a block cipher and
// a GHASH function. It is an oracle for tests, nothing else: it encrypts
// one block per call, allocates, and is variable-time.

package ref

import (
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"errors"
)

// GCM is GCM over Block (16-byte blocks), with the GHASH that GHASH
// computes. The counter is incremented in its low 32 bits alone, modulo
// 2^32 (inc32), so it is GCM for every IV length, including IVs whose J0
// wraps within a message. Tags are 16 bytes; a shorter tag is a prefix of
// one (SP 800-38D section 5.2.1.2).
type GCM struct {
	Block cipher.Block
	// GHASH is GCM's GHASH under H = E(K, 0^128) of additional data a
	// and ciphertext c, each zero-padded, then the length block.
	GHASH func(a, c []byte) [GHASHBlockSize]byte
}

// NewGCM returns GCM over b with this package's bit-serial GHASH
// (GCMGHASH).
func NewGCM(b cipher.Block) GCM {
	var h [GHASHBlockSize]byte
	b.Encrypt(h[:], h[:])
	return GCM{Block: b, GHASH: func(a, c []byte) [GHASHBlockSize]byte { return GCMGHASH(h, a, c) }}
}

// ErrGCMEmptyIV is returned for an empty IV: SP 800-38D section 8.2
// requires IVs of at least one bit.
var ErrGCMEmptyIV = errors.New("ref: GCM with an empty IV")

// ErrGCMOpen is Open's error for a tag that does not match.
var ErrGCMOpen = errors.New("ref: GCM message authentication failed")

// J0 returns the pre-counter block of iv (Algorithm 4, step 2): iv ||
// 0^31 || 1 for a 96-bit IV, GHASH(iv || 0^(s+64) || [len(iv)]_64)
// otherwise, which is GCM's GHASH with empty additional data and iv as the
// ciphertext.
func (g GCM) J0(iv []byte) ([GHASHBlockSize]byte, error) {
	var j [GHASHBlockSize]byte
	switch len(iv) {
	case 0:
		return j, ErrGCMEmptyIV
	case 12:
		copy(j[:], iv)
		j[15] = 1
		return j, nil
	default:
		return g.GHASH(nil, iv), nil
	}
}

// XORKeyStream sets dst to src XOR GCTR's key stream from inc32(j0)
// (Algorithm 4, step 3): E(K, inc32(j0)), E(K, inc32(inc32(j0))), ...
// dst must be at least as long as src.
func (g GCM) XORKeyStream(j0 [GHASHBlockSize]byte, dst, src []byte) {
	cb := j0
	var ks [GHASHBlockSize]byte
	for i := 0; i < len(src); i += GHASHBlockSize {
		binary.BigEndian.PutUint32(cb[12:], binary.BigEndian.Uint32(cb[12:])+1)
		g.Block.Encrypt(ks[:], cb[:])
		subtle.XORBytes(dst[i:], src[i:min(i+GHASHBlockSize, len(src))], ks[:])
	}
}

// Tag returns the full 16-byte tag E(K, j0) XOR GHASH(a, c) (Algorithm 4,
// steps 5 and 6).
func (g GCM) Tag(j0 [GHASHBlockSize]byte, a, c []byte) [GHASHBlockSize]byte {
	var t [GHASHBlockSize]byte
	g.Block.Encrypt(t[:], j0[:])
	s := g.GHASH(a, c)
	subtle.XORBytes(t[:], t[:], s[:])
	return t
}

// Seal returns the ciphertext of pt and its full tag, under iv with
// additional data a.
func (g GCM) Seal(iv, pt, a []byte) (ct []byte, tag [GHASHBlockSize]byte, err error) {
	j, err := g.J0(iv)
	if err != nil {
		return nil, tag, err
	}
	ct = make([]byte, len(pt))
	g.XORKeyStream(j, ct, pt)
	return ct, g.Tag(j, a, ct), nil
}

// Open returns the plaintext of ct if tag (1 to 16 bytes, a prefix of
// the full tag) is right for iv, ct and a, and ErrGCMOpen otherwise.
func (g GCM) Open(iv, ct, a, tag []byte) ([]byte, error) {
	j, err := g.J0(iv)
	if err != nil {
		return nil, err
	}
	want := g.Tag(j, a, ct)
	if len(tag) == 0 || len(tag) > GHASHBlockSize || subtle.ConstantTimeCompare(want[:len(tag)], tag) != 1 {
		return nil, ErrGCMOpen
	}
	pt := make([]byte, len(ct))
	g.XORKeyStream(j, pt, ct)
	return pt, nil
}

// PlainBlock is a block cipher behind a type with the three methods of
// cipher.Block alone, so that code that recognises a block's type or its
// optional methods (crypto/cipher's check for crypto/aes blocks and for
// NewGCM and NewCTR methods, and the gcm package's) takes its generic
// path for it.
type PlainBlock struct{ Block cipher.Block }

// BlockSize returns the block's size.
func (p PlainBlock) BlockSize() int { return p.Block.BlockSize() }

// Encrypt encrypts the first block of src into dst with the block.
func (p PlainBlock) Encrypt(dst, src []byte) { p.Block.Encrypt(dst, src) }

// Decrypt decrypts the first block of src into dst with the block.
func (p PlainBlock) Decrypt(dst, src []byte) { p.Block.Decrypt(dst, src) }
