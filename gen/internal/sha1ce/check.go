package sha1ce

import (
	"fmt"

	"github.com/simdhash/simdhash/gen/internal/arm64"
	"github.com/simdhash/simdhash/gen/internal/armemit"
	"github.com/simdhash/simdhash/gen/internal/knob"
	"github.com/simdhash/simdhash/gen/internal/sha1arm"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
	"github.com/simdhash/simdhash/gen/internal/ubcvec"
)

// The checking kernel of package sha1dc (arm64, one stream): the kernel
// with the UBC check of gen/internal/ubcvec beside the SHA1 instructions,
// lowered by sha1arm.CheckA64, which stops before the first block whose
// mask is not zero (sha1sched.Checked).
//
// A group's words are in the window only for the four groups from the
// one that computes them, too short for the terms, which reach eight
// words back; and the SHA1 instructions use 15 of the 32 registers. So
// each of the groups the terms read, M_8..M_16, is copied as it is
// computed (in group j-4, for M_j) into a register of its own, V15..V23,
// where the check's operations, dealt over the groups from the one that
// copies their last group on, find it; V24..V31 are the check's. Before the block's result is
// added to the state, the mask is tested: a block whose mask is not zero
// leaves h as it was (the state before the block is still in hABCD and
// hE), and the kernel returns the blocks before it and the mask.

// The check's registers: M_j in V(15+j-8), then two sets of the
// check's registers (sha1arm.CheckA64) and two accumulators.
const checkCopies = 15

var (
	checkSets = []sha1arm.CheckSet{{T: [2]arm64.VReg{24, 25}, D: 26}, {T: [2]arm64.VReg{27, 28}, D: 29}}
	checkAccs = []arm64.VReg{30, 31}
)

// The check's general registers: the constants' address and the mask.
const (
	checkBase = arm64.R8
	checkMask = arm64.R9
)

// checkGroups are the groups the terms read.
const checkLo, checkHi = 8, 16

// checkMachine is the a64 machine with the check: block calls afterGroup
// after each group, and kernel calls exitIfFlagged before each block's
// result is added.
type checkMachine struct {
	*a64
	chk   *sha1arm.CheckA64
	dealt [][]ubcvec.Op
}

func (m *checkMachine) afterGroup(g int) {
	if j := g + 4; checkLo <= j && j <= checkHi {
		m.f.VMOV(v64(window(j)).B16(), arm64.V(checkCopies+j-checkLo).B16())
	}
	for r := 4 * g; r < 4*g+4; r++ {
		for _, op := range m.dealt[r] {
			m.chk.Op(op)
		}
	}
}

func (m *checkMachine) exitIfFlagged() {
	m.comment("Stop before this block, not absorbing it, if a DV survives its check.")
	m.chk.Exit(checkMask, "flagged")
}

// flagged is where exitIfFlagged jumps: h as it was, the blocks before
// the flagged one (the whole blocks' bytes less those not yet counted,
// which counted the flagged block, in blocks, less one), and the mask.
func (m *checkMachine) flagged() {
	f := m.f
	m.label("flagged")
	m.comment("h as before the flagged block, the blocks before it, and its mask.")
	m.storeState(0, hABCD, hE)
	f.LoadArg(f.Arg("p").Len(), checkBase)
	f.ANDMask(^uint64(63), checkBase, checkBase)
	f.SUBReg(a64N, checkBase, checkBase)
	f.ORRW(checkBase.LSR(6), arm64.ZR, checkBase)
	f.SUB(1, checkBase, checkBase)
	f.StoreArgW(checkBase, f.Result("n"))
	m.chk.ExitMask(checkMask)
	f.RET()
}

// dealCheck places the check's operations over the rounds: group j is
// copied in group j-4, and the copies last the block.
func dealCheck() ([][]ubcvec.Op, error) {
	items, reduce := ubcvec.Plan()
	live := ubcvec.Liveness{
		Ready: func(g int) int { return 4*(g-4) + 3 },
		Live:  func(int) int { return 79 },
	}
	return ubcvec.Deal(items, reduce, live, live.Ready(checkLo+1), 79, 80)
}

// CheckedName is the checking kernel's function in package sha1dc.
const CheckedName = "checkCE"

// GenerateChecked builds the file of the checking kernel checkCE for o
// (arm64, one stream) and returns it with the block loop in GNU syntax:
// Generate with o.Checked.
func GenerateChecked(o Options) (*armemit.File, string, error) {
	if err := o.check(); err != nil {
		return nil, "", err
	}
	if o.arch != sha1arm.ARM64 || o.Streams != 1 {
		return nil, "", fmt.Errorf("sha1ce: the checking kernel is for one stream on arm64")
	}
	if need := registers(int(o.ahead), 1); need > checkCopies {
		return nil, "", fmt.Errorf("-ahead %d needs %d vector registers: the check's copies start at V%d", o.ahead, need, checkCopies)
	}
	dealt, err := dealCheck()
	if err != nil {
		return nil, "", fmt.Errorf("sha1ce: %w", err)
	}
	c := sha1sched.Contract{Result: sha1sched.Checked}
	f := armemit.Must(arm64.NewFile(o.arch.String() + " && !purego"))
	k := sha1arm.KTable(f.File, "sha1CEConstants")
	chk := sha1arm.CheckTable(f.File, "ubcD")
	af := armemit.Must(f.Func(CheckedName, c.Signature()))
	chk.F, chk.Base = af, checkBase
	chk.Sets, chk.Accs = checkSets, checkAccs
	chk.Group = func(g int) arm64.VReg { return arm64.V(checkCopies + g - checkLo) }
	m := &checkMachine{a64: &a64{f: af, k: k, streams: 1}, chk: chk, dealt: dealt}
	af.Comment(CheckedName+" absorbs len(p)/64 whole blocks of p into h with the SHA-1",
		"instructions, four rounds each (see gen/sha1_ce), and stops before the first",
		"block whose UBC mask is not zero (see gen/sha1dc_ce).",
		"Schedule: "+knob.Format(o.knobs()...)+".")
	af.StoreArgW(arm64.ZR, af.Result("n"))
	af.StoreArgW(arm64.ZR, af.Result("mask"))
	chk.LoadTable()
	params{ahead: int(o.ahead), copied: o.copied, streams: 1}.kernel(m)
	m.flagged()
	if o.schedule {
		af.ScheduleFor(sha1arm.CortexA53)
	}
	loop, err := af.GNU("loop")
	if err != nil {
		return nil, "", err
	}
	return f.File, loop, nil
}

// stored stores, at the end of a kernel that absorbed every block, the
// number of blocks: len(p)/64.
func (m *checkMachine) stored() {
	f := m.f
	f.LoadArg(f.Arg("p").Len(), checkBase)
	f.ORRW(checkBase.LSR(6), arm64.ZR, checkBase)
	f.StoreArgW(checkBase, f.Result("n"))
}
