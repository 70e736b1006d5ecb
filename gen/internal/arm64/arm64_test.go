package arm64

import (
	"strings"
	"testing"

	"github.com/simdhash/simdhash/gen/internal/armemit"
	"github.com/simdhash/simdhash/gen/internal/armemit/armtest"
)

// every emits one of each instruction form the emitter has, with varied
// registers, so that a wrong field shows up as a different encoding.
func every(f *Func) {
	f.Label("top")
	f.VLD1(R1, V0.B16())
	f.VLD1(R2, V30.B16(), V31.B16(), V0.B16())
	f.VLD1P(R3, V4.B16(), V5.B16(), V6.B16(), V7.B16())
	f.VLD1P(R3, V4.D2())
	f.VST1(R4, V9.B16(), V10.B16())
	f.VST1Stack(R17, 32, V12.S4())
	f.LDRQ(R2.At(16), V3)
	f.LDRQ(R1.At(240), V31)
	f.LDRQ(R1.At(0), V0)
	f.LDRS(R0.At(16), V20)
	f.LDRQP(R1.At(64), V5)
	f.LDRQP(R3.At(-32), V31)
	f.LDRS(R7.At(0), V1)
	f.STRS(V20, R0.At(16))
	f.STRQ(V29, R5.At(240))
	f.VADD(V17.S4(), V4.S4(), V16.S4())
	f.VADD(V1.D2(), V2.D2(), V31.D2())
	f.SHA1C(V16.S4(), V1, V2)
	f.SHA1P(V17.S4(), V3, V4)
	f.SHA1M(V31.S4(), V30, V29)
	f.SHA1H(V3, V1)
	f.SHA1H(V0, V26)
	f.SHA1SU0(V6.S4(), V5.S4(), V4.S4())
	f.SHA1SU0(V28.S4(), V19.S4(), V10.S4())
	f.SHA1SU1(V7.S4(), V4.S4())
	f.SHA1SU1(V25.S4(), V13.S4())
	f.VPMULL(V1.B8(), V2.B8(), V3.H8())
	f.VPMULL2(V17.B16(), V22.B16(), V29.H8())
	f.VPMULL(V1.D1(), V2.D1(), V3.Q1())
	f.VPMULL2(V7.D2(), V8.D2(), V9.Q1())
	f.VEOR(V1.B16(), V2.B16(), V3.B16())
	f.VEOR(V1.B8(), V2.B8(), V3.B8())
	f.VAND(V4.B16(), V5.B16(), V6.B16())
	f.VORR(V14.B16(), V25.B16(), V6.B16())
	f.VBIC(V1.B16(), V2.B16(), V3.B16())
	f.VBIC(V30.B8(), V17.B8(), V9.B8())
	f.VMOV(V6.B16(), V7.B16())
	f.VEXT(3, V1.B16(), V2.B16(), V3.B16())
	f.VEXT(15, V11.B16(), V12.B16(), V13.B16())
	f.VEXT(5, V1.B8(), V2.B8(), V3.B8())
	f.VUZP1(V1.D2(), V2.D2(), V3.D2())
	f.VUZP2(V1.H8(), V2.H8(), V3.H8())
	f.VTRN1(V1.D2(), V2.D2(), V3.D2())
	f.VTRN2(V1.S4(), V2.S4(), V3.S4())
	f.VZIP1(V1.S4(), V2.S4(), V3.S4())
	f.VZIP2(V4.S4(), V5.S4(), V6.S4())
	f.VZIP1(V7.D2(), V8.D2(), V9.D2())
	f.VZIP2(V10.D2(), V11.D2(), V31.D2())
	f.VCMGT(V13.S4(), V14.S4(), V15.S4())
	f.VCMGT(V1.B8(), V30.B8(), V2.B8())
	f.PRFM(R3.At(0))
	f.PRFM(R4.At(64))
	f.CSETMW(armemit.LO, R5)
	f.CSETMW(armemit.EQ, R23)
	f.VREV32(V1.H8(), V2.H8())
	f.VRBIT(V1.B16(), V2.B16())
	f.VRBIT(V3.B8(), V4.B8())
	f.VTBL(V1.B16(), []Vec{V2.B16()}, V3.B16())
	f.VTBL(V1.B8(), []Vec{V30.B16(), V31.B16()}, V3.B8())
	f.VDUP(V1.D(1), V2.D2())
	f.VDUP(V1.S(3), V2.S4())
	f.VDUPR(R7, V2.D2())
	f.VDUPR(R7, V2.B16())
	f.VMOVI(0x87, V8.B16())
	f.VMOVI2D(0xffff000000000000, V9)
	f.VMOVI2D(0x00000000ffffffff, V29)
	f.FMOVX(V25, 0, R20)
	f.FMOVX(V7, 1, R3)
	f.FMOVX(V31, 1, R22)
	f.VSHL(1, V1.D2(), V2.D2())
	f.VSHL(7, V1.B16(), V2.B16())
	f.VSRI(1, V1.D2(), V2.D2())
	f.VUSRA(4, V1.S4(), V2.S4())
	f.VUSHR(27, V31.S4(), V0.S4())
	f.ADDW(R1, R2, R3)
	f.ADDW(R4.LSL(5), R5, R6)
	f.ADDW(R24.LSR(27), R25, R0)
	f.ADDReg(R7.LSR(32), R8, R9)
	f.EORW(R1.ROR(2), R2, R3)
	f.EORW(R10, R11, R12)
	f.ANDW(R13.ROR(30), R14, R15)
	f.BICW(R16, R17, R19)
	f.BICW(R20.ROR(2), R21, R22)
	f.ORRW(R23.ROR(27), ZR, R24)
	f.ORRW(R1.LSL(3), R2, R3)
	f.RORW(27, R4, R5)
	f.RORW(2, R19, R19)
	f.MOVWReg(R6, R7)
	f.CMPReg(R8, R9)
	f.LDRW(RSP.At(16), R10)
	f.LDRW(R1.At(0), R2)
	f.LDRW(R3.At(16380), R4)
	f.LDR(RSP.At(24), R11)
	f.LDPW(RSP.At(16), R12, R13)
	f.LDPW(R1.At(-8), R2, R3)
	f.LDP(RSP.At(32), R4, R5)
	f.LDP(R6.At(-16), R7, R8)
	f.STRW(R14, R0.At(4))
	f.STRW(R15, RSP.At(76))
	f.LDRQ(RSP.At(16), V5)
	f.MOVDConst(135, R3)
	f.ADD(16, R1, R1)
	f.ADD(32, RSP, R17)
	f.SUB(128, R2, R3)
	f.SUBS(16, R3, R3)
	f.ANDMask(^uint64(15), R3, R4)
	f.CMP(128, R3)
	f.CSEL(armemit.EQ, R5, R1, R1)
	f.CSEL(armemit.NE, R2, R3, R4)
	f.BNE("top")
	f.BEQ("top")
	f.BHS("top")
	f.BLO("top")
	f.CBZ(R3, "top")
	f.B("top")
	f.RET()
}

