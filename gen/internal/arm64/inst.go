package arm64

import (
	"fmt"
	"slices"
	"strings"

	"github.com/simdhash/simdhash/gen/internal/armemit"
)

// inst is one instruction (see armemit.Inst).
type inst = armemit.Inst

// rs names the resources of operands for the dependency analysis.
func rs(xs ...any) []string {
	var out []string
	for _, x := range xs {
		switch x := x.(type) {
		case Vec:
			out = append(out, x.Reg.String())
		case VReg:
			out = append(out, x.String())
		case Elem:
			out = append(out, x.Reg.String())
		case Reg:
			out = append(out, x.String())
		case []Vec:
			for _, v := range x {
				out = append(out, v.Reg.String())
			}
		case string:
			out = append(out, x)
		default:
			panic(fmt.Sprintf("arm64: no resource for %T", x))
		}
	}
	return out
}

// built is an instruction just appended, whose resources are declared next.
type built struct{ *inst }

// rw records what i reads and writes.
func (i built) rw(in []string, out ...string) built {
	i.In, i.Out = in, out
	return i
}

// operand shape checks, panicking at generation time.

func need(cond bool, format string, args ...any) {
	if !cond {
		panic("arm64: " + fmt.Sprintf(format, args...))
	}
}

func sameArr(op string, xs ...Vec) {
	for _, x := range xs[1:] {
		need(x.Arr == xs[0].Arr, "%s: operands %v and %v differ in arrangement", op, xs[0], x)
	}
}

func oneOf(op string, x Vec, allowed ...Arrangement) {
	need(slices.Contains(allowed, x.Arr), "%s: arrangement %v not allowed (want one of %v)", op, x.Arr, allowed)
}

var bytesArr = []Arrangement{B8, B16}

// vector appends a SIMD instruction that Go's assembler knows.
func (f *Func) vector(isa, goOp string, goArgs []string, gnu string) built {
	return built{f.Add(&inst{Op: goOp, Args: goArgs, GNU: gnu, ISA: isa, Latency: armemit.VectorLatency(goOp, "VLD1", "VPMULL", "SHA1")})}
}

// word appends a SIMD instruction that Go's assembler lacks, as WORD
// (whose latency, none of those VectorLatency names, is 3).
func (f *Func) word(enc uint32, gnu string) built {
	return built{f.Add(&inst{Op: "WORD", Word: enc, IsWord: true, GNU: gnu, ISA: "ASIMD", Latency: 3})}
}

// three appends a Go-known instruction of the form OP Vm, Vn, Vd (GNU: op vd, vn, vm).
func (f *Func) three(isa, goOp, gnuOp string, m, n, d Vec) built {
	i := f.vector(isa, goOp, []string{m.goText(), n.goText(), d.goText()},
		fmt.Sprintf("%s %s, %s, %s", gnuOp, d.gnuText(), n.gnuText(), m.gnuText()))
	i.rw(rs(m, n), rs(d)...)
	return i
}

// two appends a Go-known instruction of the form OP Vn, Vd (GNU: op vd, vn).
func (f *Func) two(goOp, gnuOp string, n, d Vec) {
	f.vector("ASIMD", goOp, []string{n.goText(), d.goText()},
		fmt.Sprintf("%s %s, %s", gnuOp, d.gnuText(), n.gnuText())).rw(rs(n), rs(d)...)
}

// --- Loads and stores ---

func regList(op string, list []Vec) (goList, gnuList string, size int) {
	need(len(list) >= 1 && len(list) <= 4, "%s: %d registers in the list; want 1 to 4", op, len(list))
	var g, u []string
	for i, x := range list {
		oneOf(op, x, B8, B16, H4, H8, S2, S4, D1, D2)
		need(x.Arr == list[0].Arr, "%s: list mixes %v and %v", op, list[0].Arr, x.Arr)
		need(int(x.Reg) == (int(list[0].Reg)+i)%32, "%s: list registers must be consecutive, got %v after %v", op, x.Reg, list[0].Reg)
		g = append(g, x.goText())
		u = append(u, x.gnuText())
		size += x.Arr.Bytes()
	}
	return "[" + strings.Join(g, ", ") + "]", "{ " + strings.Join(u, ", ") + " }", size
}

