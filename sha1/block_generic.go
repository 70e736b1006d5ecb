package sha1

import (
	"encoding/binary"
	"math/bits"

	"github.com/simdhash/simdhash/internal/sha1round"
)

// The rounds are those of internal/sha1round, shared with sha1dc's
// portable block function; its doc explains the renaming of the working
// variables that the calls below follow.

// blockGeneric is the portable SHA-1 block function (FIPS 180-4 section
// 6.1.2): it absorbs the len(p)/BlockSize whole blocks of p into h and reads
// nothing else.
//
// It is written for speed: the 80 rounds are unrolled with the working
// variables renamed instead of moved, and the message schedule is a ring of
// 16 words (W_t lives in w[t mod 16]) computed just before the round that
// needs it, rather than an 80-word array. Every index is a constant, so there
// are no bounds checks and no index arithmetic. Keeping the ring in an array
// rather than in 16 local variables measured about 28% faster: the compiler
// then keeps the working variables in registers and the ring in memory,
// instead of spilling a mix of both.
func blockGeneric(h *[5]uint32, p []byte) {
	var w [16]uint32
	h0, h1, h2, h3, h4 := h[0], h[1], h[2], h[3], h[4]
	for len(p) >= BlockSize {
		q := (*[BlockSize]byte)(p[:BlockSize])
		a, b, c, d, e := h0, h1, h2, h3, h4

		// Rounds 0 to 19: f = Ch, K = 0x5a827999. W_t for t < 16 is word t of the block.
		w[0] = binary.BigEndian.Uint32(q[0:])
		e, b = sha1round.Ch(a, b, c, d, e, w[0])
		w[1] = binary.BigEndian.Uint32(q[4:])
		d, a = sha1round.Ch(e, a, b, c, d, w[1])
		w[2] = binary.BigEndian.Uint32(q[8:])
		c, e = sha1round.Ch(d, e, a, b, c, w[2])
		w[3] = binary.BigEndian.Uint32(q[12:])
		b, d = sha1round.Ch(c, d, e, a, b, w[3])
		w[4] = binary.BigEndian.Uint32(q[16:])
		a, c = sha1round.Ch(b, c, d, e, a, w[4])
		w[5] = binary.BigEndian.Uint32(q[20:])
		e, b = sha1round.Ch(a, b, c, d, e, w[5])
		w[6] = binary.BigEndian.Uint32(q[24:])
		d, a = sha1round.Ch(e, a, b, c, d, w[6])
		w[7] = binary.BigEndian.Uint32(q[28:])
		c, e = sha1round.Ch(d, e, a, b, c, w[7])
		w[8] = binary.BigEndian.Uint32(q[32:])
		b, d = sha1round.Ch(c, d, e, a, b, w[8])
		w[9] = binary.BigEndian.Uint32(q[36:])
		a, c = sha1round.Ch(b, c, d, e, a, w[9])
		w[10] = binary.BigEndian.Uint32(q[40:])
		e, b = sha1round.Ch(a, b, c, d, e, w[10])
		w[11] = binary.BigEndian.Uint32(q[44:])
		d, a = sha1round.Ch(e, a, b, c, d, w[11])
		w[12] = binary.BigEndian.Uint32(q[48:])
		c, e = sha1round.Ch(d, e, a, b, c, w[12])
		w[13] = binary.BigEndian.Uint32(q[52:])
		b, d = sha1round.Ch(c, d, e, a, b, w[13])
		w[14] = binary.BigEndian.Uint32(q[56:])
		a, c = sha1round.Ch(b, c, d, e, a, w[14])
		w[15] = binary.BigEndian.Uint32(q[60:])
		e, b = sha1round.Ch(a, b, c, d, e, w[15])
		// From round 16 on, W_t = ROTL1(W_t-3 ^ W_t-8 ^ W_t-14 ^ W_t-16) replaces W_t-16.
		w[0] = bits.RotateLeft32(w[13]^w[8]^w[2]^w[0], 1)
		d, a = sha1round.Ch(e, a, b, c, d, w[0])
		w[1] = bits.RotateLeft32(w[14]^w[9]^w[3]^w[1], 1)
		c, e = sha1round.Ch(d, e, a, b, c, w[1])
		w[2] = bits.RotateLeft32(w[15]^w[10]^w[4]^w[2], 1)
		b, d = sha1round.Ch(c, d, e, a, b, w[2])
		w[3] = bits.RotateLeft32(w[0]^w[11]^w[5]^w[3], 1)
		a, c = sha1round.Ch(b, c, d, e, a, w[3])

		// Rounds 20 to 39: f = Parity, K = 0x6ed9eba1.
		w[4] = bits.RotateLeft32(w[1]^w[12]^w[6]^w[4], 1)
		e, b = sha1round.Parity1(a, b, c, d, e, w[4])
		w[5] = bits.RotateLeft32(w[2]^w[13]^w[7]^w[5], 1)
		d, a = sha1round.Parity1(e, a, b, c, d, w[5])
		w[6] = bits.RotateLeft32(w[3]^w[14]^w[8]^w[6], 1)
		c, e = sha1round.Parity1(d, e, a, b, c, w[6])
		w[7] = bits.RotateLeft32(w[4]^w[15]^w[9]^w[7], 1)
		b, d = sha1round.Parity1(c, d, e, a, b, w[7])
		w[8] = bits.RotateLeft32(w[5]^w[0]^w[10]^w[8], 1)
		a, c = sha1round.Parity1(b, c, d, e, a, w[8])
		w[9] = bits.RotateLeft32(w[6]^w[1]^w[11]^w[9], 1)
		e, b = sha1round.Parity1(a, b, c, d, e, w[9])
		w[10] = bits.RotateLeft32(w[7]^w[2]^w[12]^w[10], 1)
		d, a = sha1round.Parity1(e, a, b, c, d, w[10])
		w[11] = bits.RotateLeft32(w[8]^w[3]^w[13]^w[11], 1)
		c, e = sha1round.Parity1(d, e, a, b, c, w[11])
		w[12] = bits.RotateLeft32(w[9]^w[4]^w[14]^w[12], 1)
		b, d = sha1round.Parity1(c, d, e, a, b, w[12])
		w[13] = bits.RotateLeft32(w[10]^w[5]^w[15]^w[13], 1)
		a, c = sha1round.Parity1(b, c, d, e, a, w[13])
		w[14] = bits.RotateLeft32(w[11]^w[6]^w[0]^w[14], 1)
		e, b = sha1round.Parity1(a, b, c, d, e, w[14])
		w[15] = bits.RotateLeft32(w[12]^w[7]^w[1]^w[15], 1)
		d, a = sha1round.Parity1(e, a, b, c, d, w[15])
		w[0] = bits.RotateLeft32(w[13]^w[8]^w[2]^w[0], 1)
		c, e = sha1round.Parity1(d, e, a, b, c, w[0])
		w[1] = bits.RotateLeft32(w[14]^w[9]^w[3]^w[1], 1)
		b, d = sha1round.Parity1(c, d, e, a, b, w[1])
		w[2] = bits.RotateLeft32(w[15]^w[10]^w[4]^w[2], 1)
		a, c = sha1round.Parity1(b, c, d, e, a, w[2])
		w[3] = bits.RotateLeft32(w[0]^w[11]^w[5]^w[3], 1)
		e, b = sha1round.Parity1(a, b, c, d, e, w[3])
		w[4] = bits.RotateLeft32(w[1]^w[12]^w[6]^w[4], 1)
		d, a = sha1round.Parity1(e, a, b, c, d, w[4])
		w[5] = bits.RotateLeft32(w[2]^w[13]^w[7]^w[5], 1)
		c, e = sha1round.Parity1(d, e, a, b, c, w[5])
		w[6] = bits.RotateLeft32(w[3]^w[14]^w[8]^w[6], 1)
		b, d = sha1round.Parity1(c, d, e, a, b, w[6])
		w[7] = bits.RotateLeft32(w[4]^w[15]^w[9]^w[7], 1)
		a, c = sha1round.Parity1(b, c, d, e, a, w[7])

		// Rounds 40 to 59: f = Maj, K = 0x8f1bbcdc.
		w[8] = bits.RotateLeft32(w[5]^w[0]^w[10]^w[8], 1)
		e, b = sha1round.Maj(a, b, c, d, e, w[8])
		w[9] = bits.RotateLeft32(w[6]^w[1]^w[11]^w[9], 1)
		d, a = sha1round.Maj(e, a, b, c, d, w[9])
		w[10] = bits.RotateLeft32(w[7]^w[2]^w[12]^w[10], 1)
		c, e = sha1round.Maj(d, e, a, b, c, w[10])
		w[11] = bits.RotateLeft32(w[8]^w[3]^w[13]^w[11], 1)
		b, d = sha1round.Maj(c, d, e, a, b, w[11])
		w[12] = bits.RotateLeft32(w[9]^w[4]^w[14]^w[12], 1)
		a, c = sha1round.Maj(b, c, d, e, a, w[12])
		w[13] = bits.RotateLeft32(w[10]^w[5]^w[15]^w[13], 1)
		e, b = sha1round.Maj(a, b, c, d, e, w[13])
		w[14] = bits.RotateLeft32(w[11]^w[6]^w[0]^w[14], 1)
		d, a = sha1round.Maj(e, a, b, c, d, w[14])
		w[15] = bits.RotateLeft32(w[12]^w[7]^w[1]^w[15], 1)
		c, e = sha1round.Maj(d, e, a, b, c, w[15])
		w[0] = bits.RotateLeft32(w[13]^w[8]^w[2]^w[0], 1)
		b, d = sha1round.Maj(c, d, e, a, b, w[0])
		w[1] = bits.RotateLeft32(w[14]^w[9]^w[3]^w[1], 1)
		a, c = sha1round.Maj(b, c, d, e, a, w[1])
		w[2] = bits.RotateLeft32(w[15]^w[10]^w[4]^w[2], 1)
		e, b = sha1round.Maj(a, b, c, d, e, w[2])
		w[3] = bits.RotateLeft32(w[0]^w[11]^w[5]^w[3], 1)
		d, a = sha1round.Maj(e, a, b, c, d, w[3])
		w[4] = bits.RotateLeft32(w[1]^w[12]^w[6]^w[4], 1)
		c, e = sha1round.Maj(d, e, a, b, c, w[4])
		w[5] = bits.RotateLeft32(w[2]^w[13]^w[7]^w[5], 1)
		b, d = sha1round.Maj(c, d, e, a, b, w[5])
		w[6] = bits.RotateLeft32(w[3]^w[14]^w[8]^w[6], 1)
		a, c = sha1round.Maj(b, c, d, e, a, w[6])
		w[7] = bits.RotateLeft32(w[4]^w[15]^w[9]^w[7], 1)
		e, b = sha1round.Maj(a, b, c, d, e, w[7])
		w[8] = bits.RotateLeft32(w[5]^w[0]^w[10]^w[8], 1)
		d, a = sha1round.Maj(e, a, b, c, d, w[8])
		w[9] = bits.RotateLeft32(w[6]^w[1]^w[11]^w[9], 1)
		c, e = sha1round.Maj(d, e, a, b, c, w[9])
		w[10] = bits.RotateLeft32(w[7]^w[2]^w[12]^w[10], 1)
		b, d = sha1round.Maj(c, d, e, a, b, w[10])
		w[11] = bits.RotateLeft32(w[8]^w[3]^w[13]^w[11], 1)
		a, c = sha1round.Maj(b, c, d, e, a, w[11])

		// Rounds 60 to 79: f = Parity, K = 0xca62c1d6.
		w[12] = bits.RotateLeft32(w[9]^w[4]^w[14]^w[12], 1)
		e, b = sha1round.Parity3(a, b, c, d, e, w[12])
		w[13] = bits.RotateLeft32(w[10]^w[5]^w[15]^w[13], 1)
		d, a = sha1round.Parity3(e, a, b, c, d, w[13])
		w[14] = bits.RotateLeft32(w[11]^w[6]^w[0]^w[14], 1)
		c, e = sha1round.Parity3(d, e, a, b, c, w[14])
		w[15] = bits.RotateLeft32(w[12]^w[7]^w[1]^w[15], 1)
		b, d = sha1round.Parity3(c, d, e, a, b, w[15])
		w[0] = bits.RotateLeft32(w[13]^w[8]^w[2]^w[0], 1)
		a, c = sha1round.Parity3(b, c, d, e, a, w[0])
		w[1] = bits.RotateLeft32(w[14]^w[9]^w[3]^w[1], 1)
		e, b = sha1round.Parity3(a, b, c, d, e, w[1])
		w[2] = bits.RotateLeft32(w[15]^w[10]^w[4]^w[2], 1)
		d, a = sha1round.Parity3(e, a, b, c, d, w[2])
		w[3] = bits.RotateLeft32(w[0]^w[11]^w[5]^w[3], 1)
		c, e = sha1round.Parity3(d, e, a, b, c, w[3])
		w[4] = bits.RotateLeft32(w[1]^w[12]^w[6]^w[4], 1)
		b, d = sha1round.Parity3(c, d, e, a, b, w[4])
		w[5] = bits.RotateLeft32(w[2]^w[13]^w[7]^w[5], 1)
		a, c = sha1round.Parity3(b, c, d, e, a, w[5])
		w[6] = bits.RotateLeft32(w[3]^w[14]^w[8]^w[6], 1)
		e, b = sha1round.Parity3(a, b, c, d, e, w[6])
		w[7] = bits.RotateLeft32(w[4]^w[15]^w[9]^w[7], 1)
		d, a = sha1round.Parity3(e, a, b, c, d, w[7])
		w[8] = bits.RotateLeft32(w[5]^w[0]^w[10]^w[8], 1)
		c, e = sha1round.Parity3(d, e, a, b, c, w[8])
		w[9] = bits.RotateLeft32(w[6]^w[1]^w[11]^w[9], 1)
		b, d = sha1round.Parity3(c, d, e, a, b, w[9])
		w[10] = bits.RotateLeft32(w[7]^w[2]^w[12]^w[10], 1)
		a, c = sha1round.Parity3(b, c, d, e, a, w[10])
		w[11] = bits.RotateLeft32(w[8]^w[3]^w[13]^w[11], 1)
		e, b = sha1round.Parity3(a, b, c, d, e, w[11])
		w[12] = bits.RotateLeft32(w[9]^w[4]^w[14]^w[12], 1)
		d, a = sha1round.Parity3(e, a, b, c, d, w[12])
		w[13] = bits.RotateLeft32(w[10]^w[5]^w[15]^w[13], 1)
		c, e = sha1round.Parity3(d, e, a, b, c, w[13])
		w[14] = bits.RotateLeft32(w[11]^w[6]^w[0]^w[14], 1)
		b, d = sha1round.Parity3(c, d, e, a, b, w[14])
		w[15] = bits.RotateLeft32(w[12]^w[7]^w[1]^w[15], 1)
		a, c = sha1round.Parity3(b, c, d, e, a, w[15])

		h0 += a
		h1 += b
		h2 += c
		h3 += d
		h4 += e
		p = p[BlockSize:]
	}
	h[0], h[1], h[2], h[3], h[4] = h0, h1, h2, h3, h4
}
