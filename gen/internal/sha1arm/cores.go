package sha1arm

import (
	"strings"

	"github.com/simdhash/simdhash/gen/internal/armemit"
)

// The in-order cores that -order list schedules arm64 code for, as LLVM
// 14's scheduling models describe them (checked with llvm-mca on chains of
// each kind of instruction): two instructions issue per cycle, to two
// integer units, one load/store unit and one NEON unit; an integer result
// is ready for the next integer instruction after one cycle (two for a
// shifted operand), though it is written back only after three; an EXTR
// (RORW) takes three cycles and gets its operand no earlier; loads take
// four; every NEON result six on the Cortex-A53 (four on the A55, which
// the A53's schedule serves too); and no instruction writes back before an
// older one, so that an integer instruction after a NEON one waits three
// cycles. The NEON instructions are therefore held back and issued in
// runs (armemit.InOrder.Hold). An FMOV from a vector register to a general
// one (-wk fmov) is a NEON instruction on the Cortex-A53; on the A55 it
// issues beside any instruction but a 128-bit NEON one, its result read
// three cycles later.

// kind is what the core models distinguish of an instruction.
type kind int

const (
	kindALU kind = iota
	kindExtr
	kindLoad
	kindStore
	kindNEON
	kindNEONLoad
	kindMove // a vector register's half to a general register (FMOV)
	kindBranch
)

// kindOf classifies i by its GNU form (arm64's, or arm's, whose NEON
// mnemonics begin with v).
func kindOf(i *armemit.Inst) kind {
	op, args, _ := strings.Cut(i.GNU, " ")
	a32 := strings.HasPrefix(op, "v")
	vector := a32 || strings.HasPrefix(op, "sha1") || strings.Contains(args, ".16b") || strings.Contains(args, ".4s") || strings.HasPrefix(args, "q")
	op = strings.TrimPrefix(op, "v")
	switch {
	case i.Branch || i.Terminal:
		return kindBranch
	case strings.HasPrefix(op, "ld") && vector:
		return kindNEONLoad
	case strings.HasPrefix(op, "ld"):
		return kindLoad
	case strings.HasPrefix(op, "st"):
		return kindStore
	case op == "fmov" && !a32:
		return kindMove
	case vector || strings.HasPrefix(op, "movi"):
		return kindNEON
	case op == "ror" && !a32:
		return kindExtr
	}
	return kindALU
}

// shiftedRead reports whether i reads register r as its shifted operand.
func shiftedRead(i *armemit.Inst, r string) bool {
	for _, a := range i.Args {
		if rest, ok := strings.CutPrefix(a, r); ok && rest != "" && strings.ContainsRune("@<>", rune(rest[0])) {
			return true
		}
	}
	return false
}

// inOrderCore is the model of an in-order core whose NEON results
// arrive after neon cycles, and whose NEON instructions issue first in
// their cycle if leads. A move from a vector register to a general one
// (FMOV) is a NEON instruction if moveNEON; else it issues beside any
// instruction but a leading NEON one, and its result is read, and
// written back, move cycles later.
func inOrderCore(neon int, leads bool, moveNEON bool, move int) armemit.InOrder {
	if moveNEON {
		move = neon
	}
	// done is when i writes its results back, which is also when a NEON
	// result, a move's or a load's may be read.
	done := func(i *armemit.Inst) int {
		switch kindOf(i) {
		case kindNEON:
			return neon
		case kindMove:
			return move
		case kindLoad, kindNEONLoad:
			return 4
		case kindALU, kindExtr:
			return 3
		}
		return 1
	}
	return armemit.InOrder{
		Width: 2,
		Unit: func(i *armemit.Inst) string {
			switch kindOf(i) {
			case kindLoad, kindStore, kindNEONLoad:
				return "ldst"
			case kindNEON:
				return "neon"
			case kindMove:
				if moveNEON {
					return "neon"
				}
				return "move"
			case kindBranch:
				return "branch"
			}
			return "alu"
		},
		Units: map[string]int{"alu": 2, "ldst": 1, "neon": 1, "branch": 1},
		Delay: func(p, c *armemit.Inst, r string) int {
			switch kindOf(p) {
			case kindStore:
				return 4 // a load of the stored word
			case kindALU:
				switch kc := kindOf(c); {
				case r == "flags":
					return 1
				case kc == kindExtr:
					return 3
				case kc == kindLoad || kc == kindStore || kc == kindNEONLoad:
					return 3 // an address
				case shiftedRead(c, r):
					return 2
				}
				return 1
			}
			return done(p)
		},
		Done:  done,
		Leads: func(i *armemit.Inst) bool { return leads && kindOf(i) == kindNEON },
		Hold:  func(i *armemit.Inst) bool { return kindOf(i) == kindNEON || moveNEON && kindOf(i) == kindMove },
	}
}

var (
	cortexA53 = inOrderCore(6, false, true, 0)
	cortexA55 = inOrderCore(4, true, false, 3)
)

// CortexA53 is the Cortex-A53 for armemit.Func.ScheduleFor: every result
// written back when this model's A53 writes it back, in order (the SHA-1
// instructions' kernel, gen/internal/sha1ce, is ordered for it).
var CortexA53 = armemit.Core{Latency: cortexA53.Done, InOrderCompletion: true}

// refineWindow is how many places OrderBoth moves an instruction at most.
const refineWindow = 8

// schedule reorders each straight stretch of f as o says (not
// OrderDescription).
func schedule(f *armemit.Func, o Order) {
	if o == OrderBoth {
		f.ScheduleInOrder(scheduleCore(OrderA55))
		f.RefineInOrder(scheduleCore(OrderA55), scheduleCore(OrderA53), refineWindow)
		return
	}
	f.ScheduleInOrder(scheduleCore(o))
}

// scheduleCore is the core -order schedules for, with the trade between
// waiting and the chain behind that gave the best code of those tried
// (docs/sha1-schedule.md).
func scheduleCore(o Order) armemit.InOrder {
	if o == OrderA53 {
		c := cortexA53
		c.Wait = 6
		return c
	}
	c := cortexA55
	c.Wait = 10
	return c
}
