package main

// The description of GHASH (ghash.go, mul_neon.go, mul_pmull.go) emits
// code through a machine: the operations it needs, in terms that do not
// depend on the instruction set. Two machines implement them:
// machine_a64.go (AArch64, through gen/internal/arm64) and
// machine_a32.go (32-bit ARM with NEON, through gen/internal/arm32). Each
// chooses its own instruction sequence for an operation: AArch64 has RBIT
// and a TBL that rotates both halves of a vector in one instruction, where
// AArch32 has neither but can address each 64-bit half of a Q register as
// a D register of its own.
//
// Vector values are 128-bit registers named by number (vreg), handed out
// by the description's register pool (regs.go) from the machine's
// register file: V0–V31 on arm64, Q0–Q15 on arm. A 128-bit value has two
// 64-bit halves, lo (bits 0–63) and hi (bits 64–127). General registers
// are named by number too (greg). Operands are written destination first
// (d = n op m), whatever the syntax that a machine prints.

// vreg is a 128-bit vector register, by number.
type vreg int

// greg is a general-purpose register, by number.
type greg int

// half selects a 64-bit half of a vector: the low (bits 0-63) or high.
type half int

const (
	lo half = iota
	hi
)

type machine interface {
	// vregs is the number of vector registers, all of which the pool may hand out.
	vregs() int
	// setPool gives the machine the pool, from which it takes its
	// constants and the temporaries of multi-instruction operations.
	setPool(p *pool)

	// The function's labels, comments, branches on the flags, list
	// scheduler (for in-order cores) and GNU export of a loop, as
	// armemit.Func has them.
	Label(name string)
	Comment(lines ...string)
	BLO(label string)
	BHS(label string)
	BNE(label string)
	Schedule()
	GNU(start string) (string, error)

	// Scalars and control flow.

	// loadArgs loads the arguments y, key and p of
	// func(y *[16]byte, key *[N]uint64, p []byte), and len(p) rounded
	// down to whole blocks into n.
	loadArgs(y, key, p, n greg)
	cmp(n greg, imm int)             // the flags of n - imm (unsigned), for BLO and BHS
	branchZero(n greg, label string) // jump if n == 0
	sub(n greg, imm int)             // n -= imm
	subs(n greg, imm int)            // n -= imm, and the flags, for BNE
	ret()

	// Memory.

	load(d vreg, base greg)  // the 16 bytes at (base)
	store(s vreg, base greg) // to (base)
	// loadBlocks loads len(xs) consecutive 16-byte blocks from (p) and
	// advances p past them.
	loadBlocks(xs []vreg, p greg)
	// loadKey loads the 16 bytes at key+off.
	loadKey(d vreg, key greg, off int)
	// loadKeyHalf loads the 8 bytes at key+off into half h of d, leaving
	// the other half undefined. (The description uses it, and rotateHalf,
	// only on a machine with 16 vector registers; the arm64 machine does
	// not implement it.)
	loadKeyHalf(d vreg, h half, key greg, off int)

	// Vector operations.

	xor(d, n, m vreg)       // d = n ^ m
	ext8(d, n, m vreg)      // d = [n.hi, m.lo]: bytes 8-23 of m:n
	lowHalves(d, n, m vreg) // d = [n.lo, m.lo]
	// bitrev reverses the bits of every byte of each of xs, in place:
	// SP 800-38D's bit order to the ordinary one and back.
	bitrev(xs ...vreg)
	// bitrevName names bitrev in the generated comments.
	bitrevName() string
	// karatsubaPair sets d = [a.lo ^ a.hi, b.lo ^ b.hi].
	karatsubaPair(d, a, b vreg)
	// rotUp rotates the 128 bits of x up by k bytes, in place.
	rotUp(x vreg, k int)

	p8ops
	p64ops
}

// p8ops are the operations of the 8-bit polynomial multiply (mul_neon.go).
type p8ops interface {
	// setupP8 makes the constants of the operations below: the rotations
	// by 1..rotations bytes, the fold masks, g in every byte.
	setupP8(rotations int)
	// mulP8 multiplies byte i of half h of a by byte i of half h of b,
	// carry-lessly, for i = 0..7, into the eight 16-bit lanes of d.
	mulP8(d, a, b vreg, h half)
	// rotateHalves rotates each half of x right by k bytes on its own
	// (byte i of a half of d is byte i+k mod 8 of that half of x).
	rotateHalves(d, x vreg, k int)
	// rotateHalf rotates half h of x right by k bytes into half h of d,
	// leaving d's other half undefined.
	rotateHalf(d, x vreg, k int, h half)
	// foldTops moves, for ls[i] and k = first+i, the top 16k bits of the
	// high half of ls[i] into the same bits of its low half, clearing
	// them in the high half (for k = 4, the whole high half); 1 <= k <= 4.
	foldTops(first int, ls ...vreg)
	// timesG8 returns a new register holding x.hi·g, g = x^7+x^2+x+1:
	// 71 bits at most, in the low half and the low bits of the high half.
	timesG8(x vreg) vreg
}

// p64ops are the operations of the 64-bit polynomial multiply (mul_pmull.go).
type p64ops interface {
	// setupP64 makes the constant g = x^7 + x^2 + x + 1 for timesG64.
	setupP64()
	// mulP64 multiplies half h of a by half h of b carry-lessly into d.
	mulP64(d, a, b vreg, h half)
	// timesG64 returns a new register holding x.hi·g.
	timesG64(x vreg) vreg
}
