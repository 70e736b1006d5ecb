package arm32

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/simdhash/simdhash/gen/internal/armemit"
)

func need(cond bool, format string, args ...any) {
	if !cond {
		panic("arm32: " + fmt.Sprintf(format, args...))
	}
}

func sameWidth(op string, xs ...Vec) {
	for _, x := range xs[1:] {
		need(x.Quad() == xs[0].Quad(), "%s: operands %v and %v differ in width", op, xs[0], x)
	}
}

// neon appends a NEON instruction as WORD, with what it reads and writes.
func (f *Func) neon(isa string, enc uint32, gnu string, in, out []string) *armemit.Inst {
	f.checkLR(gnu, in, out)
	return f.Add(&armemit.Inst{Op: "WORD", Word: enc, IsWord: true, GNU: gnu, ISA: isa, In: in, Out: out, Latency: armemit.VectorLatency(gnu, "vld", "vmull", "sha1")})
}

// --- Bitwise logic (D or Q) ---

func (f *Func) logic(name string, enc uint32, m, n, d Vec) *armemit.Inst {
	sameWidth(name, d, n, m)
	return f.neon("NEON", enc|quad(d)|fields(d.D(), n.D(), m.D()),
		fmt.Sprintf("%s %v, %v, %v", name, d, n, m), res(n, m), res(d))
}

// VEOR sets d = n ^ m.
func (f *Func) VEOR(m, n, d Vec) { f.logic("veor", encVEOR, m, n, d) }

// VAND sets d = n & m.
func (f *Func) VAND(m, n, d Vec) { f.logic("vand", encVAND, m, n, d) }

// VMOV copies m to d (VORR d, m, m).
func (f *Func) VMOV(m, d Vec) {
	sameWidth("vmov", d, m)
	f.neon("NEON", encVORR|quad(d)|fields(d.D(), m.D(), m.D()), fmt.Sprintf("vmov %v, %v", d, m), res(m), res(d))
}

// --- Integer arithmetic ---

// VADD adds the elements of size bits of n and m into d (vadd.i).
func (f *Func) VADD(size int, m, n, d Vec) {
	sameWidth("vadd", d, n, m)
	sz := elemSize("vadd", size, 8, 16, 32, 64)
	f.neon("NEON", encVADD|sz<<20|quad(d)|fields(d.D(), n.D(), m.D()),
		fmt.Sprintf("vadd.i%d %v, %v, %v", size, d, n, m), res(n, m), res(d))
}

// --- SHA-1 (the ARMv8 Crypto Extensions) ---

// SHA1C performs four SHA-1 rounds with the choose function f = Ch (that
// of rounds 0-19) on the working variables a, b, c, d in words 0-3 of d
// and e in word 0 of n, with the rounds' four words W+K in m. The new a,
// b, c, d replace d; the new e is the old a rotated left by 30 (SHA1H).
// GNU: sha1c.32 d, n, m.
func (f *Func) SHA1C(m, n, d QReg) { f.sha1Three("sha1c", encSHA1C, m, n, d) }

// SHA1P is SHA1C with the parity function, that of rounds 20-39 and 60-79.
func (f *Func) SHA1P(m, n, d QReg) { f.sha1Three("sha1p", encSHA1P, m, n, d) }

// SHA1M is SHA1C with the majority function, that of rounds 40-59.
func (f *Func) SHA1M(m, n, d QReg) { f.sha1Three("sha1m", encSHA1M, m, n, d) }

// SHA1SU0 is the first half of the message schedule: with W[t..t+3] in d,
// W[t+4..t+7] in n and W[t+8..t+11] in m, it sets d to
// W[t..t+3] ^ W[t+2..t+5] ^ W[t+8..t+11].
func (f *Func) SHA1SU0(m, n, d QReg) { f.sha1Three("sha1su0", encSHA1SU0, m, n, d) }

func (f *Func) sha1Three(name string, enc uint32, m, n, d QReg) {
	f.neon("SHA1", enc|fields(d.D(), n.D(), m.D()), fmt.Sprintf("%s.32 %v, %v, %v", name, d, n, m), res(d, n, m), res(d))
}

