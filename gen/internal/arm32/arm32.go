// Package arm32 is a small typed emitter of 32-bit ARM (GOARCH=arm) Go
// assembly with Advanced SIMD (NEON) instructions.
//
// Go's arm assembler has no NEON mnemonics at all (it knows only the VFP
// instructions on F0–F15), so every NEON instruction is emitted as a WORD
// holding its A32 encoding, with the instruction in GNU syntax in a
// comment:
//
//	WORD $0xf2800ea1 // vmull.p8 q0, d16, d17
//
// The encodings are computed here from the fields of the Arm Architecture
// Reference Manual (ARMv7-A/R, DDI 0406C, section A7 "Advanced SIMD and
// Floating-point Instruction Encoding"; ARMv8 DDI 0487 for VMULL.P64), and
// the tests assemble the same instructions with GNU as and compare every
// word. Such WORDs assemble under any GOARM; whether they may run is the
// caller's dispatch decision (golang.org/x/sys/cpu's ARM.HasNEON).
// General-purpose instructions (argument loads, loop counters, branches)
// are written in Go's normal arm syntax: MOVW, ADD, SUB.S, BNE; a shifted
// register operand is a Shifted (f.ADD(R1.ROR(27), R2, R3) is
// ADD R1@>27, R2, R3).
//
// Registers are Go values: QReg is a 128-bit register Q0–Q15 and DReg a
// 64-bit register D0–D31; Qn is the pair D2n (low half), D2n+1 (high half),
// which Q.Lo and Q.Hi return. Every method takes its operands in Go's
// order, as the arm64 emitter does: immediates and element sizes first,
// then the sources, the destination last, which is the reverse of the GNU
// order printed in a WORD's comment: f.VEOR(Q3, Q2, Q1) is veor q1, q2, q3
// (q1 = q2 ^ q3), f.VEXT(8, Q3, Q2, Q1) is vext.8 q1, q2, q3, #8, and
// f.SUB(16, R2, R2) is SUB $16, R2, R2. A load takes its address first
// (f.VLDR(R1, 8, Dn(0)) is vldr d0, [r1, #8]), a store its registers
// first. Operand shapes an instruction lacks panic when the generator
// runs.
//
// Files, functions, labels, comments, the list scheduler and the GNU
// export of loops come from package armemit, shared with the arm64 emitter.
// Argument offsets are computed with go/types for gc on arm (4-byte
// pointers and ints), which avo's gotypes, written for 64-bit targets,
// does not do.
package arm32

import "fmt"

// Vec is a NEON register operand: a QReg or a DReg.
type Vec interface {
	// D is the number of the (first) 64-bit register: n for Dn, 2n for Qn.
	D() int
	// Quad reports whether the operand is a 128-bit Q register.
	Quad() bool
	fmt.Stringer
}

// QReg is one of the sixteen 128-bit NEON registers Q0–Q15.
type QReg uint8

// DReg is one of the thirty-two 64-bit NEON registers D0–D31.
type DReg uint8

// The Q registers.
const (
	Q0 QReg = iota
	Q1
	Q2
	Q3
	Q4
	Q5
	Q6
	Q7
	Q8
	Q9
	Q10
	Q11
	Q12
	Q13
	Q14
	Q15
)

// Q returns register Qn; it panics unless 0 <= n <= 15.
func Q(n int) QReg {
	if n < 0 || n > 15 {
		panic(fmt.Sprintf("arm32: no register Q%d", n))
	}
	return QReg(n)
}

// Dn returns register Dn; it panics unless 0 <= n <= 31.
func Dn(n int) DReg {
	if n < 0 || n > 31 {
		panic(fmt.Sprintf("arm32: no register D%d", n))
	}
	return DReg(n)
}

// Lo is the low half of q: D2n.
func (q QReg) Lo() DReg { return DReg(2 * q) }

// Hi is the high half of q: D2n+1.
func (q QReg) Hi() DReg { return DReg(2*q + 1) }

// Half is q's low half (h = 0) or high half (h = 1).
func (q QReg) Half(h int) DReg {
	if h != 0 && h != 1 {
		panic(fmt.Sprintf("arm32: Q%d has no half %d", q, h))
	}
	return DReg(2*int(q) + h)
}

// D is the number of q's low half.
func (q QReg) D() int { return 2 * int(q) }

// Quad is true: q is 128 bits wide.
func (q QReg) Quad() bool { return true }

// String returns the GNU name, such as "q3".
func (q QReg) String() string { return fmt.Sprintf("q%d", q) }

// D is the register number.
func (d DReg) D() int { return int(d) }

// Quad is false: d is 64 bits wide.
func (d DReg) Quad() bool { return false }

// String returns the GNU name, such as "d7".
func (d DReg) String() string { return fmt.Sprintf("d%d", d) }

// Reg is a general-purpose register. Go's toolchain reserves R9 and R10
// (g), R11 (the assembler's temporary), R13 (SP), R15 (PC), and R14 (LR)
// unless the function has a local frame, whose prologue saves it; the
// generators use R0–R8 and R12, and R14 in a function with a frame. SP
// is R13, as a base for memory operands only.
type Reg uint8

// The general-purpose registers that Go assembly may use freely.
const (
	R0 Reg = iota
	R1
	R2
	R3
	R4
	R5
	R6
	R7
	R8
	R12 Reg = 12
	SP  Reg = 13 // the stack pointer, as a memory base only
	R14 Reg = 14 // the link register: free only in a function with a frame (Func.SetFrame)
)

// String returns the register's Go name, such as "R3" (SP is R13).
func (r Reg) String() string { return fmt.Sprintf("R%d", r) }

func (r Reg) gnuText() string {
	switch r {
	case SP:
		return "sp"
	case R14:
		return "lr"
	}
	return fmt.Sprintf("r%d", r)
}

func (r Reg) check() {
	if r > R8 && r != R12 && r != R14 {
		panic(fmt.Sprintf("arm32: register R%d is reserved (use R0-R8, R12, and R14 with a frame)", r))
	}
}

// checkBase panics unless r may address memory: a register check
// accepts, or SP.
func (r Reg) checkBase() {
	if r != SP {
		r.check()
	}
}

// res names the 64-bit registers an operand occupies, as scheduler
// resources: a Q register is both of its halves, so that a D operation
// depends exactly on the Q operations that touch its half.
func res(xs ...any) []string {
	var out []string
	for _, x := range xs {
		switch x := x.(type) {
		case QReg:
			out = append(out, fmt.Sprintf("D%d", x.Lo()), fmt.Sprintf("D%d", x.Hi()))
		case DReg:
			out = append(out, fmt.Sprintf("D%d", x))
		case []DReg:
			for _, d := range x {
				out = append(out, res(d)...)
			}
		case Reg:
			out = append(out, x.String())
		case string:
			out = append(out, x)
		default:
			panic(fmt.Sprintf("arm32: no resource for %T", x))
		}
	}
	return out
}
