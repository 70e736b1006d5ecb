package sha1ce

import (
	"fmt"

	"github.com/simdhash/simdhash/gen/internal/arm64"
	"github.com/simdhash/simdhash/gen/internal/armemit"
)

// The Lanes form: the streams as the lanes of a multi-lane kernel of
// sha1.SumMany (sha1sched.Lanes; gen/internal/sha1many states the
// contract), one stream a lane. The rounds are the description's; around
// them, a64Lanes:
//
//   - gathers each stream's a..d from h's rows (one word of every lane a
//     row) by loading the first four words of rows 0-3 and transposing
//     them with ZIP1 and ZIP2, and e from row 4 with DUP; it scatters them
//     back a word at a time (DUP, STR S);
//   - counts the blocks up (b, in a64B) instead of down, and moves each
//     stream's pointer for the next block's loads as the vector kernels
//     do: to the next block, to p[1][l] at block c[0][l], and, from block
//     c[1][l] on, back to the block just loaded, which the next block then
//     rereads (so the last block of the call rereads itself too);
//   - retires a stream whose count has run out: its block result is ANDed
//     with a mask of zeros (CSETM of the comparison, DUP) before the add
//     into the saved state.
//
// It needs laneTemps vector registers beyond the description's.

// laneTemps is the number of vector registers a Lanes kernel needs beside
// the description's: the transposition of the state, and the mask.
func (o Options) laneTemps() int {
	if o.Lanes {
		return 6
	}
	return 0
}

// name is the kernel's function name.
func (o Options) name() string {
	if o.Lanes {
		return fmt.Sprintf("manyCE%d", o.Streams)
	}
	return "blockCE"
}

// The general registers of the Lanes form, beside a64's.
const (
	a64B    = arm64.R8  // the blocks begun
	a64PArr = arm64.R9  // p
	a64CArr = arm64.R10 // c
	a64Cnt  = arm64.R11 // a lane's count
	a64Alt  = arm64.R12 // a lane's p[1]
	a64Mask = arm64.R13 // a lane's retire mask
)

// maxLanes is the room for lanes in the arrays of the Lanes form.
const maxLanes = 16

// a64Lanes is a64 for the Lanes form; temp is the first of its
// laneTemps registers.
type a64Lanes struct {
	a64
	temp int
}

func (m *a64Lanes) tmp(i int) arm64.VReg { return arm64.V(m.temp + i) }

func (m *a64Lanes) loadArgs(none string) {
	f := m.f
	f.LoadArg(f.Arg("h"), a64H)
	f.LoadArg(f.Arg("p"), a64PArr)
	f.LoadArg(f.Arg("c"), a64CArr)
	f.LoadArg(f.Arg("n"), a64N)
	f.CBZ(a64N, none)
	f.MOVDConst(0, a64B)
	for s := range m.streams {
		f.LDR(a64PArr.At(8*s), a64P(s))
	}
}

// loadState transposes the first four words of h's rows 0-3 once, for
// stream 0, and takes stream s's a..d from the result.
func (m *a64Lanes) loadState(s int, x, e vec) {
	f := m.f
	r := [4]arm64.VReg{m.tmp(0), m.tmp(1), m.tmp(2), m.tmp(3)}
	t0, t1 := m.tmp(4), m.tmp(5)
	if s == 0 {
		for i, v := range r {
			f.LDRQ(a64H.At(4*maxLanes*i), v)
		}
		f.VZIP1(r[1].S4(), r[0].S4(), t0.S4()) // a0 b0 a1 b1
		f.VZIP1(r[3].S4(), r[2].S4(), t1.S4()) // c0 d0 c1 d1
		f.VZIP2(r[1].S4(), r[0].S4(), r[0].S4())
		f.VZIP2(r[3].S4(), r[2].S4(), r[2].S4())
		f.LDRQ(a64H.At(4*maxLanes*4), r[1]) // e of lanes 0-3
	}
	pair, hi := [2]arm64.VReg{t0, r[0]}[s/2], [2]arm64.VReg{t1, r[2]}[s/2]
	if s%2 == 0 {
		f.VZIP1(hi.D2(), pair.D2(), v64(x).D2())
	} else {
		f.VZIP2(hi.D2(), pair.D2(), v64(x).D2())
	}
	f.VDUP(r[1].S(s), v64(e).S4())
}

// storeState stores stream s's a..d and e, a word at a time.
func (m *a64Lanes) storeState(s int, x, e vec) {
	f := m.f
	t := m.tmp(0)
	for i := 0; i < 4; i++ {
		f.VDUP(v64(x).S(i), t.S4())
		f.STRS(t, a64H.At(4*maxLanes*i+4*s))
	}
	f.STRS(v64(e), a64H.At(4*maxLanes*4+4*s))
}

// nextBlock counts the block about to be absorbed (b, in a64B, becomes
// b+1) and points each stream at its block b+1, which this block loads:
// the next one, p[1] at block c[0], or, from block c[1] on, the one just
// loaded again.
func (m *a64Lanes) nextBlock() {
	f := m.f
	f.ADD(1, a64B, a64B)
	for s := range m.streams {
		p := a64P(s)
		f.SUB(64, p, a64Back)
		f.LDRW(a64CArr.At(4*s), a64Cnt)
		f.LDR(a64PArr.At(8*(maxLanes+s)), a64Alt)
		f.CMPReg(a64Cnt, a64B)
		f.CSEL(armemit.EQ, a64Alt, p, p)
		f.LDRW(a64CArr.At(4*(maxLanes+s)), a64Cnt)
		f.CMPReg(a64Cnt, a64B) // b+1 - count: HS once the lane absorbs no block b+1
		f.CSEL(armemit.HS, a64Back, p, p)
	}
}

// retire zeroes stream s's result unless the stream absorbs block b
// (count >= b+1).
func (m *a64Lanes) retire(s int, x, e vec) {
	f, t := m.f, m.tmp(5)
	f.LDRW(a64CArr.At(4*(maxLanes+s)), a64Cnt)
	f.CMPReg(a64B, a64Cnt) // count - (b+1)
	f.CSETMW(armemit.HS, a64Mask)
	f.VDUPR(a64Mask, t.S4())
	f.VAND(t.B16(), v64(x).B16(), v64(x).B16())
	f.VAND(t.B16(), v64(e).B16(), v64(e).B16())
}

func (m *a64Lanes) exitIfLast(label string) {
	m.f.CMPReg(a64N, a64B)
	m.f.BEQ(label)
}

func (m *a64Lanes) loopBack(label string) {
	m.f.CMPReg(a64N, a64B)
	m.f.BNE(label)
}