// VLD1 loads the consecutive registers of list from (base): VLD1 (Rn), [list].
func (f *Func) VLD1(base Reg, list ...Vec) {
	g, u, _ := regList("VLD1", list)
	f.vector("ASIMD", "VLD1", []string{base.At(0).goText(), g}, fmt.Sprintf("ld1 %s, %s", u, base.At(0).gnuText())).
		rw(rs(base, "mem"), rs(list)...)
}

// VLD1P loads list from (base) and then advances base by the list's size:
// VLD1.P size(Rn), [list].
func (f *Func) VLD1P(base Reg, list ...Vec) {
	g, u, size := regList("VLD1.P", list)
	f.vector("ASIMD", "VLD1.P", []string{fmt.Sprintf("%d(%v)", size, base), g},
		fmt.Sprintf("ld1 %s, [%s], #%d", u, base.gnuText(), size)).rw(rs(base, "mem"), rs(list, base)...)
}

// VST1 stores the consecutive registers of list to (base): VST1 [list], (Rn).
func (f *Func) VST1(base Reg, list ...Vec) {
	g, u, _ := regList("VST1", list)
	f.vector("ASIMD", "VST1", []string{g, base.At(0).goText()}, fmt.Sprintf("st1 %s, %s", u, base.At(0).gnuText())).
		rw(rs(list, base, "mem"), "mem")
}

// VST1Stack is VST1 through a register that holds the stack address
// RSP+off: the scheduler orders it with the other accesses of the stack
// words it writes, not with all memory.
func (f *Func) VST1Stack(base Reg, off int, list ...Vec) {
	g, u, size := regList("VST1", list)
	f.vector("ASIMD", "VST1", []string{g, base.At(0).goText()}, fmt.Sprintf("st1 %s, %s", u, base.At(0).gnuText())).
		rw(append(rs(list, base), memRes(RSP.At(off), size)...), memRes(RSP.At(off), size)...)
}

// LDRQ loads the 16 bytes at m into d (Go: FMOVQ off(Rn), Fd). Unlike
// VLD1 it takes an offset, and some cores (Cortex-A55) issue it at twice
// VLD1's rate. On little-endian arm64 the byte order is VLD1's .B16.
func (f *Func) LDRQ(m Mem, d VReg) { f.fpLoad("Q", 16, m, d) }

// LDRS loads the 4 bytes at m into the low word of d, zeroing the rest
// (Go: FMOVS off(Rn), Fd).
func (f *Func) LDRS(m Mem, d VReg) { f.fpLoad("S", 4, m, d) }

// STRQ stores the 16 bytes of s at m (Go: FMOVQ Fs, off(Rn)).
func (f *Func) STRQ(s VReg, m Mem) { f.fpStore("Q", 16, s, m) }

// STRS stores the low word of s at m (Go: FMOVS Fs, off(Rn)).
func (f *Func) STRS(s VReg, m Mem) { f.fpStore("S", 4, s, m) }

// LDRQP loads the 16 bytes at (Rn) into d, then adds m.Off to Rn: LDR Q
// with post-index (Go: FMOVQ.P off(Rn), Fd).
func (f *Func) LDRQP(m Mem, d VReg) {
	m.Base.check()
	need(m.Off >= -256 && m.Off < 256, "LDRQ.P: post-index %d out of range -256..255", m.Off)
	f.vector("ASIMD", "FMOVQ.P", []string{m.goText(), fmt.Sprintf("F%d", d)},
		fmt.Sprintf("ldr q%d, [%s], #%d", d, m.Base.gnuText(), m.Off)).rw(rs(m.Base, "mem"), rs(d, m.Base)...)
}

