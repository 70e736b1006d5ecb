package arm32

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/gen/internal/armemit"
	"github.com/simdhash/simdhash/gen/internal/armemit/armtest"
	"github.com/simdhash/simdhash/gen/internal/gentest"
)

// every emits one of each instruction form the emitter has, with varied
// registers (low and high halves of the register file, so that the D, N
// and M bits are exercised), so that a wrong field shows up as a
// different encoding.
func every(f *Func) {
	f.Label("top")
	f.VEOR(Q3, Q2, Q1)
	f.VEOR(Dn(7), Dn(16), Dn(31))
	f.VEOR(Q0, Q15, Q8)
	f.VAND(Q14, Q5, Q4)
	f.VAND(Dn(17), Dn(30), Dn(1))
	f.VMOV(Q12, Q3)
	f.VMOV(Dn(26), Dn(5))
	f.VMULLP8(Dn(17), Dn(16), Q0)
	f.VMULLP8(Dn(30), Dn(1), Q15)
	f.VMULLP8(Dn(13), Dn(12), Q6)
	f.VMULLP64(Dn(17), Dn(16), Q0)
	f.VMULLP64(Dn(2), Dn(29), Q11)
	f.VEXT(8, Q3, Q2, Q1)
	f.VEXT(15, Q15, Q0, Q13)
	f.VEXT(1, Dn(25), Dn(25), Dn(24))
	f.VEXT(7, Dn(3), Dn(18), Dn(2))
	f.VTBL(Dn(29), []DReg{Dn(30), Dn(31)}, Dn(28))
	f.VTBL(Dn(19), []DReg{Dn(4)}, Dn(0))
	f.VTBL(Dn(1), []DReg{Dn(8), Dn(9), Dn(10), Dn(11)}, Dn(17))
	f.VUZP(8, Dn(5), Dn(4))
	f.VUZP(16, Q9, Q2)
	f.VSHR(8, 4, Q9, Q8)
	f.VSHR(64, 56, Dn(2), Dn(1))
	f.VSHR(64, 1, Q2, Q1)
	f.VSHR(16, 16, Dn(18), Dn(17))
	f.VSHL(64, 8, Dn(4), Dn(3))
	f.VSHL(8, 4, Q4, Q3)
	f.VSHL(32, 31, Q3, Q12)
	f.VSRI(8, 4, Q1, Q0)
	f.VSRI(64, 63, Dn(6), Dn(21))
	f.VMOVI8(0x87, Q13)
	f.VMOVI8(0x0f, Dn(27))
	f.VMOVI8(0, Q0)
	f.VMOVI64(0x0000ffffffffffff, Dn(6))
	f.VMOVI64(0xff000000000000ff, Q14)
	f.VMOVI64(0, Dn(23))
	f.VLD1(R2, Advance, Regs(Q0))
	f.VLD1(R1, NoUpdate, Regs(Q8, Q9))
	f.VLD1(R5, AdvanceBy(R6), []DReg{Dn(31)})
	f.VLD1(R4, Advance, []DReg{Dn(13), Dn(14), Dn(15)})
	f.VST1(Regs(Q3), R0, NoUpdate)
	f.VLDR(R1, 0, Dn(0))
	f.VLDR(R1, 232, Dn(29))
	f.VLDR(R8, 1020, Dn(14))
	f.VST1([]DReg{Dn(17), Dn(18)}, R7, Advance)
	f.VADD(32, Q2, Q1, Q0)
	f.VADD(32, Q10, Q9, Q8)
	f.VADD(64, Dn(3), Dn(30), Dn(17))
	f.VREV32(8, Q1, Q0)
	f.VREV32(8, Q11, Q10)
	f.VREV32(16, Dn(5), Dn(21))
	f.SHA1C(Q2, Q1, Q0)
	f.SHA1C(Q9, Q8, Q15)
	f.SHA1P(Q2, Q1, Q0)
	f.SHA1M(Q12, Q3, Q11)
	f.SHA1SU0(Q2, Q1, Q0)
	f.SHA1SU0(Q14, Q13, Q9)
	f.SHA1H(Q1, Q0)
	f.SHA1H(Q14, Q9)
	f.SHA1SU1(Q1, Q0)
	f.SHA1SU1(Q10, Q13)
	f.VLDR32(R0, 16, Q2)
	f.VLDR32(R3, 1020, Q7)
	f.VLDR32(R1, 0, Q0)
	f.VSTR32(Q2, R0, 16)
	f.VSTR32(Q5, R8, 4)
	f.MOVW(R1, R5)
	f.MOVW(R2.ROR(2), R2)
	f.MOVW(R12.ROR(27), R3)
	f.ADD(R1.ROR(27), R2, R3)
	f.ADD(R4, R5, R6)
	f.ADD(R7.ROR(2), R8, R12)
	f.BICReg(R1.ROR(30), R2, R3)
	f.BICReg(R4, R5, R6)
	f.EOR(R1.ROR(2), R2, R3)
	f.EOR(R12, R14, R0)
	f.AND(R3.LSL(4), R4, R5)
	f.ORR(R6.LSR(3), R7, R8)
	f.CMPReg(R1, R2)
	f.LDR(SP, 4, R1)
	f.LDR(SP, 4092, R14)
	f.LDR(R3, 0, R12)
	f.STR(R5, SP, 64)
	f.STR(R12, R0, 16)
	f.VSTR(Dn(3), SP, 16)
	f.VSTR(Dn(30), R2, 1020)
	f.VLDR(SP, 8, Dn(17))
	f.VSRA(32, 31, Q1, Q2)
	f.VSRA(32, 2, Q9, Q10)
	f.VSRA(64, 1, Dn(3), Dn(20))
	f.SUB(128, R3, R3)
	f.SUBS(16, R3, R3)
	f.BIC(15, R3, R3)
	f.CMP(64, R3)
	f.SUBIf(armemit.EQ, 64, R1, R1)
	f.SUBIf(armemit.NE, 32, R2, R4)
	f.BNE("top")
	f.BEQ("top")
	f.BHS("top")
	f.BLO("top")
	f.B("top")
}

