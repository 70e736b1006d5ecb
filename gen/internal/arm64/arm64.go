// Package arm64 is a small typed emitter of arm64 (AArch64) Go assembly.
//
// avo, which the amd64 generators use, targets amd64 only. This package
// covers what the arm64 generators need: registers, arrangements and
// instructions. What does not depend on the instruction set (files,
// functions as lists of instructions, the list scheduler, the GNU export
// of loops, printing through avo's printer with its header, build
// constraint and "Requires:" lines) is package armemit, shared with the
// 32-bit emitter gen/internal/arm32. Argument offsets come from avo's
// gotypes, whose amd64 sizes are arm64's too. Nothing here imports
// avo/build, whose init registers global command-line flags.
//
// Registers and arrangements are Go values, so a typo is a compile error
// rather than a string the assembler rejects later:
//
//	f.VPMULL(V1.B8(), V0.B8(), V2.H8()) // VPMULL V1.B8, V0.B8, V2.H8
//
// Each instruction method checks its operand shapes and panics, at
// generation time, on a combination the instruction does not have. Operands
// follow Go's order (sources first, destination last), as in Go's arm64
// assembler.
//
// Every instruction can be printed both in Go syntax and in GNU syntax (for
// llvm-mca, and for the tests that assemble both and compare the bytes).
// An instruction that Go's assembler does not know (MOVI.2D) is encoded
// here from the fields of the Arm Architecture Reference Manual and emitted
// as WORD with the GNU mnemonic in a comment.
package arm64

import "fmt"

// An Arrangement is the shape of a vector operand: element size and count.
type Arrangement uint8

// The arrangements. Q1 is the 128-bit result of the 64-bit PMULL.
const (
	B8 Arrangement = iota + 1
	B16
	H4
	H8
	S2
	S4
	D1
	D2
	Q1
)

var arrangements = [...]struct {
	goName, gnuName string
	elemBits, lanes int
}{
	B8:  {"B8", "8b", 8, 8},
	B16: {"B16", "16b", 8, 16},
	H4:  {"H4", "4h", 16, 4},
	H8:  {"H8", "8h", 16, 8},
	S2:  {"S2", "2s", 32, 2},
	S4:  {"S4", "4s", 32, 4},
	D1:  {"D1", "1d", 64, 1},
	D2:  {"D2", "2d", 64, 2},
	Q1:  {"Q1", "1q", 128, 1},
}

func (a Arrangement) valid() bool { return a >= B8 && a <= Q1 }

// String returns the arrangement's name in Go syntax, such as "B16".
func (a Arrangement) String() string {
	if !a.valid() {
		return fmt.Sprintf("Arrangement(%d)", uint8(a))
	}
	return arrangements[a].goName
}

// ElemBits is the size of one element in bits.
func (a Arrangement) ElemBits() int { return arrangements[a].elemBits }

// Lanes is the number of elements.
func (a Arrangement) Lanes() int { return arrangements[a].lanes }

// Bytes is the size of the whole operand: 8 or 16.
func (a Arrangement) Bytes() int { return a.ElemBits() * a.Lanes() / 8 }

// q is the Q bit of most SIMD encodings: 1 for a 128-bit operand.
func (a Arrangement) q() uint32 { return uint32(a.Bytes() / 16) }

// size is the two-bit element size field: 0 for bytes up to 3 for doublewords.
func (a Arrangement) size() uint32 { return [...]uint32{8: 0, 16: 1, 32: 2, 64: 3}[a.ElemBits()] }

// VReg is one of the 32 SIMD registers V0–V31.
type VReg uint8

// The SIMD registers.
const (
	V0 VReg = iota
	V1
	V2
	V3
	V4
	V5
	V6
	V7
	V8
	V9
	V10
	V11
	V12
	V13
	V14
	V15
	V16
	V17
	V18
	V19
	V20
	V21
	V22
	V23
	V24
	V25
	V26
	V27
	V28
	V29
	V30
	V31
)

// V returns SIMD register Vn; it panics unless 0 <= n <= 31.
func V(n int) VReg {
	if n < 0 || n > 31 {
		panic(fmt.Sprintf("arm64: no SIMD register V%d", n))
	}
	return VReg(n)
}

// Num is the register number, 0–31.
func (v VReg) Num() int { return int(v) }

// String returns the register's Go name, such as "V3".
func (v VReg) String() string { return fmt.Sprintf("V%d", v) }

// As returns v with arrangement a.
func (v VReg) As(a Arrangement) Vec {
	if !a.valid() {
		panic(fmt.Sprintf("arm64: invalid arrangement %d", a))
	}
	return Vec{v, a}
}

