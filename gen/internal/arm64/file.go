package arm64

import (
	"fmt"

	"github.com/mmcloughlin/avo/gotypes"
	"github.com/simdhash/simdhash/gen/internal/armemit"
)

// File is one generated assembly file: TEXT and DATA sections under one
// header and build constraint (see package armemit for the layout).
type File struct{ *armemit.File }

// NewFile starts a file whose build constraint is expr, in //go:build
// syntax ("arm64 && !purego"); see armemit.NewFile.
func NewFile(expr string) (*File, error) {
	f, err := armemit.NewFile(expr)
	if err != nil {
		return nil, err
	}
	return &File{f}, nil
}

// Global is a read-only DATA section, local to the file.
type Global = armemit.Global

// Func is one arm64 TEXT section under construction. Its methods append
// instructions; the embedded armemit.Func adds labels, comments, Schedule
// and GNU.
type Func struct {
	*armemit.Func
	sig *gotypes.Signature
}

// isas is the order of the "Requires:" line; PMULL and SHA1 (the SHA-1
// instructions) imply ASIMD. The names are those of golang.org/x/sys/cpu's
// ARM64.HasASIMD, HasPMULL and HasSHA1.
var isas = []string{"ASIMD", "PMULL", "SHA1"}

// Func adds a function named name (without the middle dot) with the Go
// signature sig, such as "func(y *[16]byte, key *[30]uint64, p []byte)",
// which may use builtin types only. The function is NOSPLIT and has no
// local frame unless SetFrame gives it one (of n bytes: the locals are
// then at 8(RSP) .. 8+n(RSP), above the saved link register at 0(RSP)).
func (file *File) Func(name, sig string) (*Func, error) {
	s, err := gotypes.ParseSignature(sig)
	if err != nil {
		return nil, fmt.Errorf("arm64: signature of %s: %w", name, err)
	}
	f := &Func{Func: armemit.NewFunc(name, s, s.Bytes(), isas, "b."), sig: s}
	file.Add(f.Func)
	return f, nil
}

// newFunc returns a function outside any file, for tests.
func newFunc() *Func {
	return &Func{Func: armemit.NewFunc("test", gotypes.NewSignatureVoid(), 0, isas, "b."), sig: gotypes.NewSignatureVoid()}
}

// Arg is an argument of a function, or part of one (a slice's base or length).
type Arg struct{ c gotypes.Component }

// Arg returns the named argument of f's signature. avo's gotypes computes
// the offsets with amd64 sizes, which are arm64's too.
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