// gnuPrelude selects what GNU as must accept: A32 code, ARMv8 with NEON and
// the Crypto Extensions (for vmull.p64).
const gnuPrelude = "\t.syntax unified\n\t.arch armv8-a\n\t.fpu crypto-neon-fp-armv8\n\t.arm\n"

// TestEncodings assembles every instruction form twice: the Go text (the
// WORDs computed here, and the general-purpose instructions in Go syntax)
// with Go's assembler, and the GNU text with GNU as for ARM. Every machine
// word must agree: this checks each NEON encoding against an independent
// assembler, and that each Go-syntax instruction is the GNU one its
// comment and the -gnu export claim.
func TestEncodings(t *testing.T) {
	file := armtest.Must(NewFile("arm"))(t)
	f := armtest.Must(file.Func("every", "func()"))(t)
	f.SetFrame(8) // R14 is free
	every(f)
	armtest.Encodings(t, file.File, f.Func, "arm", "arm-linux-gnueabihf-", gnuPrelude, 1)
}

// TestKnownWords pins encodings checked with GNU as, so that they stay
// checked where binutils for ARM are not installed.
func TestKnownWords(t *testing.T) {
	armtest.Words(t, testFunc, map[string]func(f *Func){
		"WORD $0xf2800ea1 // vmull.p8 q0, d16, d17":  func(f *Func) { f.VMULLP8(Dn(17), Dn(16), Q0) },
		"WORD $0xf2a00e21 // vmull.p64 q0, d0, d17":  func(f *Func) { f.VMULLP64(Dn(17), Dn(0), Q0) },
		"WORD $0xf3042156 // veor q1, q2, q3":        func(f *Func) { f.VEOR(Q3, Q2, Q1) },
		"WORD $0xf240ece2 // sha1c.32 q15, q8, q9":   func(f *Func) { f.SHA1C(Q9, Q8, Q15) },
		"WORD $0xf3f922ec // sha1h.32 q9, q14":       func(f *Func) { f.SHA1H(Q14, Q9) },
		"WORD $0xed904a04 // vldr s8, [r0, #16]":     func(f *Func) { f.VLDR32(R0, 16, Q2) },
		"WORD $0xf2b42846 // vext.8 q1, q2, q3, #8":  func(f *Func) { f.VEXT(8, Q3, Q2, Q1) },
		"WORD $0xf4220a0d // vld1.8 {d0, d1}, [r2]!": func(f *Func) { f.VLD1(R2, Advance, Regs(Q0)) },
	})
}