// TestEncodings assembles every instruction form twice, the Go syntax with
// Go's assembler and the GNU syntax with GNU as, and compares the machine
// words. This checks the Go/GNU correspondence of each form (operand
// order, arrangement names) and each WORD encoding done in this package.
func TestEncodings(t *testing.T) {
	file := armtest.Must(NewFile("arm64"))(t)
	f := armtest.Must(file.Func("every", "func()"))(t)
	every(f)
	armtest.Encodings(t, file.File, f.Func, "arm64", "aarch64-linux-gnu-", "\t.arch armv8-a+crypto\n", 0)
}

// TestDependences checks that every instruction form declares what it
// writes, which Schedule relies on.
func TestDependences(t *testing.T) {
	f := newFunc()
	every(f)
	armtest.Outputs(t, f.Insts())
}

// TestSchedule checks that Schedule moves independent work between a
// producer and its consumer, keeps dependent instructions in order and
// leaves the branch last.
func TestSchedule(t *testing.T) {
	f := newFunc()
	f.Label("loop")
	f.Comment("top")
	f.VEOR(V9.B16(), V10.B16(), V10.B16())
	f.Comment("step one")
	f.VPMULL(V1.D1(), V2.D1(), V3.Q1())
	f.VEOR(V3.B16(), V4.B16(), V4.B16()) // needs V3
	f.VEOR(V5.B16(), V6.B16(), V6.B16()) // independent
	f.VEOR(V7.B16(), V8.B16(), V8.B16()) // independent
	f.SUBS(16, R3, R3)
	f.BNE("loop")
	f.Schedule()
	got := armtest.Must(f.GNU("loop"))(t)
	pos := armtest.Lines(got)
	if pos["eor v4.16b, v4.16b, v3.16b"] < pos["pmull v3.1q, v2.1d, v1.1d"]+2 {
		t.Errorf("the consumer of the PMULL was not moved away from it:\n%s", got)
	}
	if pos["// step one"] != pos["pmull v3.1q, v2.1d, v1.1d"]-1 {
		t.Errorf("the comment did not move with its instruction:\n%s", got)
	}
	if pos["// top"] != 1 {
		t.Errorf("the comment at the top moved:\n%s", got)
	}
	if !strings.HasSuffix(got, "b.ne loop\n") {
		t.Errorf("the branch is not last:\n%s", got)
	}
}