// fpLoad is LDR of the register named letter+d (q3, s3): FMOV<letter> m, Fd.
func (f *Func) fpLoad(letter string, size int, m Mem, d VReg) {
	loadStoreOffset("LDR"+letter, size, m)
	f.vector("ASIMD", "FMOV"+letter, []string{m.goText(), fmt.Sprintf("F%d", d)},
		fmt.Sprintf("ldr %s%d, %s", strings.ToLower(letter), d, m.gnuText())).rw(append(rs(m.Base), memRes(m, size)...), rs(d)...)
}

// fpStore is STR of the register named letter+s: FMOV<letter> Fs, m.
func (f *Func) fpStore(letter string, size int, s VReg, m Mem) {
	loadStoreOffset("STR"+letter, size, m)
	f.vector("ASIMD", "FMOV"+letter, []string{fmt.Sprintf("F%d", s), m.goText()},
		fmt.Sprintf("str %s%d, %s", strings.ToLower(letter), s, m.gnuText())).rw(append(rs(s, m.Base), memRes(m, size)...), memRes(m, size)...)
}

// --- Integer arithmetic ---

// VADD adds the elements of n and m (any arrangement but Q1 and D1).
func (f *Func) VADD(m, n, d Vec) {
	sameArr("VADD", m, n, d)
	oneOf("VADD", d, B8, B16, H4, H8, S2, S4, D2)
	f.three("ASIMD", "VADD", "add", m, n, d)
}

// --- SHA-1 (the SHA1 extension, FEAT_SHA1) ---

// SHA1C performs four SHA-1 rounds with the choose function f = Ch (that
// of rounds 0-19) on the working variables a, b, c, d in words 0-3 of abcd
// and e in the low word of e, with the rounds' four words W+K in wk (S4).
// The new a, b, c, d replace abcd; the new e is the old a rotated left by
// 30 (SHA1H). GNU: sha1c qd, sn, vm.4s.
func (f *Func) SHA1C(wk Vec, e, abcd VReg) { f.sha1Rounds("SHA1C", "sha1c", wk, e, abcd) }

// SHA1P is SHA1C with the parity function, that of rounds 20-39 and 60-79.
func (f *Func) SHA1P(wk Vec, e, abcd VReg) { f.sha1Rounds("SHA1P", "sha1p", wk, e, abcd) }

// SHA1M is SHA1C with the majority function, that of rounds 40-59.
func (f *Func) SHA1M(wk Vec, e, abcd VReg) { f.sha1Rounds("SHA1M", "sha1m", wk, e, abcd) }

func (f *Func) sha1Rounds(goOp, gnuOp string, wk Vec, e, abcd VReg) {
	oneOf(goOp, wk, S4)
	f.vector("SHA1", goOp, []string{wk.goText(), e.String(), abcd.String()},
		fmt.Sprintf("%s q%d, s%d, %s", gnuOp, abcd, e, wk.gnuText())).rw(rs(wk, e, abcd), rs(abcd)...)
}

// SHA1H sets the low word of d to the low word of n rotated left by 30,
// and the rest of d to zero: the e of the next four rounds, from the a
// before them. GNU: sha1h sd, sn.
func (f *Func) SHA1H(n, d VReg) {
	f.vector("SHA1", "SHA1H", []string{n.String(), d.String()}, fmt.Sprintf("sha1h s%d, s%d", d, n)).rw(rs(n), rs(d)...)
}

// SHA1SU0 is the first half of the message schedule: with W[t..t+3] in d,
// W[t+4..t+7] in n and W[t+8..t+11] in m, it sets d to
// W[t..t+3] ^ W[t+2..t+5] ^ W[t+8..t+11] (all S4).
func (f *Func) SHA1SU0(m, n, d Vec) {
	sameArr("SHA1SU0", m, n, d)
	oneOf("SHA1SU0", d, S4)
	f.three("SHA1", "SHA1SU0", "sha1su0", m, n, d).In = rs(m, n, d)
}

