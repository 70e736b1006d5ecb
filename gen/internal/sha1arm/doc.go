// Package sha1arm is the ARM backend of gen/internal/sha1sched, which
// describes the SHA-1 block function with a vectorised message schedule
// once for every target. It emits the "neon" kernel, for ARM cores without
// the SHA-1 instructions, for arm64 (gen/internal/arm64) and 32-bit ARM
// (gen/internal/arm32, NEON as WORDs), from the same code: a machine for
// each instruction set (machine.go) carries the few operations the backend
// needs.
//
// # What the backend chooses
//
// The schedule runs on NEON in 128-bit registers (sha1sched.RotateInto:
// NEON has no vector rotate, so a lane rotate is a shift into a fresh
// register and a shift-and-insert, SRI, or a shift-and-accumulate, USRA,
// into it: -vrotate). The four words that straddle two registers, and
// the lane moves of groups 4..7, are EXTs (with a zero register); K is
// added from four registers; W+K is stored into a 64-byte ring in the
// function's frame, from which the rounds load it, one word per round or,
// on arm64, two or four at a time (-wk; sha1sched.Round.Ahead). On arm64
// the ring may instead be four vector registers (-wk fmov): K is added
// into the slot's register, and the rounds move two words at a time to a
// general register with FMOV: two instructions a group instead of a
// store and two loads, and no memory.
//
// The rounds run in general registers, three-operand, renamed rather than
// moved (a..e by round). Their rotates are where ARM differs from x86: a
// data-processing instruction takes a shifted register as its second
// operand (32-bit ARM: any; arm64: ADD and SUB only shifts, the logical
// instructions rotates too). So:
//
//   - rol5(a) is added into e as ADD Ra@>27, Re, Re on 32-bit ARM; arm64
//     rotates it into a temporary first, with RORW or as the rotated
//     operand of ORRW with ZR, or adds its two halves, a<<5 and a>>27,
//     with two shifted ADDWs (-rol5);
//   - rol30(b) is either done in place (-rol30 ror, or orr on arm64), or
//     folded (-rol30 fold): b is left as it is, the registers of c, d and
//     e hold their values rotated left by 2, and every instruction that
//     reads one rotates it back in its shifted operand. A logical
//     operation on two such registers needs no rotation at all (its
//     result is rotated likewise), and e is rotated back as its round
//     adds W+K into it (ADD Re@>2, Rwk, Re on 32-bit ARM; a rotate first
//     on arm64, whose ADD takes no rotated operand).
//
// The functions f are written from the algebra of sha1sched's forms
// (-ch, -maj), each operation emitted by logic, which places the
// rotations (val). Each round's temporaries, and the vector temporaries
// of each group, alternate between sets where there are registers enough,
// so that a list scheduler may overlap them (-order a55 or a53, for
// in-order cores: armemit.Func.ScheduleInOrder; -order both orders for the
// A55, then improves the order for the A53 where the A55 loses nothing);
// -order description keeps the description's order and its -placement.
//
// Params holds a kernel's choices: the shared sha1sched.Schedule and the
// backend's knobs. Each architecture honours, registers and prints in its
// schedule line only the knobs its Knobs method lists.
package sha1arm
