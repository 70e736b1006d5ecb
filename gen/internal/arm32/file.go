package arm32

import (
	"fmt"
	"go/token"
	"go/types"

	"github.com/mmcloughlin/avo/gotypes"
	"github.com/simdhash/simdhash/gen/internal/armemit"
)

// File is one generated assembly file: TEXT and DATA sections under one
// header and build constraint (see package armemit for the layout).
type File struct{ *armemit.File }

// NewFile starts a file whose build constraint is expr, in //go:build
// syntax ("arm && !purego"); see armemit.NewFile.
func NewFile(expr string) (*File, error) {
	f, err := armemit.NewFile(expr)
	if err != nil {
		return nil, err
	}
	return &File{f}, nil
}

// Global is a read-only DATA section, local to the file.
type Global = armemit.Global

// Func is one TEXT section under construction. Its methods append
// instructions; the embedded armemit.Func adds labels, comments, Schedule
// and GNU.
type Func struct {
	*armemit.Func
	offsets map[string]int // argument components by asmdecl's names
}

// isas is the order of the "Requires:" line: NEON (Advanced SIMD), then
// PMULL for VMULL.P64 and SHA1 for the SHA-1 instructions (both of the
// ARMv8 Crypto Extensions), which imply NEON. The names are those of
// golang.org/x/sys/cpu's ARM.HasNEON, ARM.HasPMULL and ARM.HasSHA1.
var isas = []string{"NEON", "PMULL", "SHA1"}

// sizes is the layout of gc on 32-bit ARM.
var sizes = types.SizesFor("gc", "arm")

// Func adds a function named name (without the middle dot) with the Go
// signature sig, such as "func(y *[16]byte, key *[30]uint64, p []byte)",
// which may use builtin types only. The function is NOSPLIT and has no
// local frame unless SetFrame gives it one (of n bytes: the locals are
// then at 4(R13) .. 4+n(R13), above the saved link register at 0(R13));
// its argument offsets are those of gc on arm.
func (file *File) Func(name, sig string) (*Func, error) {
	f, err := newFunc(name, sig)
	if err != nil {
		return nil, err
	}
	file.Add(f.Func)
	return f, nil
}

func newFunc(name, sig string) (*Func, error) {
	s, err := gotypes.ParseSignature(sig) // for the signature comment only
	if err != nil {
		return nil, fmt.Errorf("arm32: signature of %s: %w", name, err)
	}
	tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, sig)
	if err != nil {
		return nil, fmt.Errorf("arm32: signature of %s: %w", name, err)
	}
	args, size, err := frame(tv.Type.(*types.Signature))
	if err != nil {
		return nil, fmt.Errorf("arm32: signature of %s: %w", name, err)
	}
	return &Func{Func: armemit.NewFunc(name, s, size, isas), offsets: args}, nil
}

// frame lays out the arguments and results of sig as gc's ABI0 does on
// arm: parameters at increasing offsets from 0(FP), each aligned as the
// type requires (4 bytes at most on arm), then the results from the next
// multiple of the pointer size. It returns every component by the name
// go vet's asmdecl expects (p, or p_base, p_len and p_cap for a slice)
// and the total size.
func frame(sig *types.Signature) (map[string]int, int, error) {
	args := map[string]int{}
	off := int64(0)
	place := func(t *types.Tuple, deflt string) error {
		for i := 0; i < t.Len(); i++ {
			v := t.At(i)
			name := v.Name()
			if name == "" || name == "_" {
				name = fmt.Sprintf("%s%d", deflt, i)
				if i == 0 {
					name = deflt
				}
			}
			typ := v.Type()
			off = align(off, sizes.Alignof(typ))
			switch u := typ.Underlying().(type) {
			case *types.Slice:
				args[name+"_base"], args[name+"_len"], args[name+"_cap"] = int(off), int(off)+4, int(off)+8
			case *types.Basic:
				if u.Info()&types.IsString != 0 {
					args[name+"_base"], args[name+"_len"] = int(off), int(off)+4
				} else if sizes.Sizeof(u) != 4 {
					return fmt.Errorf("%s: %v is not a 4-byte value; only those are supported", name, typ)
				} else {
					args[name] = int(off)
				}
			case *types.Pointer:
				args[name] = int(off)
			default:
				return fmt.Errorf("%s: type %v not supported", name, typ)
			}
			off += sizes.Sizeof(typ)
		}
		return nil
	}
	if err := place(sig.Params(), "arg"); err != nil {
		return nil, 0, err
	}
	if sig.Results().Len() > 0 {
		off = align(off, 4)
		if err := place(sig.Results(), "ret"); err != nil {
			return nil, 0, err
		}
	}
	return args, int(off), nil
}

func align(n, a int64) int64 { return (n + a - 1) / a * a }

// Arg is an argument of a function, or part of one (a slice's base or
// length).
type Arg struct {
	f    *Func
	name string
}

// Arg returns the named argument of f's signature (for a slice or string,
// take its Base or Len). It panics if there is none.
func (f *Func) Arg(name string) Arg {
	_, whole := f.offsets[name]
	_, parts := f.offsets[name+"_base"]
	if !whole && !parts {
		panic(fmt.Sprintf("arm32: %s has no argument %q", f.Name(), name))
	}
	return Arg{f, name}
}

// Base is the data pointer of a slice or string argument.
func (a Arg) Base() Arg { return Arg{a.f, a.name + "_base"} }

// Len is the length of a slice or string argument.
func (a Arg) Len() Arg { return Arg{a.f, a.name + "_len"} }

// Cap is the capacity of a slice argument.
func (a Arg) Cap() Arg { return Arg{a.f, a.name + "_cap"} }

// asm returns a's operand, such as "p_len+12(FP)".
func (a Arg) asm() string {
	off, ok := a.f.offsets[a.name]
	if !ok {
		panic(fmt.Sprintf("arm32: %s: no argument component %q (a slice or string needs Base or Len)", a.f.Name(), a.name))
	}
	return fmt.Sprintf("%s+%d(FP)", a.name, off)
}
