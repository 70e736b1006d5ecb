package arm32

import (
	"fmt"

	"github.com/mmcloughlin/avo/gotypes"
	"github.com/simdhash/simdhash/gen/internal/armemit"
	"github.com/simdhash/simdhash/gen/internal/frame32"
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

// Func adds a function named name (without the middle dot) with the Go
// signature sig, such as "func(y *[16]byte, key *[30]uint64, p []byte)",
// which may use builtin types only. The function is NOSPLIT and has no
// local frame unless SetFrame gives it one (of n bytes: the locals are
// then at 4(R13) .. 4+n(R13), above the saved link register at 0(R13));
// its argument offsets are those of gc on arm (frame32.Layout).
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
	fr, err := frame32.Layout("arm", sig)
	if err != nil {
		return nil, fmt.Errorf("arm32: signature of %s: %w", name, err)
	}
	return &Func{Func: armemit.NewFunc(name, s, fr.Size, isas, "b"), offsets: fr.Offsets}, nil
}

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
