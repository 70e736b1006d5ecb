package sha1arm

import "github.com/simdhash/simdhash/gen/internal/armemit"

// The backend (backend.go, rounds.go) emits code through a machine: the
// instructions it needs, in terms that do not depend on the instruction
// set. machine_a64.go implements them with gen/internal/arm64, and
// machine_a32.go with gen/internal/arm32, where every NEON instruction is
// a WORD.
//
// Registers are named by their number on the target: a general register
// (greg) R0..R25 on arm64 or R0..R14 on arm, and a 128-bit vector
// register (vreg) V0..V31 on arm64 or Q0..Q15 on arm. Operands are
// written destination last, as in Go's assembly: alu(op, m, n, d) is
// d = n op m.

// greg is a general-purpose register, by number.
type greg int

// vreg is a 128-bit vector register, by number.
type vreg int

// aluOp is a data-processing operation of the rounds.
type aluOp int

const (
	opAdd aluOp = iota
	opEor
	opAnd
	opBic // n &^ m
	opOrr
)

// commutes reports whether n op m = m op n.
func (op aluOp) commutes() bool { return op != opBic }

// shift is the shift applied to the second operand m of an instruction;
// the zero shift leaves it as it is.
type shift struct {
	kind armemit.ShiftKind
	n    int
}

// ror is the rotate right by n bits; no shift for a multiple of 32.
func ror(n int) shift {
	if n%32 == 0 {
		return shift{}
	}
	return shift{armemit.ROR, n % 32}
}

// rotateHow is how an explicit rotate is written.
type rotateHow int

const (
	rotateROR rotateHow = iota // arm64 RORW (EXTR); on arm, MOVW of a rotated operand
	rotateORR                  // arm64 ORRW with ZR and a rotated operand
)

// machine is one function of the target. Memory is addressed through a
// general register or, for the W+K ring, by the ring's byte offset.
type machine interface {
	// Function structure.
	comment(lines ...string)
	label(name string)
	jump(label string)
	ret()
	// schedule reorders each straight stretch of code for core o
	// (-order).
	schedule(o Order)
	// gnu returns the loop at label start in GNU syntax.
	gnu(start string) (string, error)

	// Arguments and the block pointers of func(h *[5]uint32, p []byte).

	// loadH loads the argument h into d.
	loadH(d greg)
	// blocks loads p's base into ptr, and ptr plus len(p) rounded down to
	// whole 64-byte blocks into end; it jumps to label if there is no
	// whole block.
	blocks(ptr, end greg, label string)
	// advance points ptr at the next block, and jumps to label if that
	// starts at or past end: the Backend's Advance.
	advance(ptr, end greg, label string)
	// prologue sets up what the machine keeps in registers: on arm64,
	// the addresses of the ring's four 16-byte slots.
	prologue()

	// Scalar operations.

	// alu sets d = n op (m shifted by sh). n may not be shifted; m may
	// be rotated only by a logical operation, or by opAdd where
	// addRotates.
	alu(op aluOp, m greg, sh shift, n, d greg)
	// addRotates reports whether ADD takes a rotated operand (32-bit ARM).
	addRotates() bool
	// rotate sets d = n rotated right by k bits, written as how says.
	rotate(how rotateHow, k int, n, d greg)
	// addHigh sets d = n plus the high word of the 64-bit register x
	// (arm64: a 64-bit ADD of x>>32, which leaves the low word right).
	addHigh(x, n, d greg)
	// mov sets d = s.
	mov(s, d greg)
	// load and store move the word at off(base).
	load(base greg, off int, d greg)
	store(s, base greg, off int)

	// The W+K ring, off bytes into it: 16-byte aligned for storeRing,
	// 4-byte aligned, or 8 (-wk ldpw, ldrx) or 16 (ldpx), for loadRing,
	// which loads the words of one load of l (any but LoadsFmov) into d:
	// one word, two into d[0] and d[1], two into the 64-bit d[0], or four
	// into the 64-bit d[0] and d[1].
	storeRing(s vreg, off int)
	loadRing(l Loads, off int, d [2]greg)

	// Vector operations, on four 32-bit lanes.

	// loadBlock loads group g (0..3) of the block at ptr into d: on
	// arm64 the 16 bytes at 16g(ptr); on arm the next 16 bytes at ptr,
	// which it advances past them (the groups are loaded in order, so
	// that after the fourth ptr is at the next block).
	loadBlock(ptr greg, g int, d vreg)
	rev32(s, d vreg)             // each word byte-swapped
	eor(m, n, d vreg)            // d = n ^ m
	ext(imm int, m, n, d vreg)   // d = bytes imm..imm+15 of m:n (n low)
	shl(k int, s, d vreg)        // d = s << k in each lane
	sri(k int, s, d vreg)        // d's lanes take s >> k in their low 32-k bits
	usra(k int, s, d vreg)       // d += s >> k in each lane
	add32(m, n, d vreg)          // d = n + m in each lane
	zero(d vreg)                 // d = 0
	loadK(addr greg, ks [4]vreg) // ks[i] = K of rounds 20i..20i+19 in every lane, through addr
}

// vectorRing is a machine that can keep the W+K ring in vector registers
// (-wk fmov, arm64), from which the rounds move the words they read.
type vectorRing interface {
	// moveRing sets the 64-bit register d to half of s: its low 64 bits
	// (half 0) or its high 64 bits (half 1), two rounds' words.
	moveRing(s vreg, half int, d greg)
}
