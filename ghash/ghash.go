// Package ghash implements GHASH, the universal hash function of the
// Galois/Counter Mode (NIST SP 800-38D, section 6.4).
//
// GHASH_H multiplies, block by block, in GF(2^128) modulo
// x^128 + x^7 + x^2 + x + 1: for 16-byte blocks X_1 .. X_m and the hash key
// H, Y_0 = 0 and Y_i = (Y_(i-1) XOR X_i)·H; the result is Y_m. In GCM,
// H = E(K, 0^128) and the input is the additional data and the ciphertext,
// each zero-padded to whole blocks, then a block holding both their lengths
// in bits (Sum computes exactly that).
//
// GHASH is the building block for GCM over any 128-bit block cipher (AES,
// SM4, ARIA, Camellia, ...) and for GMAC. It is not a MAC by itself: it is
// linear in its input, and H can be recovered from a few unmasked outputs.
// Its output must be masked before it is released, as GCM does by XORing
// it with E(K, J_0), a value that must never repeat under one key.
//
// # Kernels
//
// The block loop has several implementations ("kernels"), chosen once at
// init from the CPU's features; Kernel reports which one is in use:
//
//   - "pmull" (arm64 and 32-bit arm): the 64x64-bit carry-less multiply
//     PMULL.1Q (vmull.p64) of the ARMv8 Crypto Extensions.
//   - "neon" (arm64 and 32-bit arm without it): the 8x8-bit PMULL.8H
//     (vmull.p8) that every Advanced SIMD unit has, combined into 64x64-bit
//     products as in Câmara, Gouvêa, López and Dahab (2013).
//   - "pclmul" (amd64 with AVX) and "pclmul-sse" (amd64 without AVX): the
//     64x64-bit carry-less multiply PCLMULQDQ, eight blocks per reduction.
//   - "generic" (everywhere): portable Go with integer multiplies (see
//     generic.go for the method).
//
// On arm64 and 32-bit arm, GODEBUG=cpu.pmull=off hides the 64-bit
// multiply from the selection and so selects "neon". Building with -tags purego leaves out all assembly and
// selects "generic".
//
// # Constant time
//
// Every kernel is written without branches or memory indices that depend
// on the key or the data, so that run time depends only on the input's
// length. Unlike the 4-bit table that crypto/cipher falls back to for
// block ciphers other than AES, the generic kernel uses no tables at all;
// it assumes that the CPU's 64x64-bit multiplier takes constant time, as
// it does on current amd64 and arm64 cores (but not on some embedded
// ones). Timing is not something tests can establish, so the tests check
// correctness only; the property rests on the form of the code, which
// generic.go describes.
package ghash

import (
	"encoding/binary"
	"errors"
	"hash"
)

// Size is the length of a GHASH value in bytes.
const Size = 16

// BlockSize is the length of a GHASH input block in bytes.
const BlockSize = 16

// errNilKey is returned by the methods of the nil *Hash that New returns for
// a nil key.
var errNilKey = errors.New("ghash: Hash has no key (create it with New and a non-nil key)")

// Hash computes GHASH incrementally, over the data written to it padded with
// zeros to a whole number of blocks. It implements hash.Hash. A Hash must
// not be used by several goroutines at once. Create one with New: a zero
// Hash has no key, and its methods behave as those of New(nil)'s (Write
// reports an error, Sum appends nothing).
type Hash struct {
	key  expandedKey
	kern *kernel         // the kernel active when New was called
	y    [Size]byte      // GHASH of the whole blocks absorbed so far
	buf  [BlockSize]byte // buf[:n] is the start of a partial block
	n    int             // bytes in buf
	tail [BlockSize]byte // Sum's scratch: the zero-padded partial block
	sum  [Size]byte      // Sum's scratch: a copy of y
}

var _ hash.Hash = (*Hash)(nil)

// New returns a Hash with hash key H = *key (in GCM, H = E(K, 0^128)). The
// Hash uses the kernel active at the time of the call. New returns nil if
// key is nil; the methods of that nil *Hash do nothing, and Write reports
// the error.
func New(key *[16]byte) *Hash {
	if key == nil {
		return nil
	}
	return newHash(active, key)
}

