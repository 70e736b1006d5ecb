// Package avogen runs an avo build context through avo's compiler passes and
// prints the result as a Go assembly file whose header names the exact
// command that regenerates it.
//
// avo's own build.Generate names the generator by its main file ("go run
// main.go ..."), which is not a command anyone can rerun from the package
// directory. Our generators are run by go generate in the package that owns
// the output, as `go -C ../gen run ./<generator> -out ...`, and the header
// says exactly that (gencmd.Command).
package avogen

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"unsafe"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/printer"
	"github.com/simdhash/simdhash/gen/internal/gencmd"
)

// Write compiles ctx and writes the Go assembly to the file out, in Go
// package pkg, with a header naming argv as the generating command.
func Write(ctx *build.Context, out, pkg string, argv []string) error {
	f, err := ctx.Result()
	if err != nil {
		return err
	}
	if err := pass.Compile.Execute(f); err != nil {
		return err
	}
	p := printer.NewGoAsm(printer.Config{Argv: argv, Pkg: pkg})
	b, err := p.Print(f)
	if err != nil {
		return err
	}
	return os.WriteFile(out, b, 0o644)
}

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
	fs := flag.NewFlagSet(name, flag.ExitOnError)
	out := fs.String("out", "", "write the Go assembly to `file` (required)")
	pkg := fs.String("pkg", defaultPkg, "Go package of the output")
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
	ctx.ConstraintExpr("amd64,!purego")
	if err := describe(ctx); err != nil {
		Fatal(name, err)
	}
	if *out == "" {
		Fatal(name, fmt.Errorf("-out is required: the .s file to write (see -help)"))
	}
	if err := Write(ctx, *out, *pkg, gencmd.Command(os.Args[1:])); err != nil {
		Fatal(name, err)
	}
}
