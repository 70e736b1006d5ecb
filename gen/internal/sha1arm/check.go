package sha1arm

import (
	"flag"
	"fmt"

	. "github.com/simdhash/simdhash/gen/internal/arm64"
	"github.com/simdhash/simdhash/gen/internal/armemit"
	"github.com/simdhash/simdhash/gen/internal/knob"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
	"github.com/simdhash/simdhash/gen/internal/ubcvec"
)

// The UBC check of SHA-1 collision detection on NEON (arm64), for the
// checking kernels of package sha1dc: the neon kernel here (the Checked
// contract of gen/internal/sha1sched) and the SHA1-instruction kernel of
// gen/internal/sha1ce, which share this lowering of gen/internal/ubcvec's
// plan.

// CheckA64 lowers the plan's operations to NEON on arm64, with group g's
// words (natural lane order) in Group(g).
//
// Item i of the plan works in register set Sets[i%len(Sets)] and ORs into
// accumulator Accs[i%len(Accs)], so that consecutive items are
// independent: an in-order core (the Cortex-A53 and A55, for which the
// kernels are scheduled) can then interleave them, where one set would
// chain every item to the last. The first Kill of a block sets its
// accumulator and zeroes the others; the Reduce ORs them into Accs[0].
type CheckA64 struct {
	F     *Func
	Sets  []CheckSet
	Accs  []VReg
	Base  Reg // the table's address (LoadTable)
	Group func(g int) VReg
	tab   *armemit.Global
	off   map[[4]uint32]int
}

// A CheckSet is the registers of an item: the plan's temporaries, and D
// for a Kill's constant, loaded from the table.
type CheckSet struct {
	T [ubcvec.Temps]VReg
	D VReg
}

// CheckTable adds to file the DATA symbol name holding the constants of
// the plan's Kills (16 bytes each, once each) and returns a CheckA64 that
// reads them.
func CheckTable(file *armemit.File, name string) *CheckA64 {
	c := &CheckA64{tab: file.Data(name), off: map[[4]uint32]int{}}
	for _, op := range ubcvec.Ops() {
		if op.Kind != ubcvec.Kill {
			continue
		}
		if _, ok := c.off[op.D]; ok {
			continue
		}
		c.off[op.D] = 16 * len(c.off)
		c.tab.U64(uint64(op.D[0])|uint64(op.D[1])<<32, uint64(op.D[2])|uint64(op.D[3])<<32)
	}
	return c
}

// LoadTable loads the table's address into Base, once before the check.
func (c *CheckA64) LoadTable() { c.F.LoadAddr(c.tab, c.Base) }

func (c *CheckA64) reg(r ubcvec.Reg, item int) VReg {
	switch r.Kind {
	case ubcvec.Temp:
		return c.set(item).T[r.N]
	case ubcvec.Acc:
		return c.acc(item)
	}
	return c.Group(r.N)
}

func (c *CheckA64) set(item int) CheckSet { return c.Sets[max(item, 0)%len(c.Sets)] }
func (c *CheckA64) acc(item int) VReg     { return c.Accs[max(item, 0)%len(c.Accs)] }

// Op emits check operation op.
func (c *CheckA64) Op(op ubcvec.Op) {
	f := c.F
	d, a := c.reg(op.Dst, op.Item), c.reg(op.A, op.Item)
	switch op.Kind {
	case ubcvec.Align:
		s := op.Start
		f.VEXT(4*(s%4), c.Group(s/4+1).B16(), c.Group(s/4).B16(), d.B16())
	case ubcvec.Shl:
		f.VSHL(op.N, a.S4(), d.S4())
	case ubcvec.Shr:
		f.VUSHR(op.N, a.S4(), d.S4())
	case ubcvec.Xor:
		f.VEOR(c.reg(op.B, op.Item).B16(), a.B16(), d.B16())
	case ubcvec.Kill:
		k, acc := c.set(op.Item).D, c.acc(op.Item)
		f.VSSHR(31, a.S4(), a.S4())
		f.LDRQ(c.Base.At(c.off[op.D]), k)
		dst := a
		if op.First {
			dst = acc
			for _, o := range c.Accs {
				if o != acc {
					f.VMOVI(0, o.B16())
				}
			}
		}
		if op.Not {
			f.VBIC(a.B16(), k.B16(), dst.B16()) // D &^ sign
		} else {
			f.VAND(k.B16(), a.B16(), dst.B16())
		}
		if !op.First {
			f.VORR(a.B16(), acc.B16(), acc.B16())
		}
	case ubcvec.Reduce:
		acc := c.Accs[0]
		for _, o := range c.Accs[1:] {
			f.VORR(o.B16(), acc.B16(), acc.B16())
		}
		d := c.Sets[0].T[0]
		f.VEXT(8, acc.B16(), acc.B16(), d.B16())
		f.VORR(d.B16(), acc.B16(), acc.B16())
		f.VEXT(4, acc.B16(), acc.B16(), d.B16())
		f.VORR(d.B16(), acc.B16(), acc.B16())
	default:
		panic(fmt.Sprintf("sha1arm: no lowering of check operation %v", op))
	}
}