// newHash returns a Hash with key H = *key that uses the kernel k.
func newHash(k *kernel, key *[16]byte) *Hash {
	h := &Hash{kern: k}
	expandWith(k, &h.key, key)
	return h
}

// Write absorbs p. Whole blocks go straight to the kernel; a trailing
// partial block is kept until more data arrives or Sum pads it. It always
// returns len(p), nil, except on the nil *Hash of a nil key.
func (h *Hash) Write(p []byte) (int, error) {
	if h == nil || h.kern == nil {
		return 0, errNilKey
	}
	n := len(p)
	if h.n > 0 {
		c := copy(h.buf[h.n:], p)
		h.n += c
		p = p[c:]
		if h.n < BlockSize {
			return n, nil
		}
		updateWith(h.kern, &h.y, &h.key, h.buf[:])
		h.n = 0
	}
	if whole := len(p) &^ (BlockSize - 1); whole > 0 {
		updateWith(h.kern, &h.y, &h.key, p[:whole])
		p = p[whole:]
	}
	h.n = copy(h.buf[:], p)
	return n, nil
}

// Sum appends to b the GHASH of the data written so far, zero-padded to a
// whole number of blocks, and returns the result. It does not change the
// state: more data may be written afterwards. On the nil *Hash of a nil key
// it returns b unchanged.
func (h *Hash) Sum(b []byte) []byte {
	if h == nil || h.kern == nil {
		return b
	}
	h.sum = h.y
	if h.n > 0 {
		h.tail = [BlockSize]byte{}
		copy(h.tail[:], h.buf[:h.n])
		updateWith(h.kern, &h.sum, &h.key, h.tail[:])
	}
	return append(b, h.sum[:]...)
}

// Reset forgets the data written so far and keeps the key.
func (h *Hash) Reset() {
	if h == nil || h.kern == nil {
		return
	}
	h.y = [Size]byte{}
	h.buf = [BlockSize]byte{}
	h.n = 0
}

// Size returns Size, the length of a GHASH value.
func (h *Hash) Size() int { return Size }

// BlockSize returns BlockSize.
func (h *Hash) BlockSize() int { return BlockSize }

// Sum returns GCM's GHASH for hash key H = *key, additional data A and
// ciphertext C (SP 800-38D Algorithm 4, step 5):
//
//	GHASH_H(A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64)
//
// where A and C are zero-padded to whole blocks and the lengths are in bits,
// big-endian. With A empty and C an IV that is not 96 bits long it is GCM's
// pre-counter block J_0. Sum does not allocate. If key is nil it returns
// the zero value.
func Sum(key *[16]byte, additionalData, ciphertext []byte) [Size]byte {
	if key == nil {
		return [Size]byte{}
	}
	return sum(active, key, additionalData, ciphertext)
}

// genericName is the name of the always-available kernel, kernels[len-1].
const genericName = "generic"

// lengthBlock returns GCM's final block: the bit lengths of a and c.
func lengthBlock(a, c []byte) [BlockSize]byte {
	var b [BlockSize]byte
	binary.BigEndian.PutUint64(b[0:8], uint64(len(a))*8)
	binary.BigEndian.PutUint64(b[8:16], uint64(len(c))*8)
	return b
}

// sum is Sum with kernel k. Its temporaries stay on its stack: expandWith
// and updateWith make direct calls.
func sum(k *kernel, key *[16]byte, a, c []byte) [Size]byte {
	var ek expandedKey
	expandWith(k, &ek, key)
	var y, tail [BlockSize]byte
	for _, p := range [2][]byte{a, c} {
		whole := len(p) &^ (BlockSize - 1)
		updateWith(k, &y, &ek, p[:whole])
		if whole < len(p) {
			tail = [BlockSize]byte{}
			copy(tail[:], p[whole:])
			updateWith(k, &y, &ek, tail[:])
		}
	}
	lb := lengthBlock(a, c)
	updateWith(k, &y, &ek, lb[:])
	return y
}