// SHA1SU1 finishes the message schedule: with SHA1SU0's result in d and
// W[t+12..t+15] in n, it sets d to W[t+16..t+19] (all S4).
func (f *Func) SHA1SU1(n, d Vec) {
	sameArr("SHA1SU1", n, d)
	oneOf("SHA1SU1", d, S4)
	f.vector("SHA1", "SHA1SU1", []string{n.goText(), d.goText()},
		fmt.Sprintf("sha1su1 %s, %s", d.gnuText(), n.gnuText())).rw(rs(n, d), rs(d)...)
}

// --- Carry-less multiplication ---

// VPMULL multiplies the low halves of n and m carry-lessly into d: either
// eight 8x8->16-bit products (B8, B8 -> H8, base Advanced SIMD) or one
// 64x64->128-bit product (D1, D1 -> Q1, the PMULL extension).
func (f *Func) VPMULL(m, n, d Vec) { f.pmull("VPMULL", "pmull", m, n, d, B8, D1) }

// VPMULL2 is VPMULL on the high halves: B16, B16 -> H8 or D2, D2 -> Q1.
func (f *Func) VPMULL2(m, n, d Vec) { f.pmull("VPMULL2", "pmull2", m, n, d, B16, D2) }

func (f *Func) pmull(goOp, gnuOp string, m, n, d Vec, small, wide Arrangement) {
	sameArr(goOp, m, n)
	switch {
	case m.Arr == small && d.Arr == H8:
		f.three("ASIMD", goOp, gnuOp, m, n, d)
	case m.Arr == wide && d.Arr == Q1:
		f.three("PMULL", goOp, gnuOp, m, n, d)
	default:
		need(false, "%s: want %v,%v->H8 or %v,%v->Q1; got %v, %v -> %v", goOp, small, small, wide, wide, m.Arr, n.Arr, d.Arr)
	}
}

// --- Bitwise logic (B8 or B16) ---

func (f *Func) logic(goOp, gnuOp string, m, n, d Vec) built {
	sameArr(goOp, m, n, d)
	oneOf(goOp, d, bytesArr...)
	return f.three("ASIMD", goOp, gnuOp, m, n, d)
}

// VEOR sets d = n ^ m.
func (f *Func) VEOR(m, n, d Vec) { f.logic("VEOR", "eor", m, n, d) }

// VAND sets d = n & m.
func (f *Func) VAND(m, n, d Vec) { f.logic("VAND", "and", m, n, d) }

// VORR sets d = n | m.
func (f *Func) VORR(m, n, d Vec) { f.logic("VORR", "orr", m, n, d) }

// VBIC sets d = n &^ m. Go's assembler lacks BIC: it is a WORD.
func (f *Func) VBIC(m, n, d Vec) {
	sameArr("VBIC", m, n, d)
	oneOf("VBIC", d, bytesArr...)
	f.word(0x0e601c00|d.Arr.q()<<30|uint32(m.Reg)<<16|uint32(n.Reg)<<5|uint32(d.Reg),
		fmt.Sprintf("bic %s, %s, %s", d.gnuText(), n.gnuText(), m.gnuText())).rw(rs(m, n), rs(d)...)
}

// VMOV copies vector n to d (B8 or B16).
func (f *Func) VMOV(n, d Vec) {
	sameArr("VMOV", n, d)
	oneOf("VMOV", d, bytesArr...)
	f.two("VMOV", "mov", n, d)
}

// --- Permutations ---

// VEXT sets d to bytes imm.. of the pair n:m (n low): d = (m:n) >> 8*imm.
// With n = m it rotates n right by imm bytes; with n a zero register it
// shifts m left by Bytes-imm bytes. GNU: ext d, n, m, #imm.
func (f *Func) VEXT(imm int, m, n, d Vec) {
	sameArr("VEXT", m, n, d)
	oneOf("VEXT", d, bytesArr...)
	need(imm >= 0 && imm < d.Arr.Bytes(), "VEXT: index %d out of range for %v", imm, d.Arr)
	f.vector("ASIMD", "VEXT", []string{fmt.Sprintf("$%d", imm), m.goText(), n.goText(), d.goText()},
		fmt.Sprintf("ext %s, %s, %s, #%d", d.gnuText(), n.gnuText(), m.gnuText(), imm)).rw(rs(m, n), rs(d)...)
}

