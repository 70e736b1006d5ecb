package arm64

import "fmt"

// The instructions of the UBC check of package sha1dc's kernels
// (gen/internal/sha1arm's CheckA64), and the results of their functions.

// VSSHR sets each 32-bit lane of d (S4) to that of n shifted right by imm,
// copying the sign: SSHR, which Go's assembler lacks (WORD).
func (f *Func) VSSHR(imm int, n, d Vec) {
	sameArr("VSSHR", n, d)
	oneOf("VSSHR", d, S4)
	need(imm >= 1 && imm <= 32, "VSSHR: shift %d out of range 1..32", imm)
	f.word(encSSHR4S(imm, n.Reg, d.Reg), fmt.Sprintf("sshr %s, %s, #%d", d.gnuText(), n.gnuText(), imm)).rw(rs(n), rs(d)...)
}

// encSSHR4S encodes SSHR Vd.4S, Vn.4S, #imm: 0 Q=1 0 011110 immh:immb
// (64-imm for 32-bit lanes) 00000 1 Rn Rd.
func encSSHR4S(imm int, n, d VReg) uint32 {
	return 0x4f000400 | uint32(64-imm)<<16 | uint32(n)<<5 | uint32(d)
}

// MVN sets d to the complement of n (64-bit).
func (f *Func) MVN(n, d Reg) {
	n.check()
	d.check()
	f.scalar("MVN", []string{n.String(), d.String()}, fmt.Sprintf("mvn %s, %s", d.gnuText(), n.gnuText())).rw(rs(n), rs(d)...)
}

// CBNZ jumps to label if r is not zero; it leaves the flags alone.
func (f *Func) CBNZ(r Reg, label string) {
	r.check()
	f.Add(&inst{Op: "CBNZ", Args: []string{r.String(), label}, GNU: fmt.Sprintf("cbnz %s, %s", r.gnuText(), label),
		Branch: true, Conditional: true, Target: label, In: rs(r)})
}

// MVNW sets the low word of d to the complement of n's, zeroing the rest.
func (f *Func) MVNW(n, d Reg) {
	n.check()
	d.check()
	f.scalar("MVNW", []string{n.String(), d.String()}, fmt.Sprintf("mvn w%d, w%d", d, n)).rw(rs(n), rs(d)...)
}

// Result returns the named result of f's signature.
func (f *Func) Result(name string) Arg { return Arg{f.sig.Results().Lookup(name)} }

// StoreArgW stores the low word of r (or ZR, zero) into the 32-bit
// argument or result a: MOVW Rr, name+off(FP).
func (f *Func) StoreArgW(r Reg, a Arg) {
	if r != ZR {
		r.check()
	}
	f.scalar("MOVW", []string{r.String(), a.asm()}, "").rw(rs(r), "mem")
}

// SUBReg sets d = n - m (64-bit).
func (f *Func) SUBReg(m Operand2, n, d Reg) { f.arith("SUB", "sub", 64, m, n, d) }