// TestScheduleInOrderCompletion checks ScheduleFor on a core that
// completes instructions in order: an integer instruction, which finishes
// sooner, does not follow a vector one directly when another vector
// instruction can go there; the default core puts it there.
func TestScheduleInOrderCompletion(t *testing.T) {
	order := func(c armemit.Core) string {
		f := newFunc()
		f.Label("loop")
		f.VPMULL(V1.D1(), V2.D1(), V3.Q1())
		f.VEOR(V4.B16(), V5.B16(), V6.B16()) // independent
		f.SUBS(16, R3, R3)                   // independent; the branch needs its flags
		f.VEOR(V3.B16(), V7.B16(), V8.B16()) // needs the PMULL
		f.BNE("loop")
		f.ScheduleFor(c)
		var ops []string
		for _, i := range f.Insts() {
			ops = append(ops, i.Op)
		}
		return strings.Join(ops, " ")
	}
	inOrder := armemit.Core{InOrderCompletion: true, Latency: func(i *armemit.Inst) int {
		if i.Op == "SUBS" {
			return 3
		}
		return 6
	}}
	if got, want := order(armemit.Core{}), "VPMULL SUBS VEOR VEOR BNE"; got != want {
		t.Errorf("default core: %s, want %s", got, want)
	}
	if got, want := order(inOrder), "VPMULL VEOR SUBS VEOR BNE"; got != want {
		t.Errorf("in-order completion: %s, want %s", got, want)
	}
}

// TestKnownWords pins WORD encodings checked once with GNU as and under
// qemu, so that they stay checked where binutils are not installed.
func TestKnownWords(t *testing.T) {
	armtest.Words(t, newFunc, map[string]func(f *Func){
		"WORD $0x6f06e409 // movi v9.2d, #0xffff000000000000": func(f *Func) { f.VMOVI2D(0xffff000000000000, V9) },
		"WORD $0x9eae0334 // fmov x20, v25.d[1]":              func(f *Func) { f.FMOVX(V25, 1, R20) },
	})
}

