// Package avogen runs an avo build context through avo's compiler passes and
// prints the result as a Go assembly file whose header names the exact
// command that regenerates it.
//
// avo's own build.Generate names the generator by its main file ("go run
// main.go ..."), which is not a command anyone can rerun from the package
// directory. Our generators are run by go generate in the package that owns
// the output, as `go -C ../gen run ./<generator> -out ...`, and the header
// says exactly that (gencmd.Command).
//
// A file is written for amd64 or, with the checks and the argument frame
// that avo lacks there, for 386 (Target).
package avogen

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"unsafe"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/gotypes"
	"github.com/mmcloughlin/avo/operand"
	"github.com/simdhash/simdhash/gen/internal/gencmd"
)

// Table adds to ctx the read-only table name of the words, each of its
// type's size, and returns it.
func Table[W uint32 | uint64](ctx *build.Context, name string, words []W) operand.Mem {
	m := ctx.StaticGlobal(name)
	ctx.DataAttributes(attr.RODATA | attr.NOPTR)
	for i, w := range words {
		var datum operand.Constant = operand.U32(w)
		if _, wide := any(w).(uint64); wide {
			datum = operand.U64(w)
		}
		ctx.AddDatum(i*int(unsafe.Sizeof(w)), datum)
	}
	return m
}

// Addr is the memory of the argument or result c (as Context.Param,
// Return and ReturnIndex name it); a c that resolves to nothing is the
// generator's bug, and panics.
func Addr(c gotypes.Component) operand.Mem {
	b, err := c.Resolve()
	if err != nil {
		panic("avogen: " + err.Error())
	}
	return b.Addr
}

// Fatal prints err prefixed by the generator's name and exits with status 1.
func Fatal(name string, err error) {
	msg := err.Error()
	if !strings.HasPrefix(msg, name) {
		msg = name + ": " + msg
	}
	fmt.Fprintln(os.Stderr, msg)
	os.Exit(1)
}

// Main is the main function of an amd64 generator named name: it parses
// -out (required) and -pkg (default defaultPkg) and whatever flags adds to
// the flag set, lets describe fill an avo context built for
// "amd64 && !purego", and writes it to -out with a header naming the exact
// command. It exits non-zero with a one-line reason on any error (a knob
// describe rejects, a missing -out); -help lists the flags. The target
// package is not loaded: TEXT signatures are given as expressions, so a
// package that does not compile can still be regenerated.
func Main(name, defaultPkg string, addFlags func(*flag.FlagSet), describe func(*build.Context) error) {
	MainFor(name, defaultPkg, []Target{AMD64}, addFlags, func(ctx *build.Context, _ Target) error { return describe(ctx) })
}

// MainFor is Main for a generator of the targets listed (the first is the
// default): with more than one, -arch chooses, and describe is told which;
// the context is built for "<GOARCH> && !purego" and written as that
// target's file (Target.Write).
func MainFor(name, defaultPkg string, targets []Target, addFlags func(*flag.FlagSet), describe func(*build.Context, Target) error) {
	if len(targets) == 0 {
		panic("avogen: MainFor of " + name + " without a target")
	}
	fs := flag.NewFlagSet(name, flag.ExitOnError)
	out := fs.String("out", "", "write the Go assembly to `file` (required)")
	pkg := fs.String("pkg", defaultPkg, "Go package of the output")
	target := targetFlag{targets[0], targets}
	if len(targets) > 1 {
		fs.Var(&target, "arch", "the `GOARCH` to generate for: "+target.choices())
	}
	if addFlags != nil {
		addFlags(fs)
	}
	fs.Parse(os.Args[1:])
	if fs.NArg() != 0 {
		Fatal(name, fmt.Errorf("unexpected arguments %q (see -help)", fs.Args()))
	}
	// Describe before checking -out, so that a bad knob is reported even
	// when -out is missing too.
	ctx := build.NewContext()
	ctx.ConstraintExpr(string(target.t) + ",!purego")
	if err := describe(ctx, target.t); err != nil {
		Fatal(name, err)
	}
	if *out == "" {
		Fatal(name, fmt.Errorf("-out is required: the .s file to write (see -help)"))
	}
	if err := target.t.Write(ctx, *out, *pkg, gencmd.Command(os.Args[1:])); err != nil {
		Fatal(name, err)
	}
}

// targetFlag is -arch: one of the generator's targets.
type targetFlag struct {
	t       Target
	targets []Target
}

func (f *targetFlag) String() string { return string(f.t) }

func (f *targetFlag) Set(s string) error {
	if t := Target(s); slices.Contains(f.targets, t) {
		f.t = t
		return nil
	}
	return fmt.Errorf("%q is not supported: use %s", s, f.choices())
}

func (f *targetFlag) choices() string {
	var names []string
	for _, t := range f.targets {
		names = append(names, string(t))
	}
	return strings.Join(names, " or ")
}