// testFunc is a function outside any file, of a signature with a slice.
func testFunc() *Func { return armemit.Must(newFunc("t", "func(p []byte)")) }

// TestShapes checks that operand shapes an instruction lacks are refused
// when the generator runs.
func TestShapes(t *testing.T) {
	armtest.Refused(t, testFunc, map[string]func(f *Func){
		"VEOR mixed widths":  func(f *Func) { f.VEOR(Q3, Dn(2), Q1) },
		"VEXT index":         func(f *Func) { f.VEXT(8, Dn(3), Dn(2), Dn(1)) },
		"VSHR zero":          func(f *Func) { f.VSHR(8, 0, Q2, Q1) },
		"VSHL by size":       func(f *Func) { f.VSHL(64, 64, Q2, Q1) },
		"VUZP same register": func(f *Func) { f.VUZP(8, Dn(1), Dn(1)) },
		"VUZP 64-bit":        func(f *Func) { f.VUZP(64, Dn(2), Dn(1)) },
		"VLD1 gap":           func(f *Func) { f.VLD1(R0, NoUpdate, []DReg{Dn(1), Dn(3)}) },
		"VLD1 five":          func(f *Func) { f.VLD1(R0, NoUpdate, []DReg{Dn(1), Dn(2), Dn(3), Dn(4), Dn(5)}) },
		"VTBL five":          func(f *Func) { f.VTBL(Dn(6), []DReg{Dn(1), Dn(2), Dn(3), Dn(4), Dn(5)}, Dn(0)) },
		"VMOVI64 byte":       func(f *Func) { f.VMOVI64(0x87, Q1) },
		"reserved register":  func(f *Func) { f.MOVW(Reg(10), R1) },
		"no such Q register": func(f *Func) { Q(16) },
		"no such D register": func(f *Func) { Dn(32) },
		"argument not found": func(f *Func) { f.LoadArg(f.Arg("nope"), R0) },
		"slice without part": func(f *Func) { f.LoadArg(f.Arg("p"), R0) },
		"half of a Q, wrong": func(f *Func) { Q1.Half(2) },
		"VSRI mixed widths":  func(f *Func) { f.VSRI(8, 1, Dn(2), Q1) },
		"VLDR offset":        func(f *Func) { f.VLDR(R1, 6, Dn(1)) },
		"VLDR32 no S reg":    func(f *Func) { f.VLDR32(R1, 0, Q8) },
		"VSTR32 offset":      func(f *Func) { f.VSTR32(Q1, R1, 1024) },
		"VADD mixed widths":  func(f *Func) { f.VADD(32, Q1, Dn(2), Q3) },
		"VREV32 by 32":       func(f *Func) { f.VREV32(32, Q1, Q2) },
		"R14 without frame":  func(f *Func) { f.EOR(R1, R14, R2) },
		"SUB R14, no frame":  func(f *Func) { f.SUB(4, R14, R14) },
		"CMP R14, no frame":  func(f *Func) { f.CMP(0, R14) },
		"VLD1 from R14":      func(f *Func) { f.VLD1(R14, NoUpdate, []DReg{Dn(1)}) },
		"R9":                 func(f *Func) { f.EOR(R1, Reg(9), R2) },
		"SP operand":         func(f *Func) { f.ADD(SP, R1, R2) },
		"shift 32":           func(f *Func) { f.EOR(R1.ROR(32), R2, R3) },
		"LDR offset":         func(f *Func) { f.LDR(SP, 4096, R1) },
		"VSTR offset":        func(f *Func) { f.VSTR(Dn(1), SP, 6) },
	})
}