// SHA1H sets word 0 of d to word 0 of m rotated left by 30, and the rest
// of d to zero: the e of the next four rounds, from the a before them.
func (f *Func) SHA1H(m, d QReg) {
	f.neon("SHA1", encSHA1H|fields(d.D(), 0, m.D()), fmt.Sprintf("sha1h.32 %v, %v", d, m), res(m), res(d))
}

// SHA1SU1 finishes the message schedule: with SHA1SU0's result in d and
// W[t+12..t+15] in m, it sets d to W[t+16..t+19].
func (f *Func) SHA1SU1(m, d QReg) {
	f.neon("SHA1", encSHA1SU1|fields(d.D(), 0, m.D()), fmt.Sprintf("sha1su1.32 %v, %v", d, m), res(d, m), res(d))
}

// --- Polynomial multiplication ---

// VMULLP8 multiplies the eight bytes of n by those of m, lane by lane,
// carry-lessly, into eight 16-bit products in d (vmull.p8).
func (f *Func) VMULLP8(m, n DReg, d QReg) {
	f.neon("NEON", encVMULLP8|fields(d.D(), n.D(), m.D()), fmt.Sprintf("vmull.p8 %v, %v, %v", d, n, m), res(n, m), res(d))
}

// VMULLP64 multiplies n by m carry-lessly into the 128-bit d (vmull.p64,
// the ARMv8 Crypto Extensions).
func (f *Func) VMULLP64(m, n DReg, d QReg) {
	f.neon("PMULL", encVMULLP64|fields(d.D(), n.D(), m.D()), fmt.Sprintf("vmull.p64 %v, %v, %v", d, n, m), res(n, m), res(d))
}

// --- Permutations ---

// VEXT sets d to bytes imm.. of the pair m:n (n low): with n = m it
// rotates n right by imm bytes; with n zero it shifts m left by
// width-imm bytes (vext.8).
func (f *Func) VEXT(imm int, m, n, d Vec) {
	sameWidth("vext", d, n, m)
	width := 8
	if d.Quad() {
		width = 16
	}
	need(imm >= 0 && imm < width, "vext: index %d out of range for %v", imm, d)
	f.neon("NEON", encVEXT|uint32(imm)<<8|quad(d)|fields(d.D(), n.D(), m.D()),
		fmt.Sprintf("vext.8 %v, %v, %v, #%d", d, n, m, imm), res(n, m), res(d))
}

// VTBL looks up each byte of m in the table of consecutive registers
// (one to four) and writes the bytes to d; an index past the table gives 0.
func (f *Func) VTBL(m DReg, table []DReg, d DReg) {
	list := regList("vtbl", table)
	f.neon("NEON", encVTBL|uint32(len(table)-1)<<8|fields(d.D(), table[0].D(), m.D()),
		fmt.Sprintf("vtbl.8 %v, %s, %v", d, list, m), res(table, m), res(d))
}

// elemSize is the size field of elements of size bits (8, 16, 32 or 64),
// which must be one of allowed: 0 for bytes up to 3 for doublewords.
func elemSize(op string, size int, allowed ...int) uint32 {
	need(slices.Contains(allowed, size), "%s: element size %d not allowed (want one of %v)", op, size, allowed)
	return uint32(bits.TrailingZeros(uint(size / 8)))
}

func (f *Func) pairwise(name string, enc uint32, size int, m, d Vec) {
	sameWidth(name, d, m)
	need(d.D() != m.D(), "%s: both operands are %v", name, d)
	sz := elemSize(name, size, 8, 16, 32)
	f.neon("NEON", enc|sz<<18|quad(d)|fields(d.D(), 0, m.D()),
		fmt.Sprintf("%s.%d %v, %v", name, size, d, m), res(d, m), res(d, m))
}

// VUZP de-interleaves the elements of the pair d:m in place: d gets the
// even-numbered elements, m the odd ones (vuzp.size).
func (f *Func) VUZP(size int, m, d Vec) { f.pairwise("vuzp", encVUZP, size, m, d) }

// VREV32 reverses the elements of size bits (8 or 16) within each word of
// m into d: with 8, it turns big-endian words into little-endian ones.
func (f *Func) VREV32(size int, m, d Vec) {
	sameWidth("vrev32", d, m)
	sz := elemSize("vrev32", size, 8, 16)
	f.neon("NEON", encVREV32|sz<<18|quad(d)|fields(d.D(), 0, m.D()),
		fmt.Sprintf("vrev32.%d %v, %v", size, d, m), res(m), res(d))
}

