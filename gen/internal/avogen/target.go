package avogen

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/printer"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/frame32"
)

// Target is the GOARCH an avo file is written for.
//
// avo knows amd64 alone, but its instructions print the same text for the
// 386 subset of the instruction set: 32-bit general registers, X0..X7,
// and the SSE and AVX instructions on them, which Go's 386 assembler takes
// in the same syntax. What avo gets wrong there is the argument frame
// (gotypes lays it out with amd64's sizes) and what it cannot see is what
// Go's 386 assembler refuses or rewrites. So a 386 file's code must lay out
// its arguments itself (frame32, which Write checks every FP operand
// against) and keep to that subset, which Write checks too, and Write
// prints the TEXT line's argument size from frame32.
type Target string

// The targets.
const (
	AMD64 Target = "amd64"
	I386  Target = "386"
)

// Write compiles ctx and writes the Go assembly for t to the file out, in
// Go package pkg, with a header naming argv as the generating command.
func (t Target) Write(ctx *build.Context, out, pkg string, argv []string) error {
	b, err := t.Print(ctx, pkg, argv)
	if err != nil {
		return err
	}
	return os.WriteFile(out, b, 0o644)
}

// Print compiles ctx and returns the Go assembly for t (see Write).
func (t Target) Print(ctx *build.Context, pkg string, argv []string) ([]byte, error) {
	f, err := ctx.Result()
	if err != nil {
		return nil, err
	}
	if err := pass.Compile.Execute(f); err != nil {
		return nil, err
	}
	var frames map[string]frame32.Frame
	switch t {
	case AMD64:
	case I386:
		if frames, err = check386(f); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("avogen: no target %q", t)
	}
	p := printer.NewGoAsm(printer.Config{Argv: argv, Pkg: pkg})
	b, err := p.Print(f)
	if err != nil {
		return nil, err
	}
	if frames != nil {
		return textSizes(b, f, frames)
	}
	return b, nil
}

// check386 checks that every function of f keeps to what Go's 386
// assembler takes as written, and returns each function's 386 frame:
//
//   - general registers AX..DI of at most 32 bits and vector registers
//     of index 0..7, also as memory bases and indexes;
//   - no 64-bit general instruction (an opcode ending in Q without a
//     vector operand);
//   - at most three operands: Go's 386 assembler takes no fourth, so an
//     instruction such as VPALIGNR must be written as bytes;
//   - a global (SB) only as LEAL's source: built with -buildmode=pie, Go's
//     386 assembler reaches every other reference through CX, which it
//     overwrites;
//   - every argument (name+off(FP)) at the offset of frame32's layout.
func check386(f *ir.File) (map[string]frame32.Frame, error) {
	frames := map[string]frame32.Frame{}
	for _, fn := range f.Functions() {
		fr, err := frame32.Layout(string(I386), "func"+fn.Signature.String())
		if err != nil {
			return nil, fmt.Errorf("avogen: %s: %w", fn.Name, err)
		}
		frames[fn.Name] = fr
		for _, in := range fn.Instructions() {
			if err := check386Inst(in, fr); err != nil {
				return nil, fmt.Errorf("avogen: %s for 386: %s: %w", fn.Name, asm(in), err)
			}
		}
	}
	return frames, nil
}

func check386Inst(in *ir.Instruction, fr frame32.Frame) error {
	if len(in.Operands) > 3 {
		return fmt.Errorf("Go's 386 assembler takes at most three operands")
	}
	vector := slices.ContainsFunc(in.Operands, func(op operand.Op) bool {
		r, ok := op.(reg.Register)
		return ok && r.Kind() == reg.KindVector
	})
	if strings.HasSuffix(in.Opcode, "Q") && !vector {
		return fmt.Errorf("a 64-bit instruction")
	}
	for _, op := range in.Operands {
		switch x := op.(type) {
		case reg.Register:
			if err := check386Reg(x); err != nil {
				return err
			}
		case operand.Mem:
			for _, r := range []reg.Register{x.Base, x.Index} {
				if r != nil && r.Kind() != reg.KindPseudo {
					if err := check386Reg(r); err != nil {
						return err
					}
				}
			}
			switch x.Base {
			case reg.StaticBase:
				if in.Opcode != "LEAL" {
					return fmt.Errorf("a global outside LEAL: under -buildmode=pie Go's 386 assembler loads its address into CX")
				}
			case reg.FramePointer:
				if off, ok := fr.Offsets[x.Symbol.Name]; !ok || off != x.Disp {
					return fmt.Errorf("argument %s+%d(FP), but 386's frame has it at %d (present: %v)", x.Symbol.Name, x.Disp, off, ok)
				}
			}
		}
	}
	return nil
}

func check386Reg(r reg.Register) error {
	p := reg.ToPhysical(r)
	if p == nil {
		return fmt.Errorf("register %s is not physical", r.Asm())
	}
	switch {
	case r.Kind() == reg.KindGP && p.PhysicalIndex() < 8 && r.Size() <= 4:
	case r.Kind() == reg.KindVector && p.PhysicalIndex() < 8:
	default:
		return fmt.Errorf("register %s does not exist on 386", r.Asm())
	}
	return nil
}

func asm(in *ir.Instruction) string {
	var ops []string
	for _, op := range in.Operands {
		ops = append(ops, op.Asm())
	}
	return in.OpcodeWithSuffixes() + " " + strings.Join(ops, ", ")
}

// textSizes rewrites the argument size of each TEXT line in b, which avo
// printed for amd64 ($frame-size), to that of the function's 386 frame.
func textSizes(b []byte, f *ir.File, frames map[string]frame32.Frame) ([]byte, error) {
	lines := strings.SplitAfter(string(b), "\n")
	for _, fn := range f.Functions() {
		prefix := "TEXT \u00b7" + fn.Name + "(SB)"
		size := func(args int) string { // $frame-args, or $frame without arguments
			if args > 0 {
				return fmt.Sprintf("$%d-%d", fn.FrameBytes(), args)
			}
			return fmt.Sprintf("$%d", fn.FrameBytes())
		}
		amd64, want := size(fn.ArgumentBytes()), size(frames[fn.Name].Size)
		found := 0
		for i, l := range lines {
			if strings.HasPrefix(l, prefix) && strings.HasSuffix(l, ", "+amd64+"\n") {
				lines[i] = strings.TrimSuffix(l, amd64+"\n") + want + "\n"
				found++
			}
		}
		if found != 1 {
			return nil, fmt.Errorf("avogen: %d TEXT lines of %s ending in %s, want one", found, fn.Name, amd64)
		}
	}
	return []byte(strings.Join(lines, "")), nil
}