// TestFrame checks argument offsets and the TEXT line against gc's layout
// on arm: 4-byte pointers and ints, slices of 12 bytes.
func TestFrame(t *testing.T) {
	file := armtest.Must(NewFile("arm && !purego"))(t)
	f := armtest.Must(file.Func("kern", "func(y *[16]byte, key *[30]uint64, p []byte)"))(t)
	f.LoadArg(f.Arg("y"), R0)
	f.LoadArg(f.Arg("key"), R1)
	f.LoadArg(f.Arg("p").Base(), R2)
	f.LoadArg(f.Arg("p").Len(), R3)
	f.VMULLP64(Dn(1), Dn(0), Q0)
	f.RET()
	g := armtest.Must(file.Func("count", "func(s string, n uint32) (r int, ok uintptr)"))(t)
	g.LoadArg(g.Arg("s").Len(), R0)
	g.LoadArg(g.Arg("n"), R1)
	g.LoadArg(g.Arg("ok"), R2)
	g.RET()
	b := armtest.Must(file.Bytes([]string{"go", "run", "example.com/gen"}))(t)
	armtest.Contains(t, b,
		"//go:build arm && !purego\n",
		"// func kern(y *[16]byte, key *[30]uint64, p []byte)\n// Requires: NEON, PMULL\nTEXT ·kern(SB), NOSPLIT, $0-20\n",
		"MOVW y+0(FP), R0", "MOVW key+4(FP), R1", "MOVW p_base+8(FP), R2", "MOVW p_len+12(FP), R3",
		"TEXT ·count(SB), NOSPLIT, $0-20\n",
		"MOVW s_len+4(FP), R0", "MOVW n+8(FP), R1", "MOVW ok+16(FP), R2")
}

// TestAsmdecl lets go vet's asmdecl check, for GOARCH=arm, the offsets and
// frame sizes this package writes, against Go declarations.
func TestAsmdecl(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet on a temporary module")
	}
	goBin, _ := gentest.GoTool(t)
	file := armtest.Must(NewFile("arm"))(t)
	decls := map[string]string{
		"kern":  "func(y *[16]byte, key *[30]uint64, p []byte)",
		"count": "func(s string, n uint32, b []uint16) (r int, ok uint32)",
	}
	var goSrc strings.Builder
	goSrc.WriteString("package x\n\n")
	for _, name := range []string{"kern", "count"} {
		f := armtest.Must(file.Func(name, decls[name]))(t)
		fmt.Fprintf(&goSrc, "func %s%s\n", name, strings.TrimPrefix(decls[name], "func"))
		for comp := range f.offsets {
			f.LoadArg(Arg{f, comp}, R0)
		}
		f.RET()
	}
	b := armtest.Must(file.Bytes([]string{"test"}))(t)
	dir := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module x\n\ngo 1.21\n", "x.go": goSrc.String(), "x_arm.s": string(b)} {
		gentest.WriteFile(t, filepath.Join(dir, name), text)
	}
	gentest.Run(t, dir, []string{"GOOS=linux", "GOARCH=arm", "GOFLAGS=-mod=mod", "GOWORK=off"}, goBin, "vet", ".")
}

// TestDependences checks that every instruction form declares what it
// writes, which Schedule relies on.
func TestDependences(t *testing.T) {
	f := testFunc()
	f.SetFrame(8)
	every(f)
	armtest.Outputs(t, f.Insts())
}

// TestScheduleHalves checks that the scheduler sees a D register as half
// of its Q register: an operation on d1 must stay after the multiply that
// writes q0, and one on d2 is free to move between them.
func TestScheduleHalves(t *testing.T) {
	f := testFunc()
	f.Label("loop")
	f.VMULLP8(Dn(17), Dn(16), Q0)
	f.VEOR(Dn(20), Dn(1), Dn(1)) // needs the high half of q0
	f.VEOR(Dn(21), Dn(2), Dn(2)) // independent
	f.VEOR(Dn(22), Dn(3), Dn(3)) // independent
	f.SUBS(16, R3, R3)
	f.BNE("loop")
	f.Schedule()
	got := armtest.Must(f.GNU("loop"))(t)
	pos := armtest.Lines(got)
	mul, use := pos["vmull.p8 q0, d16, d17"], pos["veor d1, d1, d20"]
	if use < mul+2 {
		t.Errorf("the use of q0's high half was not kept apart from the multiply:\n%s", got)
	}
	if !strings.HasSuffix(got, "bne loop\n") {
		t.Errorf("the branch is not last:\n%s", got)
	}
}
