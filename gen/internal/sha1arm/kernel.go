package sha1arm

import (
	"fmt"

	"github.com/simdhash/simdhash/gen/internal/arm32"
	"github.com/simdhash/simdhash/gen/internal/arm64"
	. "github.com/simdhash/simdhash/gen/internal/arm64"
	"github.com/simdhash/simdhash/gen/internal/armemit"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// Name is the kernel's name, as sha1.Kernel reports it.
const Name = "neon"

// Function is the name of the block function in the checked-in files.
const Function = "blockNEON"

// Generate describes the kernel with p as the function name (Function if
// empty) in a new file with build constraint constraint, and returns the
// file and the function's block loop in GNU syntax (for llvm-mca).
func (a Arch) Generate(p Params, name, constraint string) (*armemit.File, string, error) {
	if name == "" {
		name = Function
	}
	return a.generate(p, name, constraint, sha1sched.Contract{})
}

// generate is Generate with contract c: plain, or Checked (check.go).
func (a Arch) generate(p Params, name, constraint string, c sha1sched.Contract) (*armemit.File, string, error) {
	if err := a.Validate(p); err != nil {
		return nil, "", err
	}
	b := &backend{arch: a, p: p, regs: a.regPlan()}
	file, err := armemit.NewFile(constraint)
	if err != nil {
		return nil, "", err
	}
	k := KTable(file, "sha1NEONK")
	switch a {
	case ARM64:
		f := &arm64.File{File: file}
		var chk *CheckA64
		if c.Result == sha1sched.Checked {
			chk = CheckTable(file, "ubcD")
		}
		b.newMachine = func(name string) machine {
			fn := armemit.Must(f.Func(name, c.Signature()))
			fn.SetFrame(a64Frame)
			if chk != nil {
				chk.F, chk.Base = fn, Reg(checkBase)
				chk.Sets, chk.Accs = checkSets, checkAccs
				chk.Group = func(g int) VReg { return VReg(b.regs.w[sha1sched.Window(g).WindowIndex()]) }
				b.check = chk
			}
			return &a64{f: fn, ktab: k, slots: [4]greg(b.regs.ring)}
		}
	case ARM:
		f := &arm32.File{File: file}
		b.newMachine = func(name string) machine {
			fn := armemit.Must(f.Func(name, sha1sched.Contract{}.Signature()))
			fn.SetFrame(a32Frame)
			return &a32{f: fn, ktab: k}
		}
	default:
		return nil, "", fmt.Errorf("sha1arm: no architecture %d", a)
	}
	if err := sha1sched.Generate(b, p.Schedule, name, c); err != nil {
		return nil, "", err
	}
	if p.Order != OrderDescription {
		b.m.schedule(p.Order)
	}
	loop, err := b.m.gnu("loop")
	if err != nil {
		return nil, "", err
	}
	return file, loop, nil
}

// KTable adds to file the DATA symbol name holding the round constants:
// K of rounds 20i..20i+19 in each 32-bit word of the 16-byte row i.
func KTable(file *armemit.File, name string) *armemit.Global {
	t := file.Data(name)
	k := sha1sched.KTable(4)
	for i := 0; i < len(k); i += 4 {
		t.U64(uint64(k[i])|uint64(k[i+1])<<32, uint64(k[i+2])|uint64(k[i+3])<<32)
	}
	return t
}

// regPlan returns the registers of the architecture's kernel.
func (a Arch) regPlan() regPlan {
	if a == ARM64 {
		// R0..R25 but R18; V0..V31, all caller-saved in Go's ABI.
		return regPlan{
			hp: 0, ptr: 1, end: 2,
			v:     [5]greg{3, 4, 5, 6, 7},
			h:     []greg{8, 9, 10, 11, 12},
			temps: [][2]greg{{13, 14}, {15, 16}},
			ring:  []greg{17, 19, 24, 25},
			wk:    [][2]greg{{20, 21}, {22, 23}},
			wkv:   [4]vreg{25, 26, 27, 28},
			w:     [8]vreg{0, 1, 2, 3, 4, 5, 6, 7},
			t0:    []vreg{16, 17},
			t1:    18,
			k:     [4]vreg{20, 21, 22, 23},
			zero:  24,
		}
	}
	// R0..R8, R12 and R14 (free in a function with a frame); Q0..Q15.
	// h stays in memory.
	return regPlan{
		ptr: 8, end: 12,
		v:     [5]greg{0, 1, 2, 3, 4},
		temps: [][2]greg{{5, 6}},
		wk:    [][2]greg{{7, -1}, {14, -1}},
		w:     [8]vreg{0, 1, 2, 3, 4, 5, 6, 7},
		t0:    []vreg{8, 15},
		t1:    9,
		zero:  10,
		k:     [4]vreg{11, 12, 13, 14},
	}
}