func (f *Func) permute(goOp, gnuOp string, m, n, d Vec) {
	sameArr(goOp, m, n, d)
	oneOf(goOp, d, B8, B16, H4, H8, S2, S4, D2)
	f.three("ASIMD", goOp, gnuOp, m, n, d)
}

// VUZP1 concatenates the even elements of n then of m.
func (f *Func) VUZP1(m, n, d Vec) { f.permute("VUZP1", "uzp1", m, n, d) }

// VUZP2 concatenates the odd elements of n then of m.
func (f *Func) VUZP2(m, n, d Vec) { f.permute("VUZP2", "uzp2", m, n, d) }

// VTRN1 sets d = n[0], m[0], n[2], m[2], ... (on D2: n.D[0], m.D[0]).
func (f *Func) VTRN1(m, n, d Vec) { f.permute("VTRN1", "trn1", m, n, d) }

// VTRN2 sets d = n[1], m[1], n[3], m[3], ... (on D2: n.D[1], m.D[1]).
func (f *Func) VTRN2(m, n, d Vec) { f.permute("VTRN2", "trn2", m, n, d) }

// VREV32 reverses the elements within each word.
func (f *Func) VREV32(n, d Vec) {
	sameArr("VREV32", n, d)
	oneOf("VREV32", d, B8, B16, H4, H8)
	f.two("VREV32", "rev32", n, d)
}

// VRBIT reverses the bits within each byte.
func (f *Func) VRBIT(n, d Vec) {
	sameArr("VRBIT", n, d)
	oneOf("VRBIT", d, bytesArr...)
	f.two("VRBIT", "rbit", n, d)
}

// VTBL looks up each byte of idx in the consecutive table registers (B16)
// and writes the bytes to d; an index past the table gives 0.
func (f *Func) VTBL(idx Vec, table []Vec, d Vec) {
	sameArr("VTBL", idx, d)
	oneOf("VTBL", d, bytesArr...)
	for _, t := range table {
		oneOf("VTBL", t, B16)
	}
	g, u, _ := regList("VTBL", table)
	f.vector("ASIMD", "VTBL", []string{idx.goText(), g, d.goText()},
		fmt.Sprintf("tbl %s, %s, %s", d.gnuText(), u, idx.gnuText())).rw(rs(idx, table), rs(d)...)
}

// VDUP sets every element of d to element e (e's size must match d's elements).
func (f *Func) VDUP(e Elem, d Vec) {
	need(e.Bits == d.Arr.ElemBits() && d.Arr != D1 && d.Arr != Q1, "VDUP: %s into %v", e.goText(), d)
	f.vector("ASIMD", "VDUP", []string{e.goText(), d.goText()}, fmt.Sprintf("dup %s, %s", d.gnuText(), e.gnuText())).rw(rs(e), rs(d)...)
}

// VDUPR sets every element of d to general register r (D2 takes all 64 bits).
func (f *Func) VDUPR(r Reg, d Vec) {
	r.check()
	oneOf("VDUP", d, B8, B16, H4, H8, S2, S4, D2)
	rn := r.gnuText()
	if d.Arr.ElemBits() < 64 {
		rn = "w" + rn[1:]
	}
	f.vector("ASIMD", "VDUP", []string{r.String(), d.goText()}, fmt.Sprintf("dup %s, %s", d.gnuText(), rn)).rw(rs(r), rs(d)...)
}

