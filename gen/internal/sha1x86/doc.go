// Package sha1x86 describes, once, the SHA-1 block function with the
// vectorised message schedule of Locktyukhin and Zohar ("Improving the
// Performance of the Secure Hash Algorithm (SHA-1)", Intel, 2010; the
// Linux kernel's sha1_ssse3_asm.S, 2011), and emits it with avo for three
// kernels: SSSE3 (two-operand SSE encodings), AVX (three-operand VEX
// encodings) and AVX2 (the same steps on YMM registers for two blocks at
// once, with BMI rounds; see GenerateAVX2).
//
// # The algorithm
//
// SHA-1 (FIPS 180-4, 6.1.2) runs 80 rounds per 64-byte block. Round t adds
// the schedule word W[t] and the round constant K[t/20] into e; the words are
//
//	W[t] = M[t]                                         t < 16 (big-endian)
//	W[t] = rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16])    16 <= t < 80
//
// The scalar rounds have a long serial dependency through a..e but leave
// the vector unit idle, so the schedule is computed there, four words at a
// time in an XMM register (a "group"), and each W[t]+K is stored in a small
// ring on the stack from which round t reads it with one ADD:
//
//   - groups 0..3 (t < 16) load 16 bytes, swap the bytes of each word
//     (PSHUFB) and add K;
//   - groups 4..7 (16 <= t < 32) use the definition above. W[t-3] for the
//     fourth lane is W[t], computed in the first lane of the same group,
//     so lanes 0..2 are computed first and lane 3 is fixed up afterwards:
//     rol1(x3 ^ W[t]) = rol1(x3) ^ rol2(x0);
//   - groups 8..19 (32 <= t < 80) use the equivalent
//     W[t] = rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]),
//     whose nearest input is six words back, outside the group, so all four
//     lanes are independent.
//
// Each group's vector steps run Lookahead rounds before the first round
// that reads its words, spread over the four rounds of a group, in between
// the scalar instructions. The words of the next block (groups 20..23 of
// the stream) are loaded during the last rounds of the current block, so
// the vector unit never waits at a block boundary. The loop advances to the
// next block where its first load falls; after the last block it branches
// to a second copy of the remaining rounds without those loads, so the
// kernels never read a byte outside their input. The state h stays in
// registers from the first block to the last.
//
// # Shape of the description
//
// Params holds every schedule choice (the look-ahead, the placement of the
// vector steps, the forms of Ch and Maj, the rotate, the alignment of the
// straddling words), with defaults per kernel (DefaultParams). The vector
// steps are written once in three-operand form against the ISA interface;
// the SSSE3 implementation inserts the register copies a two-operand
// encoding needs, the AVX one emits VEX forms directly. The emitter checks
// the W+K ring as it goes (a model of which word each slot holds), so a
// schedule that would read a slot before it is written, or after it is
// overwritten, is rejected with an error instead of emitted.
package sha1x86
