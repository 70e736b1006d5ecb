package arm64

import (
	"fmt"
	"go/build/constraint"
	"os"
	"runtime/debug"
	"strings"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/buildtags"
	"github.com/mmcloughlin/avo/gotypes"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/printer"
)

// File is one generated assembly file: TEXT and DATA sections under one
// header and build constraint.
type File struct {
	constraints buildtags.Constraints
	sections    []any // *Func or *Global, in order
}

// NewFile starts a file whose build constraint is expr, in //go:build
// syntax ("arm64 && !purego"). The expression must be a conjunction of
// tags, negated tags and disjunctions of those (what avo's buildtags can
// hold); NewFile checks that the constraint it will print means exactly
// expr, so that no term (such as !purego) is silently dropped.
func NewFile(expr string) (*File, error) {
	cs, err := parseConstraint(expr)
	if err != nil {
		return nil, err
	}
	return &File{constraints: cs}, nil
}

func parseConstraint(expr string) (buildtags.Constraints, error) {
	want, err := constraint.Parse("//go:build " + expr)
	if err != nil {
		return nil, fmt.Errorf("arm64: build constraint %q: %w", expr, err)
	}
	var cs buildtags.Constraints
	var conj func(e constraint.Expr) error
	conj = func(e constraint.Expr) error {
		if a, ok := e.(*constraint.AndExpr); ok {
			if err := conj(a.X); err != nil {
				return err
			}
			return conj(a.Y)
		}
		var opts buildtags.Constraint
		var disj func(e constraint.Expr) error
		disj = func(e constraint.Expr) error {
			switch e := e.(type) {
			case *constraint.OrExpr:
				if err := disj(e.X); err != nil {
					return err
				}
				return disj(e.Y)
			case *constraint.TagExpr:
				opts = append(opts, buildtags.Opt(buildtags.Term(e.Tag)))
			case *constraint.NotExpr:
				t, ok := e.X.(*constraint.TagExpr)
				if !ok {
					return fmt.Errorf("arm64: build constraint %q: only single tags may be negated", expr)
				}
				opts = append(opts, buildtags.Opt(buildtags.Not(t.Tag)))
			default:
				return fmt.Errorf("arm64: build constraint %q: not a conjunction of disjunctions of tags", expr)
			}
			return nil
		}
		if err := disj(e); err != nil {
			return err
		}
		cs = append(cs, opts)
		return nil
	}
	if err := conj(want); err != nil {
		return nil, err
	}
	if err := cs.Validate(); err != nil {
		return nil, fmt.Errorf("arm64: build constraint %q: %w", expr, err)
	}
	// Round trip: what avo prints must mean what was asked, for every
	// assignment of the tags involved.
	text, err := buildtags.Format(cs)
	if err != nil {
		return nil, err
	}
	got, err := constraint.Parse(strings.TrimSpace(text))
	if err != nil {
		return nil, fmt.Errorf("arm64: printed constraint %q: %w", text, err)
	}
	var names []string
	var collect func(e constraint.Expr)
	collect = func(e constraint.Expr) {
		switch e := e.(type) {
		case *constraint.AndExpr:
			collect(e.X)
			collect(e.Y)
		case *constraint.OrExpr:
			collect(e.X)
			collect(e.Y)
		case *constraint.NotExpr:
			collect(e.X)
		case *constraint.TagExpr:
			names = append(names, e.Tag)
		}
	}
	collect(want)
	for mask := 0; mask < 1<<len(names); mask++ {
		on := func(tag string) bool {
			for i, n := range names {
				if n == tag {
					return mask&(1<<i) != 0
				}
			}
			return false
		}
		if want.Eval(on) != got.Eval(on) {
			return nil, fmt.Errorf("arm64: build constraint %q would print as %q, which differs", expr, strings.TrimSpace(text))
		}
	}
	return cs, nil
}

// Func is one TEXT section under construction.
type Func struct {
	name  string
	sig   *gotypes.Signature
	attrs attr.Attribute
	nodes []any // *inst, label, comment
}

type label string

type comment []string

// Func adds a function named name (without the middle dot) with the Go
// signature sig, such as "func(y *[16]byte, key *[30]uint64, p []byte)",
// which may use builtin types only. The function is NOSPLIT and has no
// local frame.
func (file *File) Func(name, sig string) (*Func, error) {
	s, err := gotypes.ParseSignature(sig)
	if err != nil {
		return nil, fmt.Errorf("arm64: signature of %s: %w", name, err)
	}
	f := &Func{name: name, sig: s, attrs: attr.NOSPLIT}
	file.sections = append(file.sections, f)
	return f, nil
}

func (f *Func) add(n any) { f.nodes = append(f.nodes, n) }

// Label places label name here. Go assembly labels are local to their TEXT.
func (f *Func) Label(name string) { f.add(label(name)) }

// Comment adds comment lines, printed on their own lines before what follows.
func (f *Func) Comment(lines ...string) { f.add(comment(lines)) }

// Arg is an argument of a function, or part of one (a slice's base or length).
type Arg struct{ c gotypes.Component }

// Arg returns the named argument of f's signature.
func (f *Func) Arg(name string) Arg { return Arg{f.sig.Params().Lookup(name)} }

// Base is the data pointer of a slice or string argument.
func (a Arg) Base() Arg { return Arg{a.c.Base()} }

