package sha1sched

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/simdhash/simdhash/gen/internal/ubc"
	"github.com/simdhash/simdhash/gen/internal/ubcvec"
	"github.com/simdhash/simdhash/internal/ref"
)

// checkState is the model backend's UBC check: its temporaries, the
// accumulator, and the mask returned.
type checkState struct {
	t    [ubcvec.Temps][4]uint32
	acc  [4]uint32
	mask uint32
}

// Check emits op as one instruction on the model's registers: group g is
// the window register Window(g), which must still hold group g's words
// (a check placed where the window has moved on reads poison or the
// wrong group, and the test's masks disagree).
func (b *model) Check(op ubcvec.Op) []Step {
	return []Step{func() {
		b.emit("check: "+op.String(), func(m *cpu) {
			mc := &ubcvec.Machine{W: &[80]uint32{}}
			// Run the operation on a machine whose groups are the
			// window registers and whose temporaries are the model's.
			w := fipsW(m.msg[m.blk:])
			for _, r := range []ubcvec.Reg{op.A, op.B} {
				if r.Kind == ubcvec.Group && [4]uint32(w[4*r.N:]) != m.v[Window(r.N)] && m.err == nil {
					m.err = fmt.Errorf("blk %d ptr %d len %d: %v reads %08x, not the block's %v, %08x", m.blk, m.ptr, len(m.msg), op, m.v[Window(r.N)], r, w[4*r.N:4*r.N+4])
				}
				if r.Kind == ubcvec.Group {
					copy(mc.W[4*r.N:], m.v[Window(r.N)][:])
				}
			}
			if op.Kind == ubcvec.Align {
				copy(mc.W[op.Start&^3:], m.v[Window(op.Start/4)][:])
				copy(mc.W[op.Start&^3+4:], m.v[Window(op.Start/4+1)][:])
			}
			mc.Set(m.chk.t, m.chk.acc, !op.First)
			mc.Run(op)
			m.chk.t, m.chk.acc = mc.Regs()
		})
	}}
}

// exitFlagged emits, for a Checked contract, the end of the kernel at a
// block whose mask is not zero: h is left as it was, and the mask
// returned.
func (b *model) exitFlagged() {
	if b.c.Result != Checked {
		return
	}
	done := b.jumpTo("done")
	b.emit("exit if the mask is not zero", func(m *cpu) {
		if m.chk.mask = ^m.chk.acc[0]; m.chk.mask != 0 {
			done(m)
		}
	})
}

// A checking kernel stops at the first block whose mask is not zero,
// without absorbing it, and returns the blocks absorbed before it and its
// mask, with h the chaining value before it; for every schedule on both
// shapes, on blocks made to reach each DV among plain ones. The check's
// placement is what is tested: the model reads each group from its
// window register when the check runs.
func TestChecked(t *testing.T) {
	rng := rand.New(rand.NewSource(22))
	for _, shape := range shapes {
		for _, s := range Schedules() {
			if s.Ch != ChXor || s.Maj != MajXor {
				continue // the forms change no W
			}
			b := newModel(shape)
			if err := Generate(b, s, "block", Contract{Result: Checked}); err != nil {
				t.Fatalf("%v %s: %v", shape, s, err)
			}
			for trial := range 12 {
				n := 1 + rng.Intn(4)
				msg := make([]byte, 64*n+rng.Intn(64))
				rng.Read(msg)
				// Make some blocks reach a DV.
				for i := 0; i < n; i++ {
					if rng.Intn(3) == 0 {
						var blk [64]byte
						copy(blk[:], msg[64*i:])
						blk = ubc.ReachBlock((trial*5+i)%32, blk)
						copy(msg[64*i:], blk[:])
					}
				}
				h := [5]uint32{rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32()}
				wantH, wantN, wantMask := h, uint32(0), uint32(0)
				for i := 0; i < n; i++ {
					blk := (*[64]byte)(msg[64*i:])
					w, _ := ref.SHA1Steps(wantH, blk)
					if wantMask = ubc.Mask(&w); wantMask != 0 {
						break
					}
					ref.SHA1Blocks(&wantH, blk[:])
					wantN++
				}
				m, err := b.exec(h, msg)
				if err != nil {
					t.Fatalf("%v %s: %v", shape, s, err)
				}
				if m.h != wantH || m.n != wantN || m.chk.mask != wantMask {
					t.Fatalf("%v %s, %d blocks: h %08x, n %d, mask %#08x; want %08x, %d, %#08x", shape, s, n, m.h, m.n, m.chk.mask, wantH, wantN, wantMask)
				}
			}
		}
	}
	if err := Generate(newModel(RotateInto), Schedule{Lookahead: 16}, "block", Contract{Result: Checked, Trace: []int{58}}); err == nil {
		t.Error("Generate accepted a checking kernel with a trace")
	}
}