// --- Shifts by an immediate ---

func (f *Func) shift(name, suffix string, u, opc uint32, size, imm int, m, d Vec, right bool) *armemit.Inst {
	sameWidth(name, d, m)
	elemSize(name, size, 8, 16, 32, 64)
	if right {
		need(imm >= 1 && imm <= size, "%s: shift %d out of range 1..%d", name, imm, size)
	} else {
		need(imm >= 0 && imm < size, "%s: shift %d out of range 0..%d", name, imm, size-1)
	}
	return f.neon("NEON", encShift(u, opc, size, imm, right)|quad(d)|fields(d.D(), 0, m.D()),
		fmt.Sprintf("%s.%s%d %v, %v, #%d", name, suffix, size, d, m, imm), res(m), res(d))
}

// VSHR shifts each element of m right (logical) by imm into d (vshr.u).
func (f *Func) VSHR(size, imm int, m, d Vec) { f.shift("vshr", "u", 1, 0x0, size, imm, m, d, true) }

// VSHL shifts each element of m left by imm into d (vshl.i).
func (f *Func) VSHL(size, imm int, m, d Vec) {
	f.shift("vshl", "i", 0, 0x5, size, imm, m, d, false)
}

// VSRI shifts each element of m right by imm and inserts it into d,
// keeping d's top imm bits (vsri).
func (f *Func) VSRI(size, imm int, m, d Vec) {
	f.shift("vsri", "", 1, 0x4, size, imm, m, d, true).In = res(d, m)
}

// --- Immediates ---

// VMOVI8 sets every byte of d to imm (vmov.i8).
func (f *Func) VMOVI8(imm uint8, d Vec) {
	f.neon("NEON", encModImm(0, 0xe, uint32(imm))|quad(d)|fields(d.D(), 0, 0), fmt.Sprintf("vmov.i8 %v, #0x%02x", d, imm), nil, res(d))
}

// VMOVI64 sets every doubleword of d to imm, each of whose bytes must be
// 0x00 or 0xff (vmov.i64).
func (f *Func) VMOVI64(imm uint64, d Vec) {
	var abcdefgh uint32
	for i := 0; i < 8; i++ {
		switch b := byte(imm >> (8 * i)); b {
		case 0xff:
			abcdefgh |= 1 << i
		case 0:
		default:
			need(false, "vmov.i64: byte %d of %#x is %#x; want 0x00 or 0xff", i, imm, b)
		}
	}
	f.neon("NEON", encModImm(1, 0xe, abcdefgh)|quad(d)|fields(d.D(), 0, 0), fmt.Sprintf("vmov.i64 %v, #0x%016x", d, imm), nil, res(d))
}

// --- Loads and stores ---

func regList(op string, list []DReg) string {
	need(len(list) >= 1 && len(list) <= 4, "%s: %d registers in the list; want 1 to 4", op, len(list))
	var s []string
	for i, d := range list {
		need(int(d) == int(list[0])+i, "%s: list registers must be consecutive, got %v after %v", op, d, list[0])
		s = append(s, d.String())
	}
	return "{" + strings.Join(s, ", ") + "}"
}

// Regs returns the D registers of qs in order, as a register list:
// Regs(Q1, Q2) is d2, d3, d4, d5.
func Regs(qs ...QReg) []DReg {
	var out []DReg
	for _, q := range qs {
		out = append(out, q.Lo(), q.Hi())
	}
	return out
}

// Post says how a load or store updates its base register.
type Post struct {
	kind int // 0: none, 1: by the transfer size, 2: by a register
	inc  Reg
}

// The updates of the base register.
var (
	NoUpdate = Post{}        // [Rn]
	Advance  = Post{kind: 1} // [Rn]!: Rn += the bytes transferred
)

// AdvanceBy is [Rn], Rm: Rn += Rm after the transfer.
func AdvanceBy(r Reg) Post { r.check(); return Post{kind: 2, inc: r} }

func (p Post) rm() uint32 {
	switch p.kind {
	case 1:
		return 13
	case 2:
		return uint32(p.inc)
	}
	return 15
}