// Len is the length of a slice or string argument.
func (a Arg) Len() Arg { return Arg{a.c.Len()} }

func (a Arg) asm() string {
	b, err := a.c.Resolve()
	if err != nil {
		panic("arm64: argument: " + err.Error())
	}
	return b.Addr.Asm()
}

// ISA lists the extensions f's instructions need beyond the base
// instruction set, as printed on its "Requires:" line: "ASIMD", and
// "PMULL" for the 64-bit polynomial multiply.
func (f *Func) ISA() []string {
	set := map[string]bool{}
	for _, n := range f.nodes {
		if i, ok := n.(*inst); ok && i.isa != "" {
			set[i.isa] = true
			set["ASIMD"] = true // PMULL is an extension of Advanced SIMD
		}
	}
	var isa []string
	for _, x := range []string{"ASIMD", "PMULL"} {
		if set[x] {
			isa = append(isa, x)
		}
	}
	return isa
}

// GNU returns the loop that starts at label start in GNU syntax, from
// the label down to the last branch back to it, for tools such as
// llvm-mca. It fails if the loop holds an instruction with no GNU form.
func (f *Func) GNU(start string) (string, error) {
	from, to := -1, -1
	for k, n := range f.nodes {
		switch n := n.(type) {
		case label:
			if string(n) == start {
				from = k
			}
		case *inst:
			if from >= 0 && n.branch && n.target == start {
				to = k
			}
		}
	}
	if from < 0 || to < 0 {
		return "", fmt.Errorf("arm64: %s has no loop at label %q", f.name, start)
	}
	var b strings.Builder
	for _, n := range f.nodes[from : to+1] {
		switch n := n.(type) {
		case label:
			fmt.Fprintf(&b, "%s:\n", n)
		case comment:
			for _, l := range n {
				fmt.Fprintf(&b, "\t// %s\n", l)
			}
		case *inst:
			for _, c := range n.notes {
				for _, l := range c {
					fmt.Fprintf(&b, "\t// %s\n", l)
				}
			}
			if n.gnu == "" {
				return "", fmt.Errorf("arm64: %s: %s has no GNU form", f.name, n.goText())
			}
			fmt.Fprintf(&b, "\t%s\n", n.gnu)
		}
	}
	return b.String(), nil
}

// Global is a read-only DATA section, local to the file (name<>).
type Global struct {
	name string
	data []uint64
}

// Data adds a read-only DATA section of 64-bit words named name<>.
func (file *File) Data(name string) *Global {
	g := &Global{name: name}
	file.sections = append(file.sections, g)
	return g
}

// U64 appends the words vs to g.
func (g *Global) U64(vs ...uint64) { g.data = append(g.data, vs...) }

// Size is g's size in bytes so far.
func (g *Global) Size() int { return 8 * len(g.data) }

func (g *Global) sym() string { return g.name + "<>" }

// Write prints the file as Go assembly to path, with a header naming
// argv as the command that generated it.
func (file *File) Write(path string, argv []string) error {
	b, err := file.Bytes(argv)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// Bytes returns the file as Go assembly: the header "// Code generated by
// command: <argv>. DO NOT EDIT.", the build constraint, #include
// "textflag.h", then each section; each TEXT is preceded by its Go
// signature and its "Requires:" line.
func (file *File) Bytes(argv []string) ([]byte, error) {
	out := &ir.File{Constraints: file.constraints, Includes: []string{"textflag.h"}}
	for _, s := range file.sections {
		switch s := s.(type) {
		case *Func:
			fn := ir.NewFunction(s.name)
			fn.Attributes = s.attrs
			fn.SetSignature(s.sig)
			fn.ISA = s.ISA()
			for _, n := range s.nodes {
				switch n := n.(type) {
				case label:
					fn.AddLabel(ir.Label(n))
				case comment:
					fn.AddComment(n...)
				case *inst:
					for _, c := range n.notes {
						fn.AddComment(c...)
					}
					fn.AddInstruction(n.ir())
				}
			}
			out.AddSection(fn)
		case *Global:
			g := ir.NewStaticGlobal(s.name)
			g.Attributes = attr.RODATA | attr.NOPTR
			for _, v := range s.data {
				g.Append(operand.U64(v))
			}
			out.AddSection(g)
		}
	}
	return printer.NewGoAsm(printer.Config{Argv: argv}).Print(out)
}

// text is an operand printed verbatim.
type text string

// Asm returns t as it is (avo's operand.Op).
func (t text) Asm() string { return string(t) }

func (i *inst) ir() *ir.Instruction {
	n := &ir.Instruction{Opcode: i.goOp, IsBranch: i.branch, IsConditional: i.conditional, IsTerminal: i.terminal}
	if i.isWord {
		n.Operands = []operand.Op{text(fmt.Sprintf("$0x%08x // %s", i.word, i.gnu))}
		return n
	}
	for _, a := range i.goArgs {
		n.Operands = append(n.Operands, text(a))
	}
	return n
}

// Command returns the command that reproduces this run of a generator
// started with `go run <import path>`: "go run <import path> args...".
// It names the main package by import path (from the build information),
// which works from any directory of the module, where avo's own header
// would name a file path.
func Command(args []string) []string {
	path := "<generator>"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Path != "" {
		path = bi.Path
	}
	return append([]string{"go", "run", path}, args...)
}
