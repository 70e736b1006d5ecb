package sha1sched

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// This file is the model backend: instead of assembly, it emits Go
// closures, which a small interpreter runs on real inputs. Its
// vector operations act on four 32-bit lanes, its scalar ones take three
// operands (as on ARM), it has no flags and it keeps the W+K ring in a
// slice. The tests run the whole description through it, for every
// schedule and both rotate shapes, and compare with FIPS 180-4: the
// description is checked without any target, and the Backend interface is
// shown to suffice for a target that is not x86.

// poison is what the model writes into a register an operation may
// clobber, so that a description relying on its old value fails.
const poison = 0xdead_beef

// cpu is the state of the model backend's interpreter.
type cpu struct {
	v    [VRegs][4]uint32
	r    [8]uint32 // the five working variables (renamed by round) and two temporaries
	h    [5]uint32
	ring [RingWords]uint32
	sp   [windowGroups][4]uint32 // the spill slots
	wk   [4]uint32               // W+K words loaded ahead (model.loads)
	w    [80]uint32              // the trace's W (KeepW)
	s    [][5]uint32             // the trace's states (KeepState)
	n    uint32                  // the result: the blocks absorbed
	msg  []byte
	ptr  int // this block's offset in msg
	end  int // one past the last whole block
	pc   int
	err  error
}

type instr func(m *cpu)

// model is the backend: it appends instructions to prog.
type model struct {
	shape  RotateShape
	regs   int // vector registers (Registers): fewer than 10 make the description spill
	loads  int // W+K words a round loads at once: 1, 2 or 4 (Round.Ahead)
	prog   []instr
	labels map[string]int
	text   []string // the program, one line per instruction, for failure reports
}

func newModel(shape RotateShape) *model {
	return &model{shape: shape, regs: planRegisters, loads: 1, labels: map[string]int{}}
}

func (b *model) emit(text string, in instr) {
	b.prog = append(b.prog, in)
	b.text = append(b.text, text)
}

func (b *model) jumpTo(label string) instr {
	return func(m *cpu) { m.pc = b.labels[label] - 1 } // the interpreter adds 1
}

func (b *model) Rotate() RotateShape { return b.shape }
func (b *model) Registers() int      { return b.regs }

func (b *model) Comment(format string, args ...any) {}
func (b *model) Label(name string)                  { b.labels[name] = len(b.prog) }
func (b *model) Jump(label string)                  { b.emit("jump "+label, b.jumpTo(label)) }

func (b *model) Begin(name string, c Contract) {
	b.emit("begin", func(m *cpu) {
		m.s = make([][5]uint32, len(c.Trace))
		m.ptr, m.end = 0, len(m.msg)&^63
		if m.end == 0 {
			b.jumpTo("done")(m)
			return
		}
		copy(m.r[:5], m.h[:])
	})
}

func (b *model) Advance(label string) {
	to := b.jumpTo(label)
	b.emit("advance", func(m *cpu) {
		m.ptr += 64
		if m.ptr >= m.end {
			to(m)
		}
	})
}

func (b *model) NextBlock() {
	b.emit("next block", func(m *cpu) {
		for i := range m.h {
			m.h[i] += m.r[name(i, 80)]
		}
		for i := range m.h {
			m.r[name(i, 0)] = m.h[i]
		}
		m.n++
	})
}

func (b *model) KeepState(i, t int) {
	b.emit(fmt.Sprintf("s[%d] = a..e", i), func(m *cpu) {
		for j := range m.s[i] {
			m.s[i][j] = m.r[name(j, t)]
		}
	})
}

func (b *model) Finish() {
	b.emit("finish", func(m *cpu) {
		for i := range m.h {
			m.h[i] += m.r[name(i, 80)]
		}
		m.n++
	})
	b.Label("done")
	b.emit("return", func(m *cpu) { m.pc = len(b.prog) })
}

// name is the register of working variable i (a = 0 .. e = 4) in round t:
// each round's new a is written into the register of its e.
func name(i, t int) int { return ((i-t)%5 + 5) % 5 }

// The temporaries of the rounds.
const (
	rT = 5
	rU = 6
)

// Round emits round r with three-operand scalar operations, one step each.
func (b *model) Round(r Round) []Step {
	a, bb, c, d, e := name(0, r.T), name(1, r.T), name(2, r.T), name(3, r.T), name(4, r.T)
	op := func(text string, f func(x *[8]uint32)) Step {
		return func() { b.emit(text, func(m *cpu) { f(&m.r) }) }
	}
	// Round t reads its word, and with loads > 1, those of the next rounds
	// up to the next multiple of loads, which it keeps for them.
	k := r.T % b.loads
	steps := []Step{func() {
		if k == 0 {
			reads := append([]RingAccess{r.WK}, r.Ahead[:min(b.loads-1, len(r.Ahead))]...)
			for i, a := range reads {
				s := a.Record()
				b.emit(fmt.Sprintf("wk[%d] = ring[%d]", i, s.Off/4), func(m *cpu) { m.wk[i] = m.ring[s.Off/4] })
			}
		}
		b.emit(fmt.Sprintf("e += wk[%d]", k), func(m *cpu) { m.r[e] += m.wk[k] })
	}}
	// f from its form: each node into a temporary by position (X into
	// the node's, Y into the other), an Add's halves into e one by one.
	regs := map[ExprOp]int{InB: bb, InC: c, InD: d}
	names := map[int]string{bb: "b", c: "c", d: "d", rT: "t", rU: "u", e: "e"}
	ops := map[ExprOp]string{OpAnd: "&", OpOr: "|", OpXor: "^", OpAndNot: "&^", OpAdd: "+"}
	var eval func(x *Expr, t int) int
	eval = func(x *Expr, t int) int {
		if x.Leaf() {
			return regs[x.Op]
		}
		p, q := eval(x.X, t), eval(x.Y, rT+rU-t)
		steps = append(steps, op(fmt.Sprintf("%s = %s %s %s", names[t], names[p], ops[x.Op], names[q]),
			func(r *[8]uint32) { r[t] = x.Op2(r[p], r[q]) }))
		return t
	}
	add := func(t int) {
		steps = append(steps, op("e += "+names[t], func(r *[8]uint32) { r[e] += r[t] }))
	}
	if f := r.Form(); f.Op == OpAdd {
		add(eval(f.X, rT))
		add(eval(f.Y, rU))
	} else {
		add(eval(f, rT))
	}
	return append(steps,
		op("e += a ror 27", func(x *[8]uint32) { x[e] += bits.RotateLeft32(x[a], 5) }),
		op("b = b ror 2", func(x *[8]uint32) { x[bb] = bits.RotateLeft32(x[bb], 30) }),
	)
}

