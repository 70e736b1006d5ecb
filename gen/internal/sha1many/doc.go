// Package sha1many describes, once, the multi-lane SHA-1 block function of
// sha1.SumMany, over numbered vector registers, and emits it through a
// Backend: with avo for AVX2 with 8 lanes and AVX-512 with 16, which share
// the scalar code around the rounds (amd64: the arguments, the lanes'
// block pointers and counts, the prefetches, the loop). A Backend's ISA
// lowers the operations of the rounds and the schedule words; the NEON
// ISA (neon.go) lowers them for four lanes of arm64, through the typed
// emitter, for a NEON backend to come (TestNEONRounds runs it under
// qemu-aarch64).
//
// # The algorithm
//
// One SHA-1 stream is a chain of 80 dependent rounds per block (FIPS
// 180-4, 6.1.2), so one stream runs at the latency of that chain however
// wide the core is. The multi-lane kernels hash one message per 32-bit
// lane of a vector register instead, as Intel's multi-buffer libraries do
// (isa-l_crypto's sha1_mb, intel-ipsec-mb): every instruction works on 8
// or 16 independent messages, and throughput, not latency, sets the speed.
//
// Each round is the scalar round written on vectors:
//
//	e += W[t];  e += K;  c' = rol30(b);  e += f_t(b, c, d);  e += rol5(a)
//
// after which the registers are renamed, not moved. rol30(b) goes into a
// spare register, so that f, which needs b once more, is computed in b's
// own register. f is Ch, Parity or Maj: where the backend has a
// three-input logic instruction (VPTERNLOGD) it is one instruction, else
// the forms of the one-stream knobs -ch and -maj choose its two-input
// operations. A rotate (the ISA's sha1sched.RotateShape) is one
// instruction (VPROLD), a shift into another register and an insert
// (NEON's SHL and SRI), or, with no rotate at all, two shifts and an OR,
// and then rol5(a) is added into e as its two shifted halves, which share
// no bit.
//
// The schedule W[t] = rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]) needs no
// fix-up here: each vector holds one word of every lane. The 16-word window
// lives in registers when the register file holds it beside the state (32
// ZMM registers), else in a 32-byte-aligned stack ring, with the last four
// computed words also kept in registers, since the next word needs W[t-3].
//
// The message words come in four at a time (a load group): with -load
// unpack, row j holds, in each 128-bit part q, the four words of lane
// 4q+j (a 16-byte load, or an insert from memory); unpacking the 32-bit and
// then the 64-bit elements of the rows transposes each 4x4 block, and a
// byte shuffle makes the words big-endian. With -load gather, one gather
// per word and half of the lanes fetches them from the lanes' pointers.
//
// W[t] is computed Lookahead rounds before round t reads it: its steps,
// or a quarter of its load group's, are dealt evenly between the
// instructions of that earlier round. The last rounds of a block so load
// the first words of the next; after the last block the loop branches to
// a copy of those rounds without the loads, so that nothing past a lane's
// blocks is read. After each block the state is added into h in the lanes
// that absorb the block only (see the contract below), and the sums
// become the next block's working variables through a parallel move,
// since 80 renamings do not bring the registers back.
//
// Every access to W goes through a model of where each word lives; before
// Generate returns, the accesses are replayed for inputs of one, two and
// three blocks, and a look-ahead that would read a word before it is
// written, or after it is overwritten, is rejected with an error instead
// of emitted.
//
// # The kernel's contract
//
//	func(h *[5][16]uint32, p *[4][16]*byte, c *[2][16]int32, n int)
//
// The kernel runs n blocks. Lane l absorbs the first c[1][l] of them
// (n is the largest) into h[.][l]: c[0][l] blocks at p[0][l], then the
// rest at p[1][l] (with c[0][l] <= 0, all at p[0][l]). So a lane moves
// from its message's whole blocks on to its padded last ones within one
// call, and a lane whose count runs out retires: its h is left alone from
// then on (a masked add with AVX2; with AVX-512 an opmask, recomputed from
// the counts at every block, keeps the stores from its lanes of h). A
// retired lane, or one with count 0, stays on its last block and is still
// loaded from, so it must point at a readable block. The kernel advances
// p[0] and c as it goes, as scalar work beside the vector rounds (so they
// are unspecified afterwards). At its start it prefetches the addresses
// p[2][l] and p[3][l], the caller's hint of what comes next: sha1.SumMany
// gives the first and last bytes of the next messages, whose tails it
// reads to pad them before any kernel does.
//
// # Tests
//
// The 16-lane kernel cannot run on a CPU without AVX-512, so the tests run
// every variant of a kernel the CPU lacks on the emulator of
// gen/internal/x86emu, which executes avo's instructions with the SDM's
// semantics, every variant the CPU runs natively (TestSweep), and two of
// those on the emulator as well, which checks it against the CPU; each
// against FIPS 180-4. TestEncodings checks with GNU objdump that the
// assembled instructions are the ones the emulator executes.
package sha1many
