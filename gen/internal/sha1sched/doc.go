// Package sha1sched describes, once and for every target, the SHA-1 block
// function with the vectorised message schedule of Locktyukhin and Zohar
// ("Improving the Performance of the Secure Hash Algorithm (SHA-1)",
// Intel, 2010; the Linux kernel's sha1_ssse3_asm.S, 2011; carried to
// 32-bit NEON by OpenSSL's sha1-armv4 and Linux's sha1-armv7-neon.S). A
// Backend emits it for one target: gen/internal/sha1x86 for SSSE3, AVX and
// AVX2 with avo.
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
// time in a 128-bit register (a "group"), and each W[t]+K is stored in a
// small ring in memory from which round t reads it:
//
//   - groups 0..3 (t < 16) load 16 bytes, swap the bytes of each word and
//     add K;
//   - groups 4..7 (16 <= t < 32) use the definition above. W[t-3] for the
//     fourth lane is W[t], computed in the first lane of the same group,
//     so lanes 0..2 are computed first and lane 3 is fixed up afterwards:
//     rol1(x3 ^ W[t]) = rol1(x3) ^ rol2(x0);
//   - groups 8..19 (32 <= t < 80) use the equivalent
//     W[t] = rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]),
//     whose nearest input is six words back, outside the group, so all four
//     lanes are independent.
//
// Group returns a group's vector operations: the recurrences as algebra,
// on registers named by role (an eight-register window of groups and two
// temporaries), in the shape the target's rotate wants (RotateShape).
//
// Each group's operations run Lookahead rounds before the first round that
// reads its words, dealt over the four rounds of a group and placed in
// between the scalar instructions (Placement). The words of the next block
// (groups 20..23 of the stream) are loaded during the last rounds of the
// current block, so the vector unit never waits at a block boundary. The
// loop advances to the next block where its first load falls; after the
// last block it branches to a second copy of the remaining rounds without
// those loads, so the kernels never read a byte outside their input
// (Generate).
//
// The rounds compute f_t as Ch, Parity or Maj (F), in the form the Ch and
// Maj knobs choose: Ch(b,c,d) = ((c ^ d) & b) ^ d or (~b & d) + (b & c);
// Maj(b,c,d) = ((b ^ c) & (c ^ d)) ^ c, (b & c) | (d & (b | c)) or
// (c & d) + (b & (c ^ d)). An ADD form adds two halves that share no bit
// into e one by one, which shortens the chain into e at the cost of an
// instruction. The forms are written once, as expressions (FormOf, in
// forms.go), which every backend of every SHA-1 description lowers: this
// package's, sha1many's, and the x86 pair kernel's rounds.
//
// # Shape of the description
//
// Schedule holds the choices every target has, each a knob (a flag.Value
// with its choices and help). The description decides what is computed
// where; a Backend decides how: it lowers each vector operation to its
// instructions (Backend.Vector), emits each round in the forms asked for
// (Backend.Round), and owns the frame, the registers and its own knobs.
// Both return steps, which the placement deals out and interleaves; the
// first step of a round is its W+K read.
//
// Every W+K access goes through a Model of the ring, in emission order;
// before Generate returns, the accesses are replayed for whole inputs of
// one, two and three blocks, so a schedule that would read a slot before
// it is written, or after it is overwritten, is rejected instead of
// emitted. The tests run the whole description on a model backend (three
// scalar operands, no flags, a rotate into a fresh register) against FIPS
// 180-4, for every schedule and both rotate shapes.
package sha1sched