func (p Post) gnu(base Reg) string {
	switch p.kind {
	case 1:
		return fmt.Sprintf("[%s]!", base.gnuText())
	case 2:
		return fmt.Sprintf("[%s], %s", base.gnuText(), p.inc.gnuText())
	}
	return fmt.Sprintf("[%s]", base.gnuText())
}

// VLD1 loads the consecutive registers of list from (base), bytes in
// memory order (vld1.8), which needs no alignment.
func (f *Func) VLD1(base Reg, post Post, list []DReg) { f.ldst1(true, base, post, list) }

// VST1 stores the consecutive registers of list to (base) (vst1.8).
func (f *Func) VST1(list []DReg, base Reg, post Post) { f.ldst1(false, base, post, list) }

// ldst1 appends VLD1 (load) or VST1 of list at (base).
func (f *Func) ldst1(load bool, base Reg, post Post, list []DReg) {
	base.check()
	op, in, out := "vld1", res(base, "mem"), res(list)
	if !load {
		op, in, out = "vst1", res(list, base, "mem"), []string{"mem"}
	}
	l := regList(op, list)
	if post.kind == 2 {
		in = append(in, post.inc.String())
	}
	if post.kind != 0 {
		out = append(out, base.String())
	}
	f.neon("NEON", encLdSt(load, len(list), base, list[0], post.rm()), fmt.Sprintf("%s.8 %s, %s", op, l, post.gnu(base)), in, out)
}

// --- General-purpose registers and control flow (Go syntax) ---

// checkLR panics if an instruction reads or writes R14 in a function
// without a frame: there R14 holds the return address, which only a
// frame's prologue saves. Every register operand passes through here, by
// scalar or neon.
func (f *Func) checkLR(op string, in, out []string) {
	need(f.Frame() > 0 || !slices.Contains(in, "R14") && !slices.Contains(out, "R14"),
		"%s: R14 holds the return address in a function without a frame", op)
}

// scalar appends a general-register instruction in Go syntax, with its GNU
// form (empty if it has none here) and what it reads and writes.
func (f *Func) scalar(goOp string, goArgs []string, gnu string, in, out []string) *armemit.Inst {
	f.checkLR(goOp, in, out)
	return f.Add(&armemit.Inst{Op: goOp, Args: goArgs, GNU: gnu, In: in, Out: out, Latency: 1})
}

// armImm reports whether v is an A32 data-processing immediate: an 8-bit
// value rotated right by an even amount.
func armImm(v uint32) bool {
	for rot := 0; rot < 32; rot += 2 {
		if (v<<rot|v>>(32-rot))&^0xff == 0 {
			return true
		}
	}
	return false
}

// LoadArg loads the argument a (see Func.Arg) into r: MOVW name+off(FP), Rr.
func (f *Func) LoadArg(a Arg, r Reg) {
	r.check()
	f.scalar("MOVW", []string{a.asm(), r.String()}, "", res("mem"), res(r))
}

// LoadAddr loads the address of the DATA section g into r (from a literal pool).
func (f *Func) LoadAddr(g *Global, r Reg) {
	r.check()
	f.scalar("MOVW", []string{"$" + g.Sym() + "(SB)", r.String()}, "", nil, res(r))
}

// MOVW copies register m to r, or a shifted register: MOVW R1@>2, R1 is
// the rotate ror r1, r1, #2.
func (f *Func) MOVW(m Operand2, r Reg) {
	s := m.Operand()
	r.check()
	g, _ := texts(s, "MOVW")
	gnu := fmt.Sprintf("mov %s, %s", r.gnuText(), s.Reg.gnuText())
	if s.N != 0 {
		gnu = fmt.Sprintf("%s %s, %s, #%d", s.Kind.GNU(), r.gnuText(), s.Reg.gnuText(), s.N)
	}
	f.scalar("MOVW", []string{g, r.String()}, gnu, res(s.Reg), res(r))
}

func (f *Func) arith(goOp, gnuOp string, imm int, n, d Reg) *armemit.Inst {
	n.check()
	d.check()
	need(imm >= 0 && armImm(uint32(imm)), "%s: %d is not an A32 immediate", goOp, imm)
	return f.scalar(goOp, []string{fmt.Sprintf("$%d", imm), n.String(), d.String()},
		fmt.Sprintf("%s %s, %s, #%d", gnuOp, d.gnuText(), n.gnuText(), imm), res(n), res(d))
}