// Exit tests the mask of the block just done, after Reduce: into r the
// complement of the accumulator's lanes 0 and 1 (equal after Reduce),
// the mask twice, and a jump to label if a DV survives, leaving the flags
// as they were (the kernels' loops test flags set before).
func (c *CheckA64) Exit(r Reg, label string) {
	c.F.FMOVX(c.Accs[0], 0, r)
	c.F.MVN(r, r)
	c.F.CBNZ(r, label)
}

// ExitMask stores the mask of Exit's register r as the function's result
// "mask".
func (c *CheckA64) ExitMask(r Reg) { c.F.StoreArgW(r, c.F.Result("mask")) }

// The neon kernel's check, in the registers the regPlan of ARM64 leaves
// free (with the W+K ring in V25..V28): three sets, V8..V10, V11..V13 and
// V14, V15, V19, and the accumulators V29..V31; R17 the constants'
// address and R19 the mask at the end of a block (the ring's address
// registers, unused with -loads fmov).
var (
	checkSets = []CheckSet{{T: [2]VReg{8, 9}, D: 10}, {T: [2]VReg{11, 12}, D: 13}, {T: [2]VReg{14, 15}, D: 19}}
	checkAccs = []VReg{29, 30, 31}
)

const checkBase, checkMask = 17, 19

// Check lowers a check operation (sha1sched.CheckBackend).
func (b *backend) Check(op ubcvec.Op) []step {
	return []step{func() { b.check.Op(op) }}
}

// checkExit ends the kernel before the block just hashed if its mask is
// not zero (at NextBlock and Finish, before h is updated).
func (b *backend) checkExit() {
	if b.check == nil {
		return
	}
	b.Comment("Stop before this block, not absorbing it, if a DV survives its check.")
	b.check.Exit(Reg(checkMask), "flagged")
}

// flaggedExit is where checkExit jumps: h (in its registers, not yet
// updated) stored as it was before the block, the blocks absorbed (the
// block pointer, advanced past the flagged block, less p's start, in
// blocks, less one), and the mask.
func (b *backend) flaggedExit() {
	if b.check == nil {
		return
	}
	f, r := b.check.F, &b.regs
	b.m.label("flagged")
	b.Comment("h as before the flagged block, the blocks before it, and its mask.")
	for i := range 5 {
		b.m.store(r.h[i], r.hp, 4*i)
	}
	n := Reg(checkBase)
	f.LoadArg(f.Arg("p").Base(), n)
	f.SUBReg(n, Reg(r.ptr), n)
	f.ORRW(n.LSR(6), ZR, n)
	f.SUB(1, n, n)
	f.StoreArgW(n, f.Result("n"))
	b.check.ExitMask(Reg(checkMask))
	b.m.ret()
}

// checkDone stores, at the end of a kernel that absorbed every block, the
// number of blocks: len(p)/64.
func (b *backend) checkDone() {
	if b.check == nil {
		return
	}
	f, n := b.check.F, Reg(checkBase)
	f.LoadArg(f.Arg("p").Len(), n)
	f.ORRW(n.LSR(6), ZR, n)
	f.StoreArgW(n, f.Result("n"))
}

// checkBegin sets the results to zero (an input without a whole block
// returns them so) and loads the constants' address; Begin calls it
// before the test for a whole block.
func (b *backend) checkBegin() {
	if b.check == nil {
		return
	}
	f := b.check.F
	f.StoreArgW(ZR, f.Result("n"))
	f.StoreArgW(ZR, f.Result("mask"))
	b.check.LoadTable()
}

// GenerateChecked is Generate for the checking kernel of package sha1dc
// (arm64 only): the Checked contract, which stops before the first block
// whose UBC mask is not zero, with the W+K ring in vector registers.
func (a Arch) GenerateChecked(p Params, name, constraint string) (*armemit.File, string, error) {
	if a != ARM64 {
		return nil, "", fmt.Errorf("sha1arm: the checking kernel is for arm64, not %s", a)
	}
	if p.Loads != LoadsFmov {
		return nil, "", fmt.Errorf("sha1arm: the checking kernel keeps the W+K ring in vector registers (-loads fmov): the check takes the ring's address registers")
	}
	return a.generate(p, name, constraint, sha1sched.Contract{Result: sha1sched.Checked})
}

// Command is the command line of the generator gen/sha1_neon, or with
// checked of gen/sha1dc_neon (the checking kernel checkNEON, arm64 only).
func Command(checked bool) armemit.Generator {
	arch := ARM64
	var p Params
	name, fn, archs := "sha1_neon", Function, "the target: arm64 or arm (32-bit, NEON as WORDs)"
	if checked {
		name, fn, archs = "sha1dc_neon", "checkNEON", "the target: arm64 (the only one with a checking kernel)"
	}
	return armemit.Generator{
		Name:      name,
		Arch:      &arch,
		ArchUsage: archs,
		GNUUsage:  "write the block loop in GNU syntax to `file` (for llvm-mca)",
		GNUAbout:  "The block loop of " + fn + " in GNU syntax (for llvm-mca):",
		Flags: func(fs *flag.FlagSet) {
			p = arch.Defaults()
			knob.Register(fs, arch.Knobs(&p)...)
		},
		Generate: func() (*armemit.File, string, error) {
			constraint := arch.String() + " && !purego"
			file, loop, err := arch.Generate(p, "", constraint)
			if checked {
				file, loop, err = arch.GenerateChecked(p, fn, constraint)
			}
			return file, "// blocks 1\n" + loop, err
		},
	}
}
