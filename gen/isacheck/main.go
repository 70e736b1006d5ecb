// Command isacheck generates internal/isacheck/exec_amd64.s: one function
// that executes, on operands from memory, one of the AVX-512 instruction
// forms that the 512-bit kernels use (ghash's vpclmul512, sha1.SumMany's
// avx512x16) and no natively tested kernel does. The tests of
// internal/isacheck compare each form's result with a plain Go model of
// the instruction's definition in the Intel SDM, vol. 2, and check that
// every such form of the kernels is listed here. They need a CPU with
// AVX-512; `make test-bochs` runs them under bochs, so that a kernel's
// pass there rests on instructions known to be emulated as the SDM
// defines them (docs/verification.md). Usage, from the package directory:
//
//	go -C ../../gen run ./isacheck -out ../internal/isacheck/exec_amd64.s
//
// The function it writes is
//
//	func execForm(form int, in *[4][64]byte, out *[64]byte) bool
//
// Form i takes its operands, immediate aside, in Go's order (sources
// first, the destination last): operand j is in[j], loaded into a vector
// or opmask register (KMOVW, the low 16 bits) or used in place as the
// memory operand. The destination is loaded from in[j] too, so that what
// the instruction keeps of it shows; after the instruction its whole
// register is stored to out: 64 bytes of a vector register (for an XMM or
// YMM destination, the ZMM register that holds it), 2 bytes of an opmask
// register. A memory destination is out itself, a copy of in[j] before the
// instruction. execForm returns false if there is no form i. Each form is
// generated twice, on registers 1 to 4 (K1) and on 16, 21, 26, 31 (K7),
// which only EVEX encodings reach; a "// form i (registers): TEXT" comment
// before each names it, for the tests.
package main

import (
	"fmt"
	"strings"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/avogen"
)

func main() {
	avogen.Main("isacheck", "isacheck", nil, func(ctx *build.Context) error {
		describe(ctx, forms)
		return nil
	})
}

// A form is an instruction with the kinds of its operands, in Go's order:
// 'Z', 'Y', 'X' vector registers of 512, 256 and 128 bits, 'K' an opmask
// register, 'm' memory.
type form struct {
	mnemonic string // as Go's assembler writes it, with a suffix such as .BCST
	imm      int    // the immediate operand, first; none if negative
	kinds    string
	emit     func(*build.Context, ...Op)
}

const noImm = -1

// text names f as the tests do: the mnemonic, then each operand's kind,
// the immediate as avo prints it ("VPROLD $0x1e, Z, Z").
func (f form) text() string {
	var ops []string
	if f.imm >= 0 {
		ops = append(ops, fmt.Sprintf("$0x%02x", f.imm))
	}
	for _, k := range f.kinds {
		ops = append(ops, string(k))
	}
	return f.mnemonic + " " + strings.Join(ops, ", ")
}

// c abbreviates the method expressions of avo's instructions.
type c = build.Context

// vpclmulqdq is avo's VPCLMULQDQ, whose arity is fixed, as the others'.
func vpclmulqdq(ctx *c, ops ...Op) { ctx.VPCLMULQDQ(ops[0], ops[1], ops[2], ops[3]) }

// forms are the vector instruction forms of ghash_vpclmul512_amd64.s and
// sha1many_avx512_amd64.s that no natively tested kernel uses
// (internal/isacheck's TestCoverage lists them from the kernels' text),
// and VPCLMULQDQ with every immediate.
var forms = []form{
	// GHASH: loads, the byte swap, Karatsuba, the reduction, the folds, the
	// broadcast powers of -fold once.
	{"VMOVDQU64", noImm, "mZ", (*c).VMOVDQU64},
	{"VBROADCASTI32X4", noImm, "mZ", (*c).VBROADCASTI32X4},
	{"VPBROADCASTQ", noImm, "mZ", (*c).VPBROADCASTQ},
	{"VPSHUFB", noImm, "ZZZ", (*c).VPSHUFB},
	{"VPSHUFD", 0x4e, "ZZ", (*c).VPSHUFD},
	{"VPXORD", noImm, "ZZZ", (*c).VPXORD},
	{"VPCLMULQDQ", 0x00, "ZZZ", vpclmulqdq},
	{"VPCLMULQDQ", 0x01, "ZZZ", vpclmulqdq},
	{"VPCLMULQDQ", 0x10, "ZZZ", vpclmulqdq},
	{"VPCLMULQDQ", 0x11, "ZZZ", vpclmulqdq},
	{"VPCLMULQDQ", 0x00, "mZZ", vpclmulqdq},
	{"VPCLMULQDQ", 0x01, "mZZ", vpclmulqdq},
	{"VPCLMULQDQ", 0x10, "mZZ", vpclmulqdq},
	{"VPCLMULQDQ", 0x11, "mZZ", vpclmulqdq},
	{"VPTERNLOGD", 0x96, "ZZZ", (*c).VPTERNLOGD},
	{"VMOVDQA64", noImm, "ZZ", (*c).VMOVDQA64},
	{"VEXTRACTI64X4", 0x01, "ZY", (*c).VEXTRACTI64X4},

	// SumMany: the transposition of message words into lanes, the rounds,
	// the schedule, the per-lane counts and the masked update of h.
	{"VMOVDQU32", noImm, "mX", (*c).VMOVDQU32},
	{"VMOVDQU32", noImm, "mZ", (*c).VMOVDQU32},
	{"VMOVDQU32", noImm, "ZZ", (*c).VMOVDQU32},
	{"VMOVDQU32", noImm, "ZKm", (*c).VMOVDQU32},
	{"VINSERTI32X4", 0x01, "mZZ", (*c).VINSERTI32X4},
	{"VINSERTI32X4", 0x02, "mZZ", (*c).VINSERTI32X4},
	{"VINSERTI32X4", 0x03, "mZZ", (*c).VINSERTI32X4},
	{"VPUNPCKLDQ", noImm, "ZZZ", (*c).VPUNPCKLDQ},
	{"VPUNPCKHDQ", noImm, "ZZZ", (*c).VPUNPCKHDQ},
	{"VPUNPCKLQDQ", noImm, "ZZZ", (*c).VPUNPCKLQDQ},
	{"VPUNPCKHQDQ", noImm, "ZZZ", (*c).VPUNPCKHQDQ},
	{"VPSHUFB", noImm, "mZZ", (*c).VPSHUFB},
	{"VPADDD", noImm, "ZZZ", (*c).VPADDD},
	{"VPADDD", noImm, "mZZ", (*c).VPADDD},
	{"VPADDD.BCST", noImm, "mZZ", (*c).VPADDD_BCST},
	{"VPROLD", 0x01, "ZZ", (*c).VPROLD},
	{"VPROLD", 0x05, "ZZ", (*c).VPROLD},
	{"VPROLD", 0x1e, "ZZ", (*c).VPROLD},
	{"VPTERNLOGD", 0xca, "ZZZ", (*c).VPTERNLOGD},
	{"VPTERNLOGD", 0xe8, "ZZZ", (*c).VPTERNLOGD},
	{"VPCMPGTD", noImm, "ZZK", (*c).VPCMPGTD},
}

