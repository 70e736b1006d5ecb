package sha1sched

// An Expr is a form of a round function f(b, c, d), the one place the
// forms of Ch, Parity and Maj are written: an input (InB, InC, InD) or an
// operation on two forms. Every backend lowers it, each to its registers
// and instructions, in the order of its own rules; the forms' trees are
// written in the order most of them evaluate.
type Expr struct {
	Op   ExprOp
	X, Y *Expr
}

// ExprOp is what an Expr is.
type ExprOp int

// The inputs and operations of the forms. OpAndNot is X &^ Y; OpAdd joins two
// halves that share no bit, which a backend may add into e one by one.
const (
	InB ExprOp = iota
	InC
	InD
	OpAnd
	OpOr
	OpXor
	OpAndNot
	OpAdd
)

var inB, inC, inD = &Expr{Op: InB}, &Expr{Op: InC}, &Expr{Op: InD}

func op(o ExprOp, x, y *Expr) *Expr { return &Expr{Op: o, X: x, Y: y} }

// The forms (see Ch and Maj).
var (
	chXor  = op(OpXor, op(OpAnd, op(OpXor, inC, inD), inB), inD)                 // ((c ^ d) & b) ^ d
	chAdd  = op(OpAdd, op(OpAndNot, inD, inB), op(OpAnd, inC, inB))              // (d &^ b) + (c & b)
	parity = op(OpXor, op(OpXor, inC, inD), inB)                                 // (c ^ d) ^ b
	majXor = op(OpXor, op(OpAnd, op(OpXor, inB, inC), op(OpXor, inC, inD)), inC) // ((b ^ c) & (c ^ d)) ^ c
	majOr  = op(OpOr, op(OpAnd, op(OpOr, inB, inC), inD), op(OpAnd, inB, inC))   // ((b | c) & d) | (b & c)
	majAdd = op(OpAdd, op(OpAnd, inC, inD), op(OpAnd, op(OpXor, inC, inD), inB)) // (c & d) + ((c ^ d) & b)
)

// FormOf is f in the forms ch and maj.
func FormOf(f Func, ch Ch, maj Maj) *Expr {
	switch {
	case f == FParity:
		return parity
	case f == FCh:
		return [...]*Expr{ChXor: chXor, ChAdd: chAdd}[ch]
	}
	return [...]*Expr{MajXor: majXor, MajOr: majOr, MajAdd: majAdd}[maj]
}

// Form is round r's f in its forms.
func (r Round) Form() *Expr { return FormOf(r.F, r.Ch, r.Maj) }

// Leaf reports whether x is an input.
func (x *Expr) Leaf() bool { return x.Op <= InD }

// ReadsB reports whether x reads b.
func (x *Expr) ReadsB() bool { return x.Op == InB || !x.Leaf() && (x.X.ReadsB() || x.Y.ReadsB()) }

// XorInputs is the inputs of x in order if x is a tree of XORs, else nil.
func (x *Expr) XorInputs() []ExprOp {
	switch {
	case x.Leaf():
		return []ExprOp{x.Op}
	case x.Op != OpXor:
		return nil
	}
	p, q := x.X.XorInputs(), x.Y.XorInputs()
	if p == nil || q == nil {
		return nil
	}
	return append(p, q...)
}

// Eval computes x.
func (x *Expr) Eval(b, c, d uint32) uint32 {
	if x.Leaf() {
		return [...]uint32{b, c, d}[x.Op]
	}
	return x.Op2(x.X.Eval(b, c, d), x.Y.Eval(b, c, d))
}

// Op2 is x's operation on the values p and q of its operands.
func (x *Expr) Op2(p, q uint32) uint32 {
	return [...]uint32{OpAnd: p & q, OpOr: p | q, OpXor: p ^ q, OpAndNot: p &^ q, OpAdd: p + q}[x.Op]
}

// Eval computes f as FIPS 180-4 (4.1.1) defines it.
func (f Func) Eval(b, c, d uint32) uint32 {
	return [...]uint32{FCh: b&c | ^b&d, FParity: b ^ c ^ d, FMaj: b&c | b&d | c&d}[f]
}

// Ternary returns the truth table of f as VPTERNLOGD's immediate: bit
// 4b+2c+d is f(b, c, d), with b from the first source (the destination),
// c from the second and d from the third (Intel SDM, vol. 2C, VPTERNLOGD).
func (f Func) Ternary() uint8 {
	var imm uint8
	for i := range 8 {
		imm |= uint8(f.Eval(uint32(i>>2), uint32(i>>1), uint32(i))&1) << i
	}
	return imm
}