// FMOVX copies half of n, the low 64 bits (half 0) or the high (half 1),
// to the general register d: FMOV Xd, Dn (Go: FMOVD Fn, Rd), or FMOV Xd,
// Vn.D[1], which Go's assembler lacks (WORD).
func (f *Func) FMOVX(n VReg, half int, d Reg) {
	d.check()
	need(half == 0 || half == 1, "FMOVX: half %d; want 0 or 1", half)
	du := d.gnuText()
	if half == 0 {
		f.vector("ASIMD", "FMOVD", []string{fmt.Sprintf("F%d", n), d.String()}, fmt.Sprintf("fmov %s, d%d", du, n)).rw(rs(n), rs(d)...)
		return
	}
	f.word(encFMOVHigh(n, d), fmt.Sprintf("fmov %s, v%d.d[1]", du, n)).rw(rs(n), rs(d)...)
}

// VMOVI sets every byte of d (B8 or B16) to imm.
func (f *Func) VMOVI(imm uint8, d Vec) {
	oneOf("VMOVI", d, bytesArr...)
	f.vector("ASIMD", "VMOVI", []string{fmt.Sprintf("$%d", imm), d.goText()}, fmt.Sprintf("movi %s, #0x%x", d.gnuText(), imm)).rw(nil, rs(d)...)
}

// VMOVI2D sets both doublewords of d to imm, each of whose bytes must be
// 0x00 or 0xff (WORD: MOVI Vd.2D, #imm).
func (f *Func) VMOVI2D(imm uint64, d VReg) {
	var abcdefgh uint32
	for i := 0; i < 8; i++ {
		switch b := byte(imm >> (8 * i)); b {
		case 0xff:
			abcdefgh |= 1 << i
		case 0:
		default:
			need(false, "MOVI.2D: byte %d of %#x is %#x; want 0x00 or 0xff", i, imm, b)
		}
	}
	f.word(encModImm(1, 1, 0xe, abcdefgh, d), fmt.Sprintf("movi %s, #0x%016x", d.D2().gnuText(), imm)).rw(nil, rs(d)...)
}

// --- Shifts ---

func (f *Func) shift(goOp, gnuOp string, imm int, n, d Vec, right bool) built {
	sameArr(goOp, n, d)
	oneOf(goOp, d, B8, B16, H4, H8, S2, S4, D2)
	if right {
		need(imm >= 1 && imm <= d.Arr.ElemBits(), "%s: shift %d out of range 1..%d", goOp, imm, d.Arr.ElemBits())
	} else {
		need(imm >= 0 && imm < d.Arr.ElemBits(), "%s: shift %d out of range 0..%d", goOp, imm, d.Arr.ElemBits()-1)
	}
	i := f.vector("ASIMD", goOp, []string{fmt.Sprintf("$%d", imm), n.goText(), d.goText()},
		fmt.Sprintf("%s %s, %s, #%d", gnuOp, d.gnuText(), n.gnuText(), imm))
	i.rw(rs(n), rs(d)...)
	return i
}

// VSHL sets each element of d to that of n shifted left by imm.
func (f *Func) VSHL(imm int, n, d Vec) { f.shift("VSHL", "shl", imm, n, d, false) }

// VUSHR sets each element of d to that of n shifted right by imm.
func (f *Func) VUSHR(imm int, n, d Vec) { f.shift("VUSHR", "ushr", imm, n, d, true) }

// VSRI shifts n right by imm and inserts it into d, keeping d's top imm bits.
func (f *Func) VSRI(imm int, n, d Vec) { f.shift("VSRI", "sri", imm, n, d, true).In = rs(n, d) }

// VUSRA adds (integer addition) n shifted right by imm to d.
func (f *Func) VUSRA(imm int, n, d Vec) { f.shift("VUSRA", "usra", imm, n, d, true).In = rs(n, d) }

// --- General-purpose registers and control flow ---

func (f *Func) scalar(goOp string, goArgs []string, gnu string) built {
	return built{f.Add(&inst{Op: goOp, Args: goArgs, GNU: gnu, Latency: 1})}
}

// LoadArg loads the argument a (see Func.Arg) into r: MOVD name+off(FP), Rr.
func (f *Func) LoadArg(a Arg, r Reg) {
	r.check()
	f.scalar("MOVD", []string{a.asm(), r.String()}, "").rw(rs("mem"), rs(r)...)
}

