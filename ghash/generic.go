package ghash

import (
	"encoding/binary"
	"math/bits"
)

// The generic kernel: portable, constant-time Go.
//
// Representation. A block b[0..15] is read as two big-endian words,
// hi = b[0..7] and lo = b[8..15]. In SP 800-38D's bit order the coefficient
// of x^i is then bit 127-i of the 128-bit integer hi:lo: the polynomial is
// stored bit-reversed ("reflected"), and no bit reversal is ever done.
//
// Multiplication. The carry-less product of two reflected 128-bit values,
// taken as an integer carry-less product, is the reflected 255-bit product:
// bit 254-k holds the coefficient of x^k. Multiplying by the "twisted" key
// H' = H·x^-1 instead of H makes it the reflected 256-bit representation of
// x·(a·H'), which is congruent to a·H, with bit 255-k holding the
// coefficient of x^k: the high 128 bits are then the coefficients of
// x^0..x^127 and the low 128 bits those of x^128..x^255, with no one-bit
// shift. x^-1 = x^127 + x^6 + x + 1, since x·(x^127 + x^6 + x + 1) =
// x^128 + x^7 + x^2 + x = 1 in the field.
//
// The 128x128 product is three 64x64 carry-less products (Karatsuba):
// lo·lo, hi·hi and (lo^hi)·(lo^hi). Each 64x64 product is made of ordinary
// integer multiplies whose carries cannot reach the bits that are kept
// (multiplication "with holes", the idea behind T. Pornin's BearSSL
// ghash_ctmul64): every operand is split into four words, each holding only
// the bits of one residue class mod 4 (masks 0x1111.., 0x2222.., 0x4444..,
// 0x8888..). In the integer product of two such words, column c receives
// one term per pair of set bits at positions p + q = c, and all those
// columns are 4 apart; as long as no column receives 16 or more terms its
// count fits in the 3-bit hole above it and the column's low bit is the
// carry-less (XOR) sum. The product of the class-i word of x by the class-j
// word of the key only has columns of class i+j mod 4, so the four class
// results are the XOR of four products each, masked to their class.
//
// The count bound. Two full 16-bit classes can put 16 terms into one column
// (for example 0x1111111111111111 squared), which would carry into the next
// column of the class. So the key words are split with their top nibble
// (bits 60..63) removed, leaving at most 15 bits per class and so at most
// 15 terms per column; the removed nibble t is multiplied separately: the
// integer product of a class word of x by t has at most one term per column
// (t's four bits are consecutive, so only one of them can pair with a bit of
// a given class), so it is exact and is XORed in unmasked. Each 64x64
// product thus costs 20 bits.Mul64, all on public addresses and with no
// branches.
//
// Reduction, modulo P = x^128 + x^7 + x^2 + x + 1. With the product as
// L + x^128·U (L = coefficients 0..127, U = 128..255), x^128 = x^7 + x^2 +
// x + 1 gives L + U + U·x + U·x^2 + U·x^7. In the reflected form
// multiplying by x^k is a right shift by k; the bits shifted out of the
// bottom are the terms of degree 128 and up, at most 7 of them (U·x^7 has
// degree at most 134), and are folded the same way a second time, where
// they no longer overflow.
//
// Constant time. The code has no branches and no memory indices that depend
// on the key or the data; its only loop runs over len(p)/16 blocks, which is
// public. It relies on the CPU's 64x64 -> 128 multiply (bits.Mul64) taking
// the same time for all operands, as MUL/UMULH do on current amd64 and
// arm64 cores; on 32-bit targets bits.Mul64 is four 32-bit multiplies, and
// a few old or embedded cores (for example ARM Cortex-M3, some PowerPC) have
// early-terminating multipliers, on which no multiply-based GHASH is
// constant time. Timing cannot be tested reliably, so the tests check only
// correctness; the property rests on the code's form, described here.

// Masks selecting the bits of each residue class mod 4.
const (
	mask0 = 0x1111111111111111
	mask1 = 0x2222222222222222
	mask2 = 0x4444444444444444
	mask3 = 0x8888888888888888
	// maskTop is the nibble taken out of the key words (see the count bound).
	maskTop = 0xf000000000000000
)

// keyWord is one 64-bit word of the twisted key, prepared for mul64:
// the four residue classes without the top nibble, then the top nibble.
type keyWord [5]uint64

func splitKeyWord(k uint64) keyWord {
	low := k &^ maskTop
	return keyWord{low & mask0, low & mask1, low & mask2, low & mask3, k & maskTop}
}

// genericKey is the generic kernel's expanded key: the twisted key
// H' = H·x^-1 (reflected), as its low word, its high word and their XOR
// (the three Karatsuba operands), each split for mul64.
type genericKey struct {
	lo, hi, mid keyWord
}

