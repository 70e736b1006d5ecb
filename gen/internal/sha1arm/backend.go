package sha1arm

import (
	"fmt"

	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

type step = sha1sched.Step

// backend is the ARM backend of sha1sched: the register plan of one
// kernel and the machine it emits through (machine.go), while the
// description is emitted.
type backend struct {
	arch Arch
	p    Params
	// newMachine starts the function name (Begin).
	newMachine func(name string) machine
	m          machine
	regs       regPlan
	// addK is the pending AddK of a group when the ring is in vector
	// registers: the Store that follows adds into the slot's register.
	addK *pendingAddK
}

// pendingAddK is an AddK that its group's Store emits: the sum of src
// and the constant k.
type pendingAddK struct {
	dst    sha1sched.VReg // the role the Store reads
	src, k vreg
}

// regPlan names the registers of a kernel.
type regPlan struct {
	// v are the working registers: variable i (a = 0 .. e = 4) of round
	// t is in v[name(i, t)].
	v [5]greg
	// temps are the temporaries of f, t and u; round t uses
	// temps[t % len(temps)], so that consecutive rounds can overlap.
	temps [][2]greg
	// ring are the registers that hold the addresses of the ring's four
	// 16-byte slots, where the machine keeps them (arm64).
	ring []greg
	// wk are the registers the W+K loads write: load n writes
	// wk[n % len(wk)] (one or two registers).
	wk [][2]greg
	// wkv is the ring in vector registers (-wk fmov, arm64): the slot of
	// bytes 16i..16i+15 is wkv[i].
	wkv [4]vreg
	// h holds the state across blocks on arm64; on arm it stays in
	// memory (nil) and hp is loaded into a temporary when needed.
	h        []greg
	hp       greg
	ptr, end greg

	w    [8]vreg // the schedule window: sha1sched.Window(g) is w[g%8]
	t0   []vreg  // sha1sched.T0 of group g: t0[g % len(t0)]
	t1   vreg    // sha1sched.T1
	k    [4]vreg // K of rounds 20i..20i+19, in every lane
	zero vreg
}

// name is the register index of variable i (a = 0 .. e = 4) in round t:
// the register that receives a round's new a is its e's, so each round
// renames rather than moves (80 rounds are a multiple of the five names).
func name(i, t int) int { return ((i-t)%5 + 5) % 5 }

// pending reports whether variable i's register holds its value rotated
// left by 2 (Rol30Fold), at the start of a round or block.
func (b *backend) pending(i int) bool { return b.p.Rol30 == Rol30Fold && i >= 2 }

// val is a value of the rounds: the register r rotated right by rot bits
// (rot is 0, or 2 for a register that holds its value rotated left by 2).
type val struct {
	r   greg
	rot int
}

// variable returns variable i of round t as a value, as round t reads it
// before it writes any register. On arm64, where h stays in registers,
// each block starts with a..e in h itself: a working register takes its
// variable's value only when a round first writes it (the first five
// rounds read h and write the working registers; NextBlock copies
// nothing).
func (b *backend) variable(i, t int) val {
	k := name(i, t)
	if b.regs.h != nil && !b.written(k, t) {
		// Variable k of round 0 has become variable i; with -rol30 fold,
		// it was not rotated when it went from b to c.
		v := val{r: b.regs.h[k]}
		if b.pending(i) && k <= 1 {
			v.rot = 2
		}
		return v
	}
	v := val{r: b.regs.v[k]}
	if b.pending(i) {
		v.rot = 2
	}
	return v
}

// written reports whether working register k has been written before
// round t of a block: its first write is the e += W+K of round (4-k) mod 5,
// or, unless -rol30 fold, the rotate of b in round (1-k) mod 5.
func (b *backend) written(k, t int) bool {
	first := (4 - k + 5) % 5
	if b.p.Rol30 != Rol30Fold {
		first = min(first, (1-k+5)%5)
	}
	return t > first
}

// dst is the register that variable i of round t is written into.
func (b *backend) dst(i, t int) greg { return b.regs.v[name(i, t)] }

// --- The function (sha1sched.Backend) ---

func (b *backend) Comment(format string, args ...any) { b.m.comment(fmt.Sprintf(format, args...)) }
func (b *backend) Label(name string)                  { b.m.label(name) }
func (b *backend) Jump(label string)                  { b.m.jump(label) }

// Begin starts the function: it finds the blocks, loads h (on arm64 into
// the registers that keep it, from which the first rounds read a..e; on
// arm into the working registers, rotated for c, d and e with Rol30Fold)
// and the constants. Its kernels keep and return nothing but h (Generate
// asks for no more).
func (b *backend) Begin(fn string, _ sha1sched.Contract) {
	b.m = b.newMachine(fn)
	m, r := b.m, &b.regs
	ring := "on the stack"
	if b.ringInRegisters() {
		ring = "in vector registers"
	}
	m.comment(fmt.Sprintf("%s absorbs len(p)/64 whole blocks of p into h: the message schedule on", fn),
		fmt.Sprintf("NEON, four words at a time, into a ring of W+K %s; the rounds in", ring),
		"general registers (gen/internal/sha1sched, gen/internal/sha1arm).",
		fmt.Sprintf("Schedule: %s.", b.arch.Schedule(b.p)))
	m.blocks(r.ptr, r.end, "done")
	hp := b.hp()
	m.comment("Working variables a..e from h.")
	for i := range 5 {
		if r.h != nil {
			m.load(hp, 4*i, r.h[i])
			continue
		}
		v := r.v[name(i, 0)]
		m.load(hp, 4*i, v)
		b.setVariable(i, v)
	}
	m.loadK(r.temps[0][0], r.k)
	m.zero(r.zero)
	if !b.ringInRegisters() {
		m.prologue()
	}
}

// ringInRegisters reports whether the ring of W+K is in vector registers
// (-wk fmov) rather than on the stack.
func (b *backend) ringInRegisters() bool { return b.arch == ARM64 && b.p.Loads == LoadsFmov }

// vectorRing returns the machine, which keeps the ring in vector
// registers.
func (b *backend) vectorRing() vectorRing {
	vr, ok := b.m.(vectorRing)
	if !ok {
		panic(fmt.Sprintf("sha1arm: the %s machine cannot keep the ring in vector registers", b.arch))
	}
	return vr
}

// hp loads h's address and returns its register: on arm64, the register
// that keeps it from Begin on; on arm, a temporary.
func (b *backend) hp() greg {
	hp := b.regs.hp
	if b.regs.h == nil {
		hp = b.regs.temps[0][0]
	}
	b.m.loadH(hp)
	return hp
}

// setVariable sets variable i's register for round 0 from the value in s
// (s may be that register), rotated left by 2 if it is pending (arm).
func (b *backend) setVariable(i int, s greg) {
	d := b.regs.v[name(i, 0)]
	switch {
	case b.pending(i):
		b.m.rotate(b.rotateHow(), 30, s, d)
	case s != d:
		b.m.mov(s, d)
	}
}

// rotateHow is how an explicit rotate is written: as -rol30 says; with
// -rol30 fold, on arm64, by ORRW unless -rol5 asks for RORW.
func (b *backend) rotateHow() rotateHow {
	switch {
	case b.p.Rol30 == Rol30Orr:
		return rotateORR
	case b.p.Rol30 == Rol30Fold && b.arch == ARM64 && b.p.Rol5 != Rol5Ror:
		return rotateORR
	}
	return rotateROR
}

// KeepState is not called: the ARM kernels keep no trace.
func (b *backend) KeepState(i, t int) { panic("sha1arm: no trace") }

func (b *backend) Advance(label string) { b.m.advance(b.regs.ptr, b.regs.end, label) }

// NextBlock adds a..e into h and sets a..e from h for the next block.
func (b *backend) NextBlock() {
	b.Comment("h += a..e.")
	b.sum(true)
}

// Finish adds a..e into h, stores h and returns.
func (b *backend) Finish() {
	b.Comment("h += a..e.")
	b.sum(false)
	b.m.label("done")
	b.m.ret()
}

// sum adds the variables after round 79 into h; it stores h unless next,
// and on arm sets the working registers for the next block (on arm64 the
// next block reads h).
func (b *backend) sum(next bool) {
	m, r := b.m, &b.regs
	if r.h != nil {
		for i := range 5 {
			b.addVal(b.variable(i, 80), r.h[i], r.h[i])
			if !next {
				m.store(r.h[i], r.hp, 4*i)
			}
		}
		return
	}
	hp := b.hp()
	s := r.temps[0][1]
	for i := range 5 {
		x := b.variable(i, 80)
		m.load(hp, 4*i, s)
		if x.rot != 0 || !next {
			b.addVal(x, s, s)
			m.store(s, hp, 4*i)
			if next {
				b.setVariable(i, s)
			}
			continue
		}
		b.addVal(x, s, x.r) // the new h is the next block's variable
		m.store(x.r, hp, 4*i)
	}
}

// addVal sets d = n + x now (see addSteps).
func (b *backend) addVal(x val, n, d greg) {
	for _, st := range b.addSteps(x, n, d) {
		st()
	}
}

// addSteps returns the steps of d = n + x: one, or where ADD takes no
// rotated operand and x is rotated, two, the first of which rotates x's
// register in place.
func (b *backend) addSteps(x val, n, d greg) []step {
	m := b.m
	if x.rot == 0 || m.addRotates() {
		return []step{func() { m.alu(opAdd, x.r, ror(x.rot), n, d) }}
	}
	how := b.rotateHow()
	return []step{
		func() { m.rotate(how, x.rot, x.r, x.r) },
		func() { m.alu(opAdd, x.r, shift{}, n, d) },
	}
}

// --- The vector schedule (sha1sched.Backend) ---

// Rotate: NEON rotates a lane by a shift into a fresh register and a
// shift-and-insert (or accumulate) into it.
func (b *backend) Rotate() sha1sched.RotateShape { return sha1sched.RotateInto }

// Registers: the plan's ten fit in NEON's 16 or 32 (regPlan).
func (b *backend) Registers() int { return 10 }

// v is the register of role x in group g.
func (b *backend) v(x sha1sched.VReg, g int) vreg {
	r := &b.regs
	switch {
	case x.WindowIndex() >= 0:
		return r.w[x.WindowIndex()]
	case x == sha1sched.T0:
		return r.t0[g%len(r.t0)]
	case x == sha1sched.T1:
		return r.t1
	}
	panic(fmt.Sprintf("sha1arm: no register for %v", x))
}

// Vector lowers op to NEON instructions, one step each.
func (b *backend) Vector(op sha1sched.VOp) []step {
	m := b.m
	reg := func(x sha1sched.VReg) vreg {
		if x == sha1sched.NoReg {
			return -1
		}
		return b.v(x, op.Group)
	}
	d, a, bb := reg(op.Dst), reg(op.A), reg(op.B)
	switch op.Kind {
	case sha1sched.LoadBE:
		return []step{
			func() { m.loadBlock(b.regs.ptr, op.Group, d) },
			func() { m.rev32(d, d) },
		}
	case sha1sched.Xor:
		return []step{func() { m.eor(bb, a, d) }}
	case sha1sched.Straddle: // [A2 A3 B0 B1]
		return []step{func() { m.ext(8, bb, a, d) }}
	case sha1sched.WordsDown: // [A1 A2 A3 0] for N = 1
		return []step{func() { m.ext(4*op.N, b.regs.zero, a, d) }}
	case sha1sched.WordsUp: // [0 0 0 A0] for N = 3
		return []step{func() { m.ext(16-4*op.N, a, b.regs.zero, d) }}
	case sha1sched.Rol:
		if d == a || op.Scratch != sha1sched.NoReg {
			panic(fmt.Sprintf("sha1arm: %v: a rotate here goes into another register, without a scratch", op))
		}
		second := func() { m.sri(32-op.N, a, d) }
		if b.p.VRotate == VRotateUSRA {
			second = func() { m.usra(32-op.N, a, d) }
		}
		return []step{func() { m.shl(op.N, a, d) }, second}
	case sha1sched.AddK:
		if b.ringInRegisters() {
			// The Store that follows adds into its slot's register, so
			// that the ring model sees the slot written where it is.
			b.addK = &pendingAddK{dst: op.Dst, src: a, k: b.regs.k[op.Word/20]}
			return nil
		}
		return []step{func() { m.add32(b.regs.k[op.Word/20], a, d) }}
	case sha1sched.Store:
		if b.ringInRegisters() {
			k := b.addK
			if k == nil || k.dst != op.A {
				panic(fmt.Sprintf("sha1arm: %v does not store the AddK just before it", op))
			}
			b.addK = nil
			return []step{func() { m.add32(k.k, k.src, b.regs.wkv[op.WK.Record().Off/16]) }}
		}
		return []step{func() { m.storeRing(a, op.WK.Record().Off) }}
	}
	panic(fmt.Sprintf("sha1arm: no lowering of %v", op))
}