// LoadAddr loads the address of the DATA section g into r.
func (f *Func) LoadAddr(g *Global, r Reg) {
	r.check()
	f.scalar("MOVD", []string{"$" + g.Sym() + "(SB)", r.String()}, "").rw(nil, rs(r)...)
}

// MOVDConst sets r to the constant v.
func (f *Func) MOVDConst(v int64, r Reg) {
	r.check()
	f.scalar("MOVD", []string{fmt.Sprintf("$%d", v), r.String()}, fmt.Sprintf("mov %s, #%d", r.gnuText(), v)).rw(nil, rs(r)...)
}

// ADD sets d = n + imm (0 <= imm < 4096); n may be RSP.
func (f *Func) ADD(imm int, n, d Reg) { f.arithImm("ADD", "add", imm, n, d) }

// SUB sets d = n - imm (0 <= imm < 4096).
func (f *Func) SUB(imm int, n, d Reg) { f.arithImm("SUB", "sub", imm, n, d) }

// SUBS sets d = n - imm and the condition flags.
func (f *Func) SUBS(imm int, n, d Reg) { f.arithImm("SUBS", "subs", imm, n, d) }

func (f *Func) arithImm(goOp, gnuOp string, imm int, n, d Reg) {
	n.checkBase()
	d.check()
	need(imm >= 0 && imm < 4096, "%s: immediate %d out of range", goOp, imm)
	i := f.scalar(goOp, []string{fmt.Sprintf("$%d", imm), n.String(), d.String()},
		fmt.Sprintf("%s %s, %s, #%d", gnuOp, d.gnuText(), n.gnuText(), imm))
	i.rw(rs(n), rs(d)...)
	if goOp == "SUBS" {
		i.Out = append(i.Out, "flags")
	}
}

// ANDMask sets d = n & mask, for a mask that is one run of ones (a
// logical immediate such as -16 or 0xff).
func (f *Func) ANDMask(mask uint64, n, d Reg) {
	n.check()
	d.check()
	f.scalar("AND", []string{fmt.Sprintf("$%d", int64(mask)), n.String(), d.String()},
		fmt.Sprintf("and %s, %s, #0x%x", d.gnuText(), n.gnuText(), mask)).rw(rs(n), rs(d)...)
}

// CMP compares n with imm, setting the flags for a following conditional branch.
func (f *Func) CMP(imm int, n Reg) {
	n.check()
	need(imm >= 0 && imm < 4096, "CMP: immediate %d out of range", imm)
	f.scalar("CMP", []string{fmt.Sprintf("$%d", imm), n.String()}, fmt.Sprintf("cmp %s, #%d", n.gnuText(), imm)).rw(rs(n), "flags")
}

// Cond is a condition on the flags: armemit.EQ, armemit.NE, armemit.HS or armemit.LO.
type Cond = armemit.Cond

// CSEL sets d = n if the flags satisfy c, else d = m (Go: CSEL c, Rn, Rm, Rd).
func (f *Func) CSEL(c Cond, n, m, d Reg) {
	n.check()
	m.check()
	d.check()
	need(c.Valid(), "CSEL: no condition %q", c)
	f.scalar("CSEL", []string{string(c), n.String(), m.String(), d.String()},
		fmt.Sprintf("csel %s, %s, %s, %s", d.gnuText(), n.gnuText(), m.gnuText(), strings.ToLower(string(c)))).
		rw(rs(n, m, "flags"), rs(d)...)
}

// CBZ jumps to label if r is zero.
func (f *Func) CBZ(r Reg, label string) {
	r.check()
	f.Add(&inst{Op: "CBZ", Args: []string{r.String(), label}, GNU: fmt.Sprintf("cbz %s, %s", r.gnuText(), label),
		Branch: true, Conditional: true, Target: label, In: rs(r)})
}

// RET returns.
func (f *Func) RET() { f.Add(&inst{Op: "RET", GNU: "ret", Terminal: true}) }