// registers are the two register sets each form runs on: operand j in
// vector register vec[j] (of the width its kind says) or opmask k.
var registers = []struct {
	name string
	vec  [4]int
	k    int
}{
	{"Z1-Z4, K1", [4]int{1, 2, 3, 4}, 1},
	{"Z16-Z31, K7", [4]int{16, 21, 26, 31}, 7},
}

func describe(ctx *build.Context, forms []form) {
	ctx.Function("execForm")
	ctx.Attributes(attr.NOSPLIT)
	ctx.SignatureExpr("func(form int, in *[4][64]byte, out *[64]byte) bool")
	ctx.Doc("execForm executes instruction form number form on the operands in in,",
		"and stores its destination in out (gen/isacheck describes the forms).")
	ctx.Load(ctx.Param("form"), reg.RAX)
	ctx.Load(ctx.Param("in"), reg.RSI)
	ctx.Load(ctx.Param("out"), reg.RDI)
	n := 0
	for _, f := range forms {
		for _, rs := range registers {
			next := fmt.Sprintf("not%d", n)
			ctx.Comment(fmt.Sprintf("form %d (%s): %s", n, rs.name, f.text()))
			ctx.CMPQ(reg.RAX, Imm(uint64(n)))
			ctx.JNE(LabelRef(next))
			execute(ctx, f, rs.vec, rs.k)
			ctx.JMP(LabelRef("executed"))
			ctx.Label(next)
			n++
		}
	}
	ctx.Comment("No such form.")
	ctx.MOVB(U8(0), reg.CL)
	ctx.Store(reg.CL, ctx.ReturnIndex(0))
	ctx.RET()
	ctx.Label("executed")
	ctx.VZEROUPPER()
	ctx.MOVB(U8(1), reg.CL)
	ctx.Store(reg.CL, ctx.ReturnIndex(0))
	ctx.RET()
}

// execute emits f on its operands: operand j from in[j] into vector
// register vec[j] or opmask k, or in place in memory; then the store of
// the destination into out.
func execute(ctx *build.Context, f form, vec [4]int, k int) {
	var ops []Op
	if f.imm >= 0 {
		ops = append(ops, U8(f.imm))
	}
	last := len(f.kinds) - 1
	for j, kind := range f.kinds {
		in := Mem{Base: reg.RSI, Disp: 64 * j}
		switch kind {
		case 'Z', 'Y', 'X':
			ctx.VMOVDQU64(in, zmm(vec[j]))
			ops = append(ops, vector(kind, vec[j]))
		case 'K':
			ctx.KMOVW(in, opmask(k))
			ops = append(ops, opmask(k))
		case 'm':
			if j == last {
				ctx.VMOVDQU64(in, reg.Z0)
				ctx.VMOVDQU64(reg.Z0, Mem{Base: reg.RDI})
				in = Mem{Base: reg.RDI}
			}
			ops = append(ops, in)
		default:
			panic(fmt.Sprintf("isacheck: %s: operand kind %q", f.text(), kind))
		}
	}
	f.emit(ctx, ops...)
	switch f.kinds[last] {
	case 'Z', 'Y', 'X':
		ctx.VMOVDQU64(zmm(vec[last]), Mem{Base: reg.RDI})
	case 'K':
		ctx.KMOVW(opmask(k), Mem{Base: reg.RDI})
	}
}

func zmm(n int) reg.Physical { return vector('Z', n) }

// vector returns vector register n of the width kind names.
func vector(kind rune, n int) reg.Physical {
	spec := map[rune]reg.Spec{'X': reg.S128, 'Y': reg.S256, 'Z': reg.S512}[kind]
	return reg.Vector.Lookup(reg.Index(n), spec)
}

func opmask(n int) reg.Physical { return reg.Opmask.Lookup(reg.Index(n), reg.S64) }
