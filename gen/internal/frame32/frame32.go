// Package frame32 lays out the argument frame of an assembly function as gc
// does on its 32-bit targets (arm, 386): the offsets that go vet's asmdecl
// checks, by the names it expects. avo's gotypes computes them with amd64's
// sizes, which put a slice's length at +8 of its base where a 32-bit
// target has it at +4; the typed ARM emitter and the 386 kernels written
// through avo both take their frames from here.
package frame32

import (
	"fmt"
	"go/token"
	"go/types"
)

// Frame is the argument frame of one function.
type Frame struct {
	// Offsets holds every argument component by asmdecl's name: a
	// pointer or word argument by its name (p), a slice by its parts
	// (p_base, p_len, p_cap), a string by p_base and p_len; an unnamed
	// parameter i is argi (arg for the first), an unnamed result reti
	// (ret for the first).
	Offsets map[string]int
	// Size is the argument size of the TEXT line ($frame-Size): the
	// parameters and results.
	Size int
}

// Layout lays out the Go signature sig, such as "func(h *[5]uint32, p
// []byte)", which may use builtin types only, as gc's ABI0 does on goarch
// (a GOARCH with 4-byte pointers): parameters at increasing offsets from
// 0(FP), each aligned as its type requires (4 bytes at most), then the
// results from the next multiple of the pointer size. Only 4-byte values,
// pointers, slices and strings are supported.
func Layout(goarch, sig string) (Frame, error) {
	sizes := types.SizesFor("gc", goarch)
	if sizes == nil || sizes.Sizeof(types.Typ[types.Uintptr]) != 4 {
		return Frame{}, fmt.Errorf("frame32: %s is not a 32-bit GOARCH of gc", goarch)
	}
	tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, sig)
	if err != nil {
		return Frame{}, fmt.Errorf("frame32: signature %q: %w", sig, err)
	}
	s, ok := tv.Type.(*types.Signature)
	if !ok || tv.Value != nil {
		return Frame{}, fmt.Errorf("frame32: %q is not a function type", sig)
	}
	f := Frame{Offsets: map[string]int{}}
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
				f.Offsets[name+"_base"], f.Offsets[name+"_len"], f.Offsets[name+"_cap"] = int(off), int(off)+4, int(off)+8
			case *types.Basic:
				if u.Info()&types.IsString != 0 {
					f.Offsets[name+"_base"], f.Offsets[name+"_len"] = int(off), int(off)+4
				} else if sizes.Sizeof(u) != 4 {
					return fmt.Errorf("frame32: %s: %v is not a 4-byte value; only those are supported", name, typ)
				} else {
					f.Offsets[name] = int(off)
				}
			case *types.Pointer:
				f.Offsets[name] = int(off)
			default:
				return fmt.Errorf("frame32: %s: type %v not supported", name, typ)
			}
			off += sizes.Sizeof(typ)
		}
		return nil
	}
	if err := place(s.Params(), "arg"); err != nil {
		return Frame{}, err
	}
	if s.Results().Len() > 0 {
		off = align(off, 4)
		if err := place(s.Results(), "ret"); err != nil {
			return Frame{}, err
		}
	}
	f.Size = int(off)
	return f, nil
}

func align(n, a int64) int64 { return (n + a - 1) / a * a }