// Cond is a condition on the flags: armemit.EQ, armemit.NE, armemit.HS or armemit.LO.
type Cond = armemit.Cond

// SUBIf sets d = n - imm if the flags satisfy c, and leaves d otherwise
// (Go: SUB.c).
func (f *Func) SUBIf(c Cond, imm int, n, d Reg) {
	need(c.Valid(), "SUB: no condition %q", c)
	i := f.arith("SUB."+string(c), "sub"+strings.ToLower(string(c)), imm, n, d)
	i.In = res(n, d, "flags")
}

// SUB sets d = n - imm.
func (f *Func) SUB(imm int, n, d Reg) { f.arith("SUB", "sub", imm, n, d) }

// SUBS sets d = n - imm and the condition flags (Go: SUB.S).
func (f *Func) SUBS(imm int, n, d Reg) {
	i := f.arith("SUB.S", "subs", imm, n, d)
	i.Out = append(i.Out, "flags")
}

// BIC sets d = n &^ imm.
func (f *Func) BIC(imm int, n, d Reg) { f.arith("BIC", "bic", imm, n, d) }

// CMP compares n with imm, setting the flags for a following conditional branch.
func (f *Func) CMP(imm int, n Reg) {
	n.check()
	need(imm >= 0 && armImm(uint32(imm)), "CMP: %d is not an A32 immediate", imm)
	f.scalar("CMP", []string{fmt.Sprintf("$%d", imm), n.String()}, fmt.Sprintf("cmp %s, #%d", n.gnuText(), imm), res(n), []string{"flags"})
}

// RET returns. (Go assembles it as ADD $0, R14, R15; it has no GNU form here.)
func (f *Func) RET() { f.Add(&armemit.Inst{Op: "RET", Terminal: true}) }

// VLDR loads the 8 bytes at off(base) into d (the VFP load; off is a
// multiple of 4 below 1024, and the address must be 4-byte aligned).
func (f *Func) VLDR(base Reg, off int, d DReg) {
	base.checkBase()
	need(off >= 0 && off < 1024 && off%4 == 0, "vldr: offset %d is not a multiple of 4 in 0..1020", off)
	f.neon("NEON", encVLDR|uint32(base)<<16|uint32(off/4)|fields(d.D(), 0, 0),
		fmt.Sprintf("vldr %v, [%s, #%d]", d, base.gnuText(), off), append(res(base), stackRes(base, off, 8)...), res(d))
}

// sReg is the number of the single-precision register that is word 0 of
// q: S4q, which exists for Q0-Q7 only.
func sReg(op string, q QReg) uint32 {
	need(q <= Q7, "%s: word 0 of %v is no S register (only Q0-Q7 have them)", op, q)
	return 4 * uint32(q)
}

// VLDR32 loads the 4 bytes at off(base) into word 0 of d, leaving its other
// words (the VFP load of S4d; off is a multiple of 4 below 1024; d is one
// of Q0-Q7).
func (f *Func) VLDR32(base Reg, off int, d QReg) {
	f.vfp32("vldr", encVLDR32, base, off, d, res(base, "mem", d.Lo()), res(d.Lo()))
}

// VSTR32 stores word 0 of s at off(base) (the VFP store of S4s; off is a
// multiple of 4 below 1024; s is one of Q0-Q7).
func (f *Func) VSTR32(s QReg, base Reg, off int) {
	f.vfp32("vstr", encVSTR32, base, off, s, res(s.Lo(), base, "mem"), []string{"mem"})
}

// vfp32 appends the VFP load or store op of word 0 of q at off(base).
func (f *Func) vfp32(op string, enc uint32, base Reg, off int, q QReg, in, out []string) {
	base.check()
	need(off >= 0 && off < 1024 && off%4 == 0, "%s: offset %d is not a multiple of 4 in 0..1020", op, off)
	n := sReg(op, q)
	f.neon("NEON", enc|uint32(base)<<16|(n>>1)<<12|(n&1)<<22|uint32(off/4),
		fmt.Sprintf("%s s%d, [%s, #%d]", op, n, base.gnuText(), off), in, out)
}
