// Package sha1x86 is the x86 backend of gen/internal/sha1sched, which
// describes the SHA-1 block function with a vectorised message schedule
// once for every target. It emits three kernels with avo (Kernel): SSSE3
// (two-operand SSE encodings), AVX (three-operand VEX encodings) and AVX2
// (the same groups on YMM registers for two blocks at once, with BMI
// rounds; avx2.go).
//
// # What the backend chooses
//
// The vector operations are lowered through the ISA interface, written
// once in three-operand form: the SSSE3 implementation inserts the
// register copies a two-operand encoding needs, the AVX one emits VEX
// forms directly. A rotate works in place (sha1sched.RotateInPlace): a
// shift into a scratch register, a shift, and POR, with the left shift by
// one done as PADDD (on the adders rather than the shifter). The four
// words that straddle two registers are one PALIGNR or PSHUFD+PUNPCKLQDQ
// (the -align knob). K is added from a table in memory, and W+K is added
// into e straight from the ring on the stack.
//
// The scalar rounds of the one-block kernels (rounds.go) keep the state h
// in registers from the first block to the last, rename a..e instead of
// moving them, rotate a in place after copying it, and carry part of the
// next round's f in that copy; the -rotate knob says how they rotate. The
// pair kernel's rounds use RORX and ANDN instead.
//
// Params holds a kernel's choices: the shared sha1sched.Schedule and the
// backend's -rotate and -align. Each kernel honours, registers and prints
// in its schedule line only the knobs its Knobs method lists.
//
// The one-block kernels are also generated for 386 (Kernel.For, x386.go):
// the same description, vector lowering and rounds, with the description
// spilling what 7 XMM registers do not hold, the state, the block pointer
// and K in memory, and the rounds borrowing their temporary; avogen checks
// that the text keeps to what Go's 386 assembler takes and lays out the
// arguments for 386.
package sha1x86
