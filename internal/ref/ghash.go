// This file is the GHASH reference: NIST SP 800-38D, "Recommendation for
// Block Cipher Modes of Operation: Galois/Counter Mode (GCM) and GMAC"
// (2007), section 6.3 (Algorithm 1, multiplication in GF(2^128)) and
// section 6.4 (Algorithm 2, GHASH), followed bit by bit. It is deliberately
// slow and variable-time: it is an oracle for tests, nothing else.

package ref

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// GHASHBlockSize is the length in bytes of one GHASH block and of a GHASH
// value (128 bits).
const GHASHBlockSize = 16

// ghashR is the constant R = 11100001 || 0^120 of SP 800-38D section 6.3:
// the bits of x^128 mod (x^128 + x^7 + x^2 + x + 1) in the standard's
// reflected bit order.
var ghashR = [GHASHBlockSize]byte{0xe1}

// ErrGHASHPartialBlock is returned by GHASH when its input is not a whole
// number of 16-byte blocks. SP 800-38D defines GHASH only on such inputs;
// padding is the caller's job (see GCMGHASH).
var ErrGHASHPartialBlock = errors.New("ref: GHASH input is not a multiple of 16 bytes")

// ghashBit returns bit i of the 128-bit string b, numbered as in SP 800-38D:
// bit 0 is the leftmost (most significant) bit of b[0], bit 127 the
// rightmost bit of b[15].
func ghashBit(b *[GHASHBlockSize]byte, i int) byte {
	return (b[i/8] >> (7 - uint(i%8))) & 1
}

// ghashRightShift is the function rightshift of SP 800-38D section 6.2:
// every bit moves one place to the right (towards bit 127); the rightmost
// bit is discarded and a zero enters on the left.
func ghashRightShift(v *[GHASHBlockSize]byte) {
	for j := GHASHBlockSize - 1; j > 0; j-- {
		v[j] = v[j]>>1 | v[j-1]<<7
	}
	v[0] >>= 1
}

// ghashXor sets z to z XOR v.
func ghashXor(z, v *[GHASHBlockSize]byte) {
	for j := range z {
		z[j] ^= v[j]
	}
}

// GHASHMul returns the product x·y of two blocks in GF(2^128), computed with
// SP 800-38D Algorithm 1:
//
//	Z_0 = 0^128, V_0 = Y
//	for i = 0 to 127:
//	    Z_{i+1} = Z_i           if x_i = 0
//	              Z_i XOR V_i   if x_i = 1
//	    V_{i+1} = rightshift(V_i)           if LSB_1(V_i) = 0
//	              rightshift(V_i) XOR R     if LSB_1(V_i) = 1
//	return Z_128
func GHASHMul(x, y [GHASHBlockSize]byte) [GHASHBlockSize]byte {
	var z [GHASHBlockSize]byte
	v := y
	for i := 0; i < 128; i++ {
		if ghashBit(&x, i) == 1 {
			ghashXor(&z, &v)
		}
		lsb := ghashBit(&v, 127)
		ghashRightShift(&v)
		if lsb == 1 {
			ghashXor(&v, &ghashR)
		}
	}
	return z
}

// GHASH returns GHASH_H(X) of SP 800-38D Algorithm 2: for the blocks
// X_1 .. X_m of x, Y_0 = 0^128 and Y_i = (Y_{i-1} XOR X_i)·H; the result is
// Y_m. There is no padding and no length block. If len(x) is not a multiple
// of 16 it returns ErrGHASHPartialBlock (wrapped, with the length).
func GHASH(h [GHASHBlockSize]byte, x []byte) ([GHASHBlockSize]byte, error) {
	if len(x)%GHASHBlockSize != 0 {
		return [GHASHBlockSize]byte{}, fmt.Errorf("%w: got %d bytes", ErrGHASHPartialBlock, len(x))
	}
	return ghashBlocks(h, x), nil
}

// ghashBlocks is Algorithm 2 over the whole blocks of x (len(x) is a
// multiple of 16 at every call site).
func ghashBlocks(h [GHASHBlockSize]byte, x []byte) [GHASHBlockSize]byte {
	var y [GHASHBlockSize]byte
	for len(x) >= GHASHBlockSize {
		var xi [GHASHBlockSize]byte
		copy(xi[:], x)
		ghashXor(&y, &xi)
		y = GHASHMul(y, h)
		x = x[GHASHBlockSize:]
	}
	return y
}

// GCMGHASHInput returns the string that GCM hashes for additional data a and
// ciphertext c (SP 800-38D Algorithm 4, step 5):
//
//	A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64
//
// where the zero strings pad A and C to whole blocks and the lengths are in
// bits, as 64-bit big-endian integers.
func GCMGHASHInput(a, c []byte) []byte {
	pad := func(n int) int { return (GHASHBlockSize - n%GHASHBlockSize) % GHASHBlockSize }
	s := make([]byte, 0, len(a)+pad(len(a))+len(c)+pad(len(c))+GHASHBlockSize)
	s = append(s, a...)
	s = append(s, make([]byte, pad(len(a)))...)
	s = append(s, c...)
	s = append(s, make([]byte, pad(len(c)))...)
	s = binary.BigEndian.AppendUint64(s, uint64(len(a))*8)
	s = binary.BigEndian.AppendUint64(s, uint64(len(c))*8)
	return s
}

// GCMGHASH returns GHASH_H of GCMGHASHInput(a, c): the value that GCM
// encrypts with E(K, J_0) to form the tag. With a empty and c = IV it is the
// pre-counter block J_0 for IVs that are not 96 bits long.
func GCMGHASH(h [GHASHBlockSize]byte, a, c []byte) [GHASHBlockSize]byte {
	return ghashBlocks(h, GCMGHASHInput(a, c))
}