// TestShapes checks that operand shapes an instruction lacks are refused
// when the generator runs.
func TestShapes(t *testing.T) {
	armtest.Refused(t, newFunc, map[string]func(f *Func){
		"VPMULL on B16":      func(f *Func) { f.VPMULL(V1.B16(), V2.B16(), V3.H8()) },
		"VPMULL D1 into H8":  func(f *Func) { f.VPMULL(V1.D1(), V2.D1(), V3.H8()) },
		"VPMULL2 on D1":      func(f *Func) { f.VPMULL2(V1.D1(), V2.D1(), V3.Q1()) },
		"VEOR on D2":         func(f *Func) { f.VEOR(V1.D2(), V2.D2(), V3.D2()) },
		"VEOR mixed":         func(f *Func) { f.VEOR(V1.B8(), V2.B16(), V3.B16()) },
		"VEXT index":         func(f *Func) { f.VEXT(8, V1.B8(), V2.B8(), V3.B8()) },
		"VSHL 64":            func(f *Func) { f.VSHL(64, V1.D2(), V2.D2()) },
		"VLD1 gap":           func(f *Func) { f.VLD1(R0, V1.B16(), V3.B16()) },
		"VLD1 five":          func(f *Func) { f.VLD1(R0, V1.B16(), V2.B16(), V3.B16(), V4.B16(), V5.B16()) },
		"VDUP size mismatch": func(f *Func) { f.VDUP(V1.S(0), V2.D2()) },
		"MOVI.2D byte":       func(f *Func) { f.VMOVI2D(0x87, V1) },
		"LDRQ offset":        func(f *Func) { f.LDRQ(R1.At(8), V1) },
		"LDRS offset":        func(f *Func) { f.LDRS(R1.At(6), V1) },
		"VADD mixed":         func(f *Func) { f.VADD(V1.S4(), V2.D2(), V3.S4()) },
		"VADD Q1":            func(f *Func) { f.VADD(V1.Q1(), V2.Q1(), V3.Q1()) },
		"ADDW rotated":       func(f *Func) { f.ADDW(R1.ROR(2), R2, R3) },
		"ADDW ZR":            func(f *Func) { f.ADDW(R1, ZR, R3) },
		"EORW shift 32":      func(f *Func) { f.EORW(R1.ROR(32), R2, R3) },
		"EORW into ZR":       func(f *Func) { f.EORW(R1, R2, ZR) },
		"RORW 0":             func(f *Func) { f.RORW(0, R1, R2) },
		"LDRW offset":        func(f *Func) { f.LDRW(RSP.At(6), R1) },
		"LDPW offset":        func(f *Func) { f.LDPW(RSP.At(256), R1, R2) },
		"LDPW same":          func(f *Func) { f.LDPW(RSP.At(16), R1, R1) },
		"RSP operand":        func(f *Func) { f.ANDW(RSP, R1, R2) },
		"SHA1C on B16":       func(f *Func) { f.SHA1C(V1.B16(), V2, V3) },
		"SHA1SU0 on D2":      func(f *Func) { f.SHA1SU0(V1.D2(), V2.D2(), V3.D2()) },
		"SHA1SU1 mixed":      func(f *Func) { f.SHA1SU1(V1.S4(), V3.B16()) },
	})
}

// TestHeader checks the file layout: header, constraint, include, and the
// signature and Requires lines before TEXT.
func TestHeader(t *testing.T) {
	file := armtest.Must(NewFile("arm64 && !purego"))(t)
	f := armtest.Must(file.Func("kern", "func(y *[16]byte, key *[24]uint64, p []byte)"))(t)
	f.LoadArg(f.Arg("y"), R0)
	f.LoadArg(f.Arg("key"), R1)
	f.LoadArg(f.Arg("p").Base(), R2)
	f.LoadArg(f.Arg("p").Len(), R3)
	f.VPMULL(V1.D1(), V2.D1(), V3.Q1())
	f.RET()
	g := file.Data("consts")
	g.U64(1, 2)
	b := armtest.Must(file.Bytes([]string{"go", "run", "example.com/gen", "-out", "x.s"}))(t)
	armtest.Contains(t, b,
		"// Code generated by command: go run example.com/gen -out x.s. DO NOT EDIT.\n\n//go:build arm64 && !purego\n\n#include \"textflag.h\"\n",
		"// func kern(y *[16]byte, key *[24]uint64, p []byte)\n// Requires: ASIMD, PMULL\nTEXT ·kern(SB), NOSPLIT, $0-40\n",
		"MOVD y+0(FP), R0", "MOVD key+8(FP), R1", "MOVD p_base+16(FP), R2", "MOVD p_len+24(FP), R3",
		"DATA consts<>+0(SB)/8, $0x0000000000000001\nDATA consts<>+8(SB)/8, $0x0000000000000002\nGLOBL consts<>(SB), RODATA|NOPTR, $16\n")
}

func TestConstraint(t *testing.T) {
	for _, ok := range []string{"arm64", "arm64 && !purego", "(arm64 || amd64) && !purego"} {
		if _, err := NewFile(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"(arm64 && linux) || amd64", "!(arm64 || amd64)", "arm64 &&"} {
		if _, err := NewFile(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}

func TestGNULoop(t *testing.T) {
	file, _ := NewFile("arm64")
	f, _ := file.Func("loop", "func()")
	f.MOVDConst(4, R1)
	f.Label("again")
	f.VEOR(V1.B16(), V2.B16(), V2.B16())
	f.SUBS(1, R1, R1)
	f.BNE("again")
	f.RET()
	got := armtest.Must(f.GNU("again"))(t)
	want := "again:\n\teor v2.16b, v2.16b, v1.16b\n\tsubs x1, x1, #1\n\tb.ne again\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := f.GNU("nowhere"); err == nil {
		t.Error("GNU of a missing loop succeeded")
	}
}
