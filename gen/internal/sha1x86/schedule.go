package sha1x86

import (
	"fmt"

	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// A step emits one operation: a scalar instruction, or a vector operation
// (which the SSSE3 ISA may expand into a copy and the operation).
type step func()

const (
	wordsPerGroup  = 4
	groupsPerBlock = 80 / wordsPerGroup
	loadGroups     = 16 / wordsPerGroup // groups taken straight from the message
	windowGroups   = 8                  // W[t-32..t-1]: the live groups
)

// wReg is the register that holds schedule group g (words 4g..4g+3). Eight
// registers form a ring: group g overwrites group g-8, which is W[t-32..],
// the last input group g needs, so the rewrite can work in place.
func (e *emitter) wReg(g int) reg.VecPhysical { return e.w[g%windowGroups] }

// groupSteps returns the vector steps that compute W[4g..4g+3] + K and store
// it into the ring. Groups 0..3 are loaded from the block at src; g may
// also be 20..23, the first groups of the next block (also loaded from src).
func (e *emitter) groupSteps(g int, src reg.Register) []step {
	var steps []step
	word := wordsPerGroup * g // index of the group's first word in the stream
	if g >= groupsPerBlock {
		g -= groupsPerBlock // the next block's groups are its groups 0..3
	}
	w := e.wReg(g)
	x := e.isa
	switch {
	case g < loadGroups:
		// W[t..t+3] = the big-endian message words.
		steps = []step{
			func() {
				e.comment("W[%d..%d]: load and byte-swap", 4*g, 4*g+3)
				e.loadGroup(w, src, g)
			},
			func() { x.Shuffle(w, w, e.bswap) },
		}
	case g < 2*loadGroups:
		// W[t] = rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]), t = 4g..4g+3.
		w16, w12, w8, w4 := e.wReg(g-4), e.wReg(g-3), e.wReg(g-2), e.wReg(g-1)
		t0, t1 := e.t0, e.t1
		steps = []step{
			func() {
				e.comment("W[%d..%d]: rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16])", 4*g, 4*g+3)
				e.straddle(w, w12, w16) // W[t-14..t-11]
			},
			func() { x.ShrBytes(t0, w4, 4) }, // W[t-3..t-1], 0
			func() { x.Xor(w, w, w16) },
			func() { x.Xor(t0, t0, w8) },
			func() { x.Xor(w, w, t0) },       // x: lanes 0..2 complete, lane 3 lacks W[t]
			func() { x.ShlBytes(t1, w, 12) }, // x0 alone, in lane 3
			func() { x.Add32(t0, w, w) },     // w << 1, on the adders rather than the shifter
			func() { x.Shr32(w, w, 31) },
			func() { x.Or(w, w, t0) },     // rol1(x)
			func() { x.Shl32(t0, t1, 2) }, // lane 3 fix-up: rol1(W[t]) = rol2(x0) ...
			func() { x.Shr32(t1, t1, 30) },
			func() { x.Xor(w, w, t0) },
			func() { x.Xor(w, w, t1) }, // ... folded into lane 3
		}
	default:
		// W[t] = rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]); w holds W[t-32..].
		w28, w16, w8, w4 := e.wReg(g-7), e.wReg(g-4), e.wReg(g-2), e.wReg(g-1)
		t0 := e.t0
		steps = []step{
			func() {
				e.comment("W[%d..%d]: rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32])", 4*g, 4*g+3)
				e.straddle(t0, w4, w8) // W[t-6..t-3]
			},
			func() { x.Xor(w, w, w28) },
			func() { x.Xor(w, w, w16) },
			func() { x.Xor(w, w, t0) },
			func() { x.Shr32(t0, w, 30) },
			func() { x.Shl32(w, w, 2) },
			func() { x.Or(w, w, t0) },
		}
	}
	k := e.kConst(4 * g)
	steps = append(steps,
		func() { x.AddMem32(e.t0, w, k) },
		func() { e.storeWK(word, e.t0) },
	)
	return steps
}

// straddle sets dst to the middle four words of hi:lo, [lo2 lo3 hi0 hi1],
// as Params.Align says. dst must not be hi.
func (e *emitter) straddle(dst, hi, lo reg.VecPhysical) {
	if e.p.Align == "unpack" {
		e.isa.Shuffle32(dst, lo, 0x4e) // [lo2 lo3 lo0 lo1]
		e.isa.UnpackLo64(dst, dst, hi)
		return
	}
	e.isa.Align(dst, hi, lo, 8)
}

// chunk returns the part of a group's steps that runs in the c-th of its
// four rounds: dealt out evenly, in order, or all in the first round when
// Params.Placement is "burst".
func (e *emitter) chunk(steps []step, c int) []step {
	if e.p.Placement == "burst" {
		if c == 0 {
			return steps
		}
		return nil
	}
	n := len(steps)
	return steps[c*n/wordsPerGroup : (c+1)*n/wordsPerGroup]
}

// kConst is the memory operand holding K for word t, replicated four times.
func (e *emitter) kConst(t int) Mem { return e.ktab.Offset(e.lanes * 16 * (t / 20)) }

// loadGroup loads the message words 4g..4g+3 of the block at src into w:
// with two lanes, those of the pair's second block (at the pair's hi
// pointer) into the high lane.
func (e *emitter) loadGroup(w reg.VecPhysical, src reg.Register, g int) {
	m := Mem{Base: src, Disp: 16 * g}
	if e.pair == nil {
		e.isa.Load(w, m)
		return
	}
	e.isa.Load(w.AsX().(reg.VecPhysical), m)
	e.ctx.VINSERTI128(U8(1), Mem{Base: e.pair.hi, Disp: 16 * g}, w, w)
}

// slot is the ring memory holding W[t]+K for t..t+3 (t a multiple of 4).
func (e *emitter) slot(t int) Mem { return e.ring.Offset(4 * (t % ringWords)) }

// storeWK stores W[t..t+3]+K into the ring and records it in the model.
func (e *emitter) storeWK(t int, v reg.VecPhysical) {
	if e.pair != nil {
		e.isa.Store(e.pair.slot(e.pair.next, t%80), v)
		return
	}
	e.isa.Store(e.slot(t), v)
	e.model = append(e.model, ringEvent{write: true, word: t})
}

// readWK records that round t reads its W+K from the ring.
func (e *emitter) readWK(t int) Mem {
	e.model = append(e.model, ringEvent{word: t})
	return e.slot(t)
}

// A ringEvent is one access to the W+K ring, in emission order. Words are
// numbered from the first word of the block that the loop body processes;
// the next block's words are 80 and up.
type ringEvent struct {
	write bool
	word  int
}

// checkRing replays the ring accesses of whole inputs of one, two and
// three blocks: the prologue, then for every block but the last the loop's
// rounds before the look-ahead reaches the next block (head) and the rest
// (next), and for the last block head and the branch that finishes it
// without the look-ahead (last). It reports any round that would read a
// slot not holding its word. One block covers the block the prologue
// filled, two and three the blocks the loop itself filled.
func checkRing(prologue, head, next, last []ringEvent) error {
	for blocks := 1; blocks <= 3; blocks++ {
		var held [ringWords]int
		for i := range held {
			held[i] = -1
		}
		replay := func(events []ringEvent, base int) error {
			for _, ev := range events {
				w := base + ev.word
				s := w % ringWords
				if ev.write {
					for i := 0; i < wordsPerGroup; i++ {
						held[s+i] = w + i
					}
					continue
				}
				if held[s] != w {
					return fmt.Errorf("round %d would read W+K ring slot %d, which holds word %d, not %d: the precalculation schedule overwrites or lags its readers", ev.word, s, held[s], w)
				}
			}
			return nil
		}
		if err := replay(prologue, 0); err != nil {
			return err
		}
		for b := 0; b < blocks; b++ {
			tail := next
			if b == blocks-1 {
				tail = last
			}
			if err := replay(head, 80*b); err != nil {
				return err
			}
			if err := replay(tail, 80*b); err != nil {
				return err
			}
		}
	}
	return nil
}
