package armemit

import (
	"fmt"
	"strings"

	"github.com/mmcloughlin/avo/gotypes"
)

// Func is one TEXT section under construction: NOSPLIT, with a local frame
// of Frame bytes (none unless SetFrame says).
type Func struct {
	name     string
	sig      *gotypes.Signature // the Go signature, for the comment above TEXT
	argBytes int                // the size of the arguments on the target
	frame    int                // the size of the local frame
	isas     []string           // extension names in "Requires:" order; the first is implied by the others
	cond     string             // the GNU prefix of a conditional branch's condition: "b." or "b"
	nodes    []any              // *Inst, Label, Comment
}

// NewFunc returns an empty function named name (without the middle dot)
// with Go signature sig, whose arguments take argBytes bytes on the target
// architecture (avo's gotypes computes amd64 sizes, which are also arm64's
// but not 32-bit arm's). isas lists the extension names an instruction's
// ISA may hold, in the order of the "Requires:" line; the first is the
// base vector extension that every other one implies. cond is how GNU
// syntax prefixes the condition of a conditional branch: "b." (b.ne) on
// A64, "b" (bne) on A32.
//
// A Func made this way can be filled and inspected (tests do that);
// File.Add puts it into a file.
func NewFunc(name string, sig *gotypes.Signature, argBytes int, isas []string, cond string) *Func {
	return &Func{name: name, sig: sig, argBytes: argBytes, isas: isas, cond: cond}
}

// Must returns v, and panics if err is not nil: for the emitters' checks
// of constant arguments (a build constraint, a signature), which fail
// only if the generator is wrong.
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Name is the function's name.
func (f *Func) Name() string { return f.name }

// SetFrame gives the function a local frame of n bytes: the $n of its TEXT
// line. The assembler adds the saved link register (and, on arm64, frame
// pointer) and writes the prologue and epilogue; where the locals lie
// relative to the hardware stack pointer is the target's convention.
func (f *Func) SetFrame(n int) {
	if n < 0 {
		panic(fmt.Sprintf("emit: %s: frame of %d bytes", f.name, n))
	}
	f.frame = n
}

// Frame is the size of the local frame in bytes.
func (f *Func) Frame() int { return f.frame }

// Add appends the instruction i and returns it.
func (f *Func) Add(i *Inst) *Inst {
	f.nodes = append(f.nodes, i)
	return i
}

// B jumps to label.
func (f *Func) B(label string) { f.branch("", label) }

// BEQ jumps to label if the last comparison found equality (Z set).
func (f *Func) BEQ(label string) { f.branch(EQ, label) }

// BNE jumps to label if Z is clear.
func (f *Func) BNE(label string) { f.branch(NE, label) }

// BHS jumps to label if the comparison was unsigned >= (carry set).
func (f *Func) BHS(label string) { f.branch(HS, label) }

// BLO jumps to label if the comparison was unsigned < (carry clear).
func (f *Func) BLO(label string) { f.branch(LO, label) }

// branch appends B, or B<c> taken if the flags satisfy c.
func (f *Func) branch(c Cond, label string) {
	gnu := "b"
	if c != "" {
		gnu = f.cond + strings.ToLower(string(c))
	}
	f.Add(&Inst{Op: "B" + string(c), Args: []string{label}, GNU: gnu + " " + label,
		Branch: true, Conditional: c != "", Target: label, In: []string{"flags"}})
}

// Label places label name here.
func (f *Func) Label(name string) { f.nodes = append(f.nodes, Label(name)) }

// Comment adds comment lines, printed on their own lines before what follows.
func (f *Func) Comment(lines ...string) { f.nodes = append(f.nodes, Comment(lines)) }

// Nodes returns the function's body in order: *Inst, Label and Comment values.
func (f *Func) Nodes() []any { return f.nodes }

// Insts returns the function's instructions in order.
func (f *Func) Insts() []*Inst {
	var out []*Inst
	for _, n := range f.nodes {
		if i, ok := n.(*Inst); ok {
			out = append(out, i)
		}
	}
	return out
}

// Requires lists the extensions f's instructions need beyond the base
// instruction set, in the order given to NewFunc, as printed on its
// "Requires:" line.
func (f *Func) Requires() []string {
	set := map[string]bool{}
	for _, i := range f.Insts() {
		if i.ISA != "" {
			set[i.ISA] = true
			if len(f.isas) > 0 {
				set[f.isas[0]] = true
			}
		}
	}
	var out []string
	for _, x := range f.isas {
		if set[x] {
			out = append(out, x)
		}
	}
	return out
}

// GNU returns the loop that starts at label start in GNU syntax, from the
// label down to the last branch back to it, for tools such as llvm-mca.
// It fails if the loop holds an instruction with no GNU form.
func (f *Func) GNU(start string) (string, error) {
	from, to := -1, -1
	for k, n := range f.nodes {
		switch n := n.(type) {
		case Label:
			if string(n) == start {
				from = k
			}
		case *Inst:
			if from >= 0 && n.Branch && n.Target == start {
				to = k
			}
		}
	}
	if from < 0 || to < 0 {
		return "", fmt.Errorf("%s has no loop at label %q", f.name, start)
	}
	var b strings.Builder
	for _, n := range f.nodes[from : to+1] {
		switch n := n.(type) {
		case Label:
			fmt.Fprintf(&b, "%s:\n", n)
		case Comment:
			writeComments(&b, n)
		case *Inst:
			writeComments(&b, n.notes...)
			if n.GNU == "" {
				return "", fmt.Errorf("%s: %s has no GNU form", f.name, n.Text())
			}
			fmt.Fprintf(&b, "\t%s\n", n.GNU)
		}
	}
	return b.String(), nil
}

// writeComments writes the lines of cs as GNU comments.
func writeComments(b *strings.Builder, cs ...Comment) {
	for _, c := range cs {
		for _, l := range c {
			fmt.Fprintf(b, "\t// %s\n", l)
		}
	}
}
