package ubcvec

import "fmt"

// Machine is the check's model machine: four 32-bit lanes a register, the
// groups of one block's W, and the accumulator. The tests run the plan on
// it against ubc.Mask, in both lane orders.
type Machine struct {
	W        *[80]uint32
	Reversed bool // lane 3-i holds W[4g+i], as SHA-NI's registers do
	temps    [Temps][4]uint32
	acc      [4]uint32
	started  bool
}

func (m *Machine) lane(i int) int {
	if m.Reversed {
		return 3 - i
	}
	return i
}

func (m *Machine) read(r Reg) [4]uint32 {
	switch r.Kind {
	case Temp:
		return m.temps[r.N]
	case Group:
		var v [4]uint32
		for i := range 4 {
			v[m.lane(i)] = m.W[4*r.N+i]
		}
		return v
	case Acc:
		return m.acc
	}
	panic(fmt.Sprintf("ubcvec: no register %v", r))
}

func (m *Machine) write(r Reg, v [4]uint32) {
	if r.Kind != Temp {
		panic(fmt.Sprintf("ubcvec: %v is not a temporary", r))
	}
	m.temps[r.N] = v
}

// Run executes op.
func (m *Machine) Run(op Op) {
	a := m.read(op.A)
	var v [4]uint32
	switch op.Kind {
	case Align:
		for i := range 4 {
			v[m.lane(i)] = m.W[op.Start+i]
		}
		if op.Start%4 == 0 {
			panic("ubcvec: Align of a whole group")
		}
		m.write(op.Dst, v)
	case Shl, Shr:
		for i := range v {
			if op.Kind == Shl {
				v[i] = a[i] << op.N
			} else {
				v[i] = a[i] >> op.N
			}
		}
		m.write(op.Dst, v)
	case Xor:
		b := m.read(op.B)
		for i := range v {
			v[i] = a[i] ^ b[i]
		}
		m.write(op.Dst, v)
	case Kill:
		if op.First == m.started {
			panic("ubcvec: the first Kill of a block must set the accumulator, and only it")
		}
		m.started = true
		d := op.Lanes(m.Reversed)
		for i := range v {
			s := uint32(int32(a[i]) >> 31)
			if op.Not {
				s = ^s
			}
			if op.First {
				m.acc[i] = 0
			}
			m.acc[i] |= s & d[i]
		}
		m.write(op.A, [4]uint32{}) // overwritten: nothing may read it
	case Reduce:
		x := m.acc[0] | m.acc[1] | m.acc[2] | m.acc[3]
		m.acc = [4]uint32{x, x, x, x}
		m.write(op.Dst, [4]uint32{})
	default:
		panic(fmt.Sprintf("ubcvec: no operation %v", op.Kind))
	}
}

// Mask is the mask the accumulator gives after Reduce.
func (m *Machine) Mask() uint32 { return ^m.acc[0] }

// Eval runs ops on w and returns the mask.
func Eval(ops []Op, w *[80]uint32, reversed bool) uint32 {
	m := &Machine{W: w, Reversed: reversed}
	for _, op := range ops {
		m.Run(op)
	}
	return m.Mask()
}

// Set gives the machine's temporaries and accumulator the values t and
// acc; started says whether the block's first Kill has run. A backend's
// test model runs the plan's operations one at a time on its own
// registers through it.
func (m *Machine) Set(t [Temps][4]uint32, acc [4]uint32, started bool) {
	m.temps, m.acc, m.started = t, acc, started
}

// Regs returns the machine's temporaries and accumulator.
func (m *Machine) Regs() ([Temps][4]uint32, [4]uint32) { return m.temps, m.acc }