// Vector emits op as one instruction, checking its operand contract as it
// runs, and that it names no window register past the registers the
// model has.
func (b *model) Vector(op VOp) []Step {
	return []Step{func() {
		var slot Slot
		if op.Kind == Store || op.Kind == Spill || op.Kind == Reload {
			slot = op.WK.Record()
		}
		for _, r := range []VReg{op.Dst, op.A, op.B, op.Scratch} {
			if b.regs < planRegisters && r.WindowIndex() >= SpillWindow {
				panic(fmt.Sprintf("model: %v names %v, with %d vector registers", op, r, b.regs))
			}
		}
		b.emit(op.String(), func(m *cpu) {
			if err := m.vector(op, slot, b.shape); err != nil && m.err == nil {
				m.err = err
			}
		})
	}}
}

// vector runs op on m; slot is a Store's.
func (m *cpu) vector(op VOp, slot Slot, shape RotateShape) error {
	v := &m.v
	rol := func(x [4]uint32, n int) (y [4]uint32) {
		for i := range x {
			y[i] = bits.RotateLeft32(x[i], n)
		}
		return y
	}
	switch op.Kind {
	case LoadBE:
		at := m.ptr + 16*op.Group
		if at < 0 || at+16 > m.end {
			return fmt.Errorf("%v loads bytes %d..%d, outside the whole blocks (%d bytes)", op, at, at+15, m.end)
		}
		for i := range 4 {
			v[op.Dst][i] = binary.BigEndian.Uint32(m.msg[at+4*i:])
		}
	case Xor:
		for i := range 4 {
			v[op.Dst][i] = v[op.A][i] ^ v[op.B][i]
		}
	case Straddle:
		if op.Dst == op.A || op.Dst == op.B {
			return fmt.Errorf("%v: Straddle writes one of its sources", op)
		}
		v[op.Dst] = [4]uint32{v[op.A][2], v[op.A][3], v[op.B][0], v[op.B][1]}
	case WordsDown:
		var y [4]uint32
		copy(y[:], v[op.A][op.N:])
		v[op.Dst] = y
	case WordsUp:
		var y [4]uint32
		copy(y[op.N:], v[op.A][:])
		v[op.Dst] = y
	case Rol:
		switch {
		case shape == RotateInPlace && (op.Dst != op.A || op.Scratch == NoReg):
			return fmt.Errorf("%v: an in-place rotate needs Dst = A and a scratch", op)
		case shape != RotateInPlace && (op.Dst == op.A || op.Scratch != NoReg):
			return fmt.Errorf("%v: a rotate into another register needs Dst != A and no scratch", op)
		}
		v[op.Dst] = rol(v[op.A], op.N)
		if op.Scratch != NoReg {
			v[op.Scratch] = [4]uint32{poison, poison, poison, poison}
		}
	case XorRol:
		if shape != RotateInPlace {
			return fmt.Errorf("%v: XorRol is for in-place rotates only", op)
		}
		r := rol(v[op.A], op.N)
		for i := range 4 {
			v[op.Dst][i] ^= r[i]
		}
		v[op.A] = [4]uint32{poison, poison, poison, poison}
		v[op.Scratch] = [4]uint32{poison, poison, poison, poison}
	case AddK:
		for i := range 4 {
			v[op.Dst][i] = v[op.A][i] + K(op.Word)
		}
	case Store:
		for i := range 4 {
			m.ring[slot.Off/4+i] = v[op.A][i]
		}
	case KeepW:
		copy(m.w[op.Word:], v[op.A][:])
	case Spill:
		m.sp[slot.Off/16] = v[op.A]
	case Reload:
		v[op.Dst] = m.sp[slot.Off/16]
	default:
		return fmt.Errorf("model: no operation %v", op.Kind)
	}
	return nil
}

// run runs the program on h and msg, and returns the new h.
func (b *model) run(h [5]uint32, msg []byte) ([5]uint32, error) {
	m, err := b.exec(h, msg)
	return m.h, err
}

// exec runs the program on h and msg, and returns the machine's state.
func (b *model) exec(h [5]uint32, msg []byte) (*cpu, error) {
	m := &cpu{h: h, msg: msg}
	for i := range m.v {
		m.v[i] = [4]uint32{poison, poison, poison, poison}
	}
	for steps := 0; m.pc < len(b.prog); m.pc++ {
		if steps++; steps > 10000*(len(msg)/64+2) {
			return m, fmt.Errorf("model: no end after %d instructions", steps)
		}
		b.prog[m.pc](m)
		if m.err != nil {
			return m, fmt.Errorf("instruction %d (%s): %w", m.pc, b.text[m.pc], m.err)
		}
	}
	return m, nil
}
