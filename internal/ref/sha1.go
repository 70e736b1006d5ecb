// Package ref holds reference implementations written for clarity, not
// speed: each follows its specification step by step so that it can be read
// side by side with the standard. They are the oracle for every test in this
// module; the fast code is only ever compared against these (and against
// published test vectors), never against itself.
//
// Nothing here is meant for production use.
package ref

import "encoding/binary"

// SHA1Size is the length of a SHA-1 message digest in bytes (160 bits).
const SHA1Size = 20

// SHA1BlockSize is the length of one SHA-1 message block in bytes (512 bits).
const SHA1BlockSize = 64

// SHA1Init returns the initial hash value H(0) of SHA-1, FIPS 180-4
// section 5.3.1.
func SHA1Init() [5]uint32 {
	return [5]uint32{
		0x67452301,
		0xefcdab89,
		0x98badcfe,
		0x10325476,
		0xc3d2e1f0,
	}
}

// rotl is ROTL^n(x), the circular left shift of FIPS 180-4 section 3.2.
func rotl(x uint32, n uint) uint32 {
	return x<<n | x>>(32-n)
}

// sha1F is the function f_t of FIPS 180-4 section 4.1.1: Ch for rounds 0 to
// 19, Parity for 20 to 39, Maj for 40 to 59 and Parity again for 60 to 79.
func sha1F(t int, x, y, z uint32) uint32 {
	switch {
	case t <= 19:
		return (x & y) ^ (^x & z) // Ch(x, y, z)
	case t <= 39:
		return x ^ y ^ z // Parity(x, y, z)
	case t <= 59:
		return (x & y) ^ (x & z) ^ (y & z) // Maj(x, y, z)
	default:
		return x ^ y ^ z // Parity(x, y, z)
	}
}

// sha1K is the constant K_t of FIPS 180-4 section 4.2.1.
func sha1K(t int) uint32 {
	switch {
	case t <= 19:
		return 0x5a827999
	case t <= 39:
		return 0x6ed9eba1
	case t <= 59:
		return 0x8f1bbcdc
	default:
		return 0xca62c1d6
	}
}

// SHA1Block processes one 512-bit message block M(i) and updates the
// intermediate hash value h from H(i-1) to H(i), as in FIPS 180-4 section
// 6.1.2, steps 1 to 4. The array type makes a block of any other length
// impossible to pass.
func SHA1Block(h *[5]uint32, block *[SHA1BlockSize]byte) {
	_, states := SHA1Steps(*h, block)
	// Step 4: compute the i-th intermediate hash value H(i).
	for i, v := range states[80] {
		h[i] += v
	}
}

// SHA1Steps runs steps 1 to 3 of FIPS 180-4 section 6.1.2 on one block
// from the intermediate hash value h, H(i-1), and returns the message
// schedule W[0..79] and the working variables a, b, c, d, e before each
// of the 80 rounds and after the last: states[t] is what round t starts
// from, states[0] is h, and states[80] is what step 4 adds into h. A
// collision-detecting SHA-1 recompresses from states[58] or states[65].
func SHA1Steps(h [5]uint32, block *[SHA1BlockSize]byte) (w [80]uint32, states [81][5]uint32) {
	// Step 1: prepare the message schedule W.
	for t := 0; t <= 15; t++ {
		// M_t(i) is the t-th 32-bit word of the block, big-endian (section 3.1).
		w[t] = binary.BigEndian.Uint32(block[4*t : 4*t+4])
	}
	for t := 16; t <= 79; t++ {
		w[t] = rotl(w[t-3]^w[t-8]^w[t-14]^w[t-16], 1)
	}

	// Step 2: initialize the five working variables.
	a, b, c, d, e := h[0], h[1], h[2], h[3], h[4]
	states[0] = h

	// Step 3: the 80 rounds.
	for t := 0; t <= 79; t++ {
		T := rotl(a, 5) + sha1F(t, b, c, d) + e + sha1K(t) + w[t]
		e = d
		d = c
		c = rotl(b, 30)
		b = a
		a = T
		states[t+1] = [5]uint32{a, b, c, d, e}
	}
	return w, states
}

// SHA1Blocks absorbs the len(p)/64 whole blocks of p into h with
// SHA1Block, one after the other, and ignores the bytes after them: what
// an optimised block function computes.
func SHA1Blocks(h *[5]uint32, p []byte) {
	for ; len(p) >= SHA1BlockSize; p = p[SHA1BlockSize:] {
		SHA1Block(h, (*[SHA1BlockSize]byte)(p))
	}
}

// SHA1Pad returns msg followed by the padding of FIPS 180-4 section 5.1.1:
// a single 1 bit, the smallest number k of 0 bits such that
// l + 1 + k = 448 (mod 512), and the 64-bit big-endian length l of msg in
// bits. The result is a whole number of 512-bit blocks (section 5.2.1).
// msg itself is not modified.
func SHA1Pad(msg []byte) []byte {
	l := uint64(len(msg)) * 8
	padded := append([]byte(nil), msg...)
	// The 1 bit followed by seven of the k zero bits: messages here are whole
	// bytes, so l + 1 + k = 448 (mod 512) always leaves k >= 7.
	padded = append(padded, 0x80)
	for len(padded)%SHA1BlockSize != 56 {
		padded = append(padded, 0x00)
	}
	padded = binary.BigEndian.AppendUint64(padded, l)
	return padded
}

// SHA1 returns the SHA-1 message digest of msg: it pads msg (section 5.1.1),
// parses it into 512-bit blocks (section 5.2.1), sets H(0) (section 5.3.1),
// applies SHA1Block to each block in turn (section 6.1.2) and returns the
// final H(N) as 20 big-endian bytes.
func SHA1(msg []byte) [SHA1Size]byte {
	padded := SHA1Pad(msg)
	h := SHA1Init()
	for i := 0; i < len(padded); i += SHA1BlockSize {
		SHA1Block(&h, (*[SHA1BlockSize]byte)(padded[i:i+SHA1BlockSize]))
	}
	var digest [SHA1Size]byte
	for i, word := range h {
		binary.BigEndian.PutUint32(digest[4*i:], word)
	}
	return digest
}