// expandGeneric computes the twisted key H·x^-1 from h and splits it.
func expandGeneric(k *expandedKey, h *[16]byte) {
	hi := binary.BigEndian.Uint64(h[0:8])
	lo := binary.BigEndian.Uint64(h[8:16])
	// Division by x: every coefficient moves down one degree, that is one
	// bit up in the reflected form. The coefficient of x^0 (bit 63 of hi)
	// becomes a multiple of x^-1 = x^127 + x^6 + x + 1: bits 127, 126, 121
	// and 0 of the 128-bit value. carry is all ones or zero, without a branch.
	carry := -(hi >> 63)
	hi = hi<<1 | lo>>63
	lo <<= 1
	hi ^= carry & 0xc200000000000000
	lo ^= carry & 1
	k.generic = genericKey{lo: splitKeyWord(lo), hi: splitKeyWord(hi), mid: splitKeyWord(lo ^ hi)}
}

// mul64 returns the 128-bit carry-less product of x and the key word k.
func mul64(x uint64, k *keyWord) (hi, lo uint64) {
	x0 := x & mask0
	x1 := x & mask1
	x2 := x & mask2
	x3 := x & mask3

	// Each class of the product accumulates its four terms (i + j = class
	// mod 4), then keeps only its own bits. Accumulating one class at a time
	// keeps few values live (amd64 has few registers, and MUL ties up two).
	var h, l uint64
	ch, cl := bits.Mul64(x0, k[0])
	h, l = bits.Mul64(x1, k[3])
	ch, cl = ch^h, cl^l
	h, l = bits.Mul64(x2, k[2])
	ch, cl = ch^h, cl^l
	h, l = bits.Mul64(x3, k[1])
	hi, lo = (ch^h)&mask0, (cl^l)&mask0

	ch, cl = bits.Mul64(x0, k[1])
	h, l = bits.Mul64(x1, k[0])
	ch, cl = ch^h, cl^l
	h, l = bits.Mul64(x2, k[3])
	ch, cl = ch^h, cl^l
	h, l = bits.Mul64(x3, k[2])
	hi, lo = hi|(ch^h)&mask1, lo|(cl^l)&mask1

	ch, cl = bits.Mul64(x0, k[2])
	h, l = bits.Mul64(x1, k[1])
	ch, cl = ch^h, cl^l
	h, l = bits.Mul64(x2, k[0])
	ch, cl = ch^h, cl^l
	h, l = bits.Mul64(x3, k[3])
	hi, lo = hi|(ch^h)&mask2, lo|(cl^l)&mask2

	ch, cl = bits.Mul64(x0, k[3])
	h, l = bits.Mul64(x1, k[2])
	ch, cl = ch^h, cl^l
	h, l = bits.Mul64(x2, k[1])
	ch, cl = ch^h, cl^l
	h, l = bits.Mul64(x3, k[0])
	hi, lo = hi|(ch^h)&mask3, lo|(cl^l)&mask3

	// The top nibble of the key: exact products, no mask.
	h, l = bits.Mul64(x0, k[4])
	hi, lo = hi^h, lo^l
	h, l = bits.Mul64(x1, k[4])
	hi, lo = hi^h, lo^l
	h, l = bits.Mul64(x2, k[4])
	hi, lo = hi^h, lo^l
	h, l = bits.Mul64(x3, k[4])
	hi, lo = hi^h, lo^l
	return hi, lo
}

// mulReduce returns (yhi:ylo)·H in reflected form, for the key k.
func mulReduce(yhi, ylo uint64, k *genericKey) (hi, lo uint64) {
	// Karatsuba: Z = P2·2^128 ^ (P1 ^ P0 ^ P2)·2^64 ^ P0.
	p0h, p0l := mul64(ylo, &k.lo)
	p2h, p2l := mul64(yhi, &k.hi)
	p1h, p1l := mul64(ylo^yhi, &k.mid)
	p1h ^= p0h ^ p2h
	p1l ^= p0l ^ p2l
	z3 := p2h
	z2 := p2l ^ p1h
	z1 := p0h ^ p1l
	z0 := p0l

	// (z3:z2) = L, coefficients of x^0..x^127; (z1:z0) = U, x^128..x^255.
	// s collects, at the top of a word, the bits of U·x, U·x^2 and U·x^7
	// that fall below bit 0: the terms of degree 128 and above.
	s := z0<<63 ^ z0<<62 ^ z0<<57
	t := z1 ^ s
	hi = z3 ^ t ^ t>>1 ^ t>>2 ^ t>>7
	lo = z2 ^ z0 ^ (z0>>1 | z1<<63) ^ (z0>>2 | z1<<62) ^ (z0>>7 | z1<<57)
	return hi, lo
}

// updateGeneric absorbs the whole blocks of p into y: y = (y ^ X)·H for
// each block X.
func updateGeneric(y *[16]byte, k *expandedKey, p []byte) {
	yhi := binary.BigEndian.Uint64(y[0:8])
	ylo := binary.BigEndian.Uint64(y[8:16])
	gk := &k.generic
	for len(p) >= 16 {
		yhi ^= binary.BigEndian.Uint64(p[0:8])
		ylo ^= binary.BigEndian.Uint64(p[8:16])
		yhi, ylo = mulReduce(yhi, ylo, gk)
		p = p[16:]
	}
	binary.BigEndian.PutUint64(y[0:8], yhi)
	binary.BigEndian.PutUint64(y[8:16], ylo)
}