// B8 is v as eight bytes (the low half).
func (v VReg) B8() Vec { return v.As(B8) }

// B16 is v as sixteen bytes.
func (v VReg) B16() Vec { return v.As(B16) }

// H4 is v as four halfwords (the low half).
func (v VReg) H4() Vec { return v.As(H4) }

// H8 is v as eight halfwords.
func (v VReg) H8() Vec { return v.As(H8) }

// S2 is v as two words (the low half).
func (v VReg) S2() Vec { return v.As(S2) }

// S4 is v as four words.
func (v VReg) S4() Vec { return v.As(S4) }

// D1 is v's low doubleword.
func (v VReg) D1() Vec { return v.As(D1) }

// D2 is v as two doublewords.
func (v VReg) D2() Vec { return v.As(D2) }

// Q1 is v as one 128-bit quadword (the result of the 64-bit PMULL).
func (v VReg) Q1() Vec { return v.As(Q1) }

// B is byte element i of v, as in VMOV and VDUP.
func (v VReg) B(i int) Elem { return v.elem(8, i) }

// H is halfword element i of v.
func (v VReg) H(i int) Elem { return v.elem(16, i) }

// S is word element i of v.
func (v VReg) S(i int) Elem { return v.elem(32, i) }

// D is doubleword element i (0 or 1) of v.
func (v VReg) D(i int) Elem { return v.elem(64, i) }

func (v VReg) elem(bits, i int) Elem {
	if i < 0 || i >= 128/bits {
		panic(fmt.Sprintf("arm64: %v has no %d-bit element %d", v, bits, i))
	}
	return Elem{v, bits, i}
}

// Vec is a SIMD register with an arrangement: an operand such as V3.B16.
// Make one with the methods of VReg (V3.B16()).
type Vec struct {
	Reg VReg
	Arr Arrangement
}

func (x Vec) goText() string  { return fmt.Sprintf("V%d.%s", x.Reg, arrangements[x.Arr].goName) }
func (x Vec) gnuText() string { return fmt.Sprintf("v%d.%s", x.Reg, arrangements[x.Arr].gnuName) }

// String returns x in Go syntax, such as "V3.B16".
func (x Vec) String() string { return x.goText() }

// Elem is one element of a SIMD register: an operand such as V0.D[1].
type Elem struct {
	Reg   VReg
	Bits  int // 8, 16, 32 or 64
	Index int
}

func (e Elem) letter() string { return map[int]string{8: "B", 16: "H", 32: "S", 64: "D"}[e.Bits] }

func (e Elem) goText() string { return fmt.Sprintf("V%d.%s[%d]", e.Reg, e.letter(), e.Index) }
func (e Elem) gnuText() string {
	return fmt.Sprintf("v%d.%s[%d]", e.Reg, map[int]string{8: "b", 16: "h", 32: "s", 64: "d"}[e.Bits], e.Index)
}

// Reg is a 64-bit general-purpose register. Go's toolchain reserves some of
// them (R18 platform, R26 closure context, R27 assembler temporary, R28 g,
// R29 frame pointer, R30 link register); generators should use R0–R17,
// R19–R25.
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
	R9
	R10
	R11
	R12
	R13
	R14
	R15
	R16
	R17
	_ // R18, the platform register
	R19
	R20
	R21
	R22
	R23
	R24
	R25
)

// String returns the register's Go name, such as "R3", "ZR" or "RSP".
func (r Reg) String() string {
	switch r {
	case ZR:
		return "ZR"
	case RSP:
		return "RSP"
	}
	return fmt.Sprintf("R%d", r)
}

func (r Reg) gnuText() string {
	_, g := r.name(true)
	return g
}

func (r Reg) check() {
	if r > R25 || r == 18 {
		panic(fmt.Sprintf("arm64: register R%d is reserved by the Go toolchain", r))
	}
}

// Mem is a memory operand: a base register plus a byte offset, off(Rn).
type Mem struct {
	Base Reg
	Off  int
}

// At returns the memory operand off(r).
func (r Reg) At(off int) Mem { return Mem{r, off} }

func (m Mem) goText() string {
	b, _ := m.Base.name(true)
	if m.Off == 0 {
		return "(" + b + ")"
	}
	return fmt.Sprintf("%d(%s)", m.Off, b)
}

func (m Mem) gnuText() string {
	_, b := m.Base.name(true)
	if m.Off == 0 {
		return "[" + b + "]"
	}
	return fmt.Sprintf("[%s, #%d]", b, m.Off)
}
