package main

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/knob"
	"github.com/simdhash/simdhash/internal/ref"
)

// This file runs the generated functions, as avo holds them before they
// are printed, on an emulator of the instructions they use, written from
// the Intel SDM (vol. 2) descriptions. The 512-bit kernel cannot run on
// this project's machine, and no qemu model has VPCLMULQDQ; the emulator
// checks the description's arithmetic, addressing and control flow at
// every width, and that no function touches memory outside its arguments.
// It does not check the encodings: the assembler makes those, and the
// native tests (and, for AVX-512, a CPU model that has it) run them.

// region is a span of emulated memory a function may read, and write if
// writable.
type region struct {
	name       string
	base, size uint64
	writable   bool
}

// machine is the emulated CPU and memory.
type machine struct {
	gp       [16]uint64
	vec      [32][8]uint64 // 512 bits each, [0] the lowest 64
	zf, cf   bool
	mem      []byte
	regions  []region
	args     map[string]uint64 // parameter name (as avo names it, e.g. p_len) -> value
	globals  map[string]uint64 // symbol -> address
	counts   map[string]int    // executed instructions by opcode
	executed int
}

func newMachine(f *ir.File) *machine {
	m := &machine{mem: make([]byte, 1<<16), args: map[string]uint64{}, globals: map[string]uint64{}, counts: map[string]int{}}
	next := uint64(0x8000)
	for _, s := range f.Sections {
		g, ok := s.(*ir.Global)
		if !ok {
			continue
		}
		m.globals[g.Symbol.String()] = next
		for _, d := range g.Data {
			c := d.Value.(U64)
			binary.LittleEndian.PutUint64(m.mem[next+uint64(d.Offset):], uint64(c))
		}
		m.regions = append(m.regions, region{g.Symbol.String(), next, uint64(g.Size), false})
		next += 0x100
	}
	return m
}

// alloc places b in memory at addr, as region name.
func (m *machine) alloc(name string, addr uint64, b []byte, writable bool) {
	copy(m.mem[addr:], b)
	m.regions = append(m.regions, region{name, addr, uint64(len(b)), writable})
}

func (m *machine) check(addr, n uint64, write bool) error {
	for _, r := range m.regions {
		if addr >= r.base && addr+n <= r.base+r.size {
			if write && !r.writable {
				return fmt.Errorf("write of %d bytes to read-only %s at +%d", n, r.name, addr-r.base)
			}
			return nil
		}
	}
	return fmt.Errorf("access of %d bytes at %#x is outside every argument", n, addr)
}

func size(r reg.Register) uint { return r.(interface{ Size() uint }).Size() }

func (m *machine) addr(x Mem) uint64 {
	switch {
	case x.Base == reg.FramePointer:
		panic("a parameter's address is not modelled")
	case x.Base == reg.StaticBase:
		return m.globals[x.Symbol.String()] + uint64(x.Disp)
	}
	a := uint64(x.Disp)
	if x.Base != nil {
		a += m.gp[x.Base.(reg.Physical).PhysicalIndex()]
	}
	if x.Index != nil {
		a += m.gp[x.Index.(reg.Physical).PhysicalIndex()] * uint64(x.Scale)
	}
	return a
}

// read returns the 64-bit words of operand op, n bytes of it.
func (m *machine) read(op Op, n uint) []uint64 {
	w := make([]uint64, (n+7)/8)
	switch x := op.(type) {
	case Mem:
		if x.Base == reg.FramePointer {
			v, ok := m.args[x.Symbol.Name]
			if !ok {
				panic("no argument " + x.Symbol.Name)
			}
			w[0] = v
			return w
		}
		a := m.addr(x)
		if err := m.check(a, uint64(n), false); err != nil {
			panic(err)
		}
		for i := range w {
			w[i] = binary.LittleEndian.Uint64(m.mem[a+8*uint64(i):])
		}
		if n < 8 {
			w[0] &= 1<<(8*n) - 1
		}
	case reg.Physical:
		if x.Kind() == reg.KindVector {
			copy(w, m.vec[x.PhysicalIndex()][:])
		} else {
			w[0] = m.gp[x.PhysicalIndex()]
		}
	case U8:
		w[0] = uint64(x)
	case U32:
		w[0] = uint64(x)
	default:
		panic(fmt.Sprintf("operand %s (%T) is not modelled", op.Asm(), op))
	}
	return w
}

// write sets operand op to w, n bytes of it. A vector register written by
// a VEX or EVEX instruction (zero true) is cleared above n bytes; by an
// SSE one, it keeps its upper bits. A 32-bit write to a general register
// clears its upper half, as on the CPU.
func (m *machine) write(op Op, w []uint64, n uint, zero bool) {
	switch x := op.(type) {
	case Mem:
		if x.Base == reg.FramePointer { // a result
			m.args[x.Symbol.Name] = w[0]
			return
		}
		a := m.addr(x)
		if err := m.check(a, uint64(n), true); err != nil {
			panic(err)
		}
		if n%8 != 0 { // the words below would drop the rest
			panic(fmt.Sprintf("a store of %d bytes to memory is not modelled", n))
		}
		for i := uint(0); i < n/8; i++ {
			binary.LittleEndian.PutUint64(m.mem[a+8*uint64(i):], w[i])
		}
	case reg.Physical:
		if x.Kind() == reg.KindVector {
			v := &m.vec[x.PhysicalIndex()]
			for i := uint(0); i < 8; i++ {
				switch {
				case i < n/8:
					v[i] = w[i]
				case zero:
					v[i] = 0
				}
			}
			return
		}
		v := w[0]
		if n == 4 {
			v &= 0xffffffff
		}
		m.gp[x.PhysicalIndex()] = v
	default:
		panic(fmt.Sprintf("cannot write %s", op.Asm()))
	}
}

// lanes returns the operand width in bytes from a vector register operand.
func vbytes(op Op) uint { return size(op.(reg.Register)) }

// run executes fn from its first instruction to RET, with at most limit
// instructions.
func (m *machine) run(fn *ir.Function, limit int) {
	labels := map[string]int{}
	for i, n := range fn.Nodes {
		if l, ok := n.(ir.Label); ok {
			labels[string(l)] = i
		}
	}
	for pc := 0; pc < len(fn.Nodes); pc++ {
		in, ok := fn.Nodes[pc].(*ir.Instruction)
		if !ok {
			continue
		}
		if m.executed++; m.executed > limit {
			panic("too many instructions")
		}
		m.counts[in.Opcode]++
		ops := in.Operands
		jump := func(cond bool) {
			if cond {
				pc = labels[string(ops[0].(LabelRef))]
			}
		}
		switch in.Opcode {
		case "RET":
			return
		case "JMP":
			jump(true)
		case "JZ", "JE":
			jump(m.zf)
		case "JNZ", "JNE":
			jump(!m.zf)
		case "JB":
			jump(m.cf)
		case "JAE":
			jump(!m.cf)
		case "JA":
			jump(!m.cf && !m.zf)
		case "JBE":
			jump(m.cf || m.zf)
		default:
			m.exec(in.Opcode, ops)
		}
	}
	panic("ran off the end of " + fn.Name)
}

// exec executes one instruction that is not a branch.
func (m *machine) exec(op string, ops []Op) {
	gp := func(i int) uint64 { return m.read(ops[i], 8)[0] }
	setGP := func(i int, v uint64, n uint) { m.write(ops[i], []uint64{v}, n, false) }
	flags := func(v uint64) { m.zf = v == 0 }
	last := len(ops) - 1
	// vector: the width is the destination's, for register destinations.
	vw := func() uint {
		if r, ok := ops[last].(reg.Register); ok {
			return vbytes(r)
		}
		return vbytes(ops[0].(reg.Register))
	}
	switch op {
	case "MOVQ":
		// Between general registers and memory, or XMM and memory/GP.
		src, dst := ops[0], ops[1]
		if isVec(dst) {
			w := m.read(src, 8)
			m.write(dst, []uint64{w[0], 0}, 16, false)
			return
		}
		if isVec(src) {
			m.write(dst, m.read(src, 8)[:1], 8, false)
			return
		}
		setGP(1, gp(0), 8)
	case "VMOVQ":
		src, dst := ops[0], ops[1]
		w := m.read(src, 8)
		if isVec(dst) {
			m.write(dst, []uint64{w[0], 0}, 16, true)
		} else {
			m.write(dst, w[:1], 8, false)
		}
	case "MOVL":
		setGP(1, m.read(ops[0], 4)[0], 4)
	case "MOVBQZX":
		setGP(1, m.read(ops[0], 1)[0], 8)
	case "BSWAPQ":
		setGP(0, bits.ReverseBytes64(gp(0)), 8)
	case "BSWAPL":
		setGP(0, uint64(bits.ReverseBytes32(uint32(gp(0)))), 4)
	case "XORQ", "ORQ":
		v := gp(1) | gp(0)
		if op == "XORQ" {
			v = gp(1) ^ gp(0)
		}
		setGP(1, v, 8)
		flags(v)
		m.cf = false
	case "LEAQ":
		setGP(1, m.addr(ops[0].(Mem)), 8)
	case "SHRQ": // the count is taken mod 64, as the CPU does
		v := gp(1) >> (gp(0) & 63)
		setGP(1, v, 8)
		flags(v)
	case "SHLQ":
		v := gp(1) << (gp(0) & 63)
		setGP(1, v, 8)
		flags(v)
	case "ANDQ":
		v := gp(1) & gp(0)
		setGP(1, v, 8)
		flags(v)
		m.cf = false
	case "NEGQ":
		v := -gp(0)
		setGP(0, v, 8)
		flags(v)
		m.cf = v != 0
	case "ADDQ":
		a, b := gp(1), gp(0)
		setGP(1, a+b, 8)
		flags(a + b)
		m.cf = a+b < a
	case "SUBQ", "CMPQ":
		a, b := gp(0), gp(1)
		if op == "SUBQ" {
			a, b = gp(1), gp(0)
			setGP(1, a-b, 8)
		}
		flags(a - b)
		m.cf = a < b
	case "TESTQ":
		flags(gp(0) & gp(1))
		m.cf = false
	case "INCQ":
		v := gp(0) + 1
		setGP(0, v, 8)
		flags(v)
	case "DECQ":
		v := gp(0) - 1
		setGP(0, v, 8)
		flags(v)
	case "VZEROUPPER":
		for i := 0; i < 16; i++ {
			for j := 2; j < 8; j++ {
				m.vec[i][j] = 0
			}
		}
	case "MOVOU", "MOVO":
		m.write(ops[1], m.read(ops[0], 16), 16, false)
	case "VMOVDQU", "VMOVDQA", "VMOVDQU64", "VMOVDQA64":
		n := vw()
		m.write(ops[1], m.read(ops[0], n), n, true)
	case "VBROADCASTI128", "VBROADCASTI32X4":
		n := vw()
		src := m.read(ops[0], 16)
		w := make([]uint64, n/8)
		for i := range w {
			w[i] = src[i%2]
		}
		m.write(ops[1], w, n, true)
	case "VEXTRACTI128", "VEXTRACTI64X4":
		n := vbytes(ops[2].(reg.Register))
		src := m.read(ops[1], 2*n)
		m.write(ops[2], src[uint64(n/8)*gp(0):][:n/8], n, true)
	case "PXOR":
		m.lanewise(ops[1], ops[0], ops[1], 16, false, func(a, b [2]uint64) [2]uint64 { return [2]uint64{a[0] ^ b[0], a[1] ^ b[1]} })
	case "VPXOR", "VPXORD":
		m.lanewise(ops[1], ops[0], ops[2], vw(), true, func(a, b [2]uint64) [2]uint64 { return [2]uint64{a[0] ^ b[0], a[1] ^ b[1]} })
	case "VPAND", "VPANDD":
		m.lanewise(ops[1], ops[0], ops[2], vw(), true, func(a, b [2]uint64) [2]uint64 { return [2]uint64{a[0] & b[0], a[1] & b[1]} })
	case "PUNPCKLQDQ": // dst's low half stays, its high half is src's low one
		m.lanewise(ops[1], ops[0], ops[1], 16, false, func(a, b [2]uint64) [2]uint64 { return [2]uint64{a[0], b[0]} })
	case "PUNPCKHQDQ": // dst's high half goes low, src's high half high
		m.lanewise(ops[1], ops[0], ops[1], 16, false, func(d, s [2]uint64) [2]uint64 { return [2]uint64{d[1], s[1]} })
	case "VPUNPCKHQDQ": // src2, src1, dst: [src1's high half, src2's high half]
		m.lanewise(ops[1], ops[0], ops[2], vw(), true, func(a, b [2]uint64) [2]uint64 { return [2]uint64{a[1], b[1]} })
	case "PSLLQ", "PSRLQ", "VPSLLQ", "VPSRLQ": // $n, [src,] dst: each 64-bit element, zero for n > 63
		n, zero, src := uint(16), false, ops[1]
		if op[0] == 'V' {
			n, zero = vw(), true
		}
		k := gp(0)
		left := strings.HasPrefix(op, "PSLL") || strings.HasPrefix(op, "VPSLL")
		w := m.read(src, n)
		for i := range w {
			switch {
			case k > 63:
				w[i] = 0
			case left:
				w[i] <<= k
			default:
				w[i] >>= k
			}
		}
		m.write(ops[last], w, n, zero)
	case "MOVSD": // register to register: the low 64 bits, the rest of dst kept
		w := m.read(ops[1], 16)
		w[0] = m.read(ops[0], 8)[0]
		m.write(ops[1], w, 16, false)
	case "VBLENDPD", "VPBLENDD": // $imm, src2, src1, dst: element i from src2 where imm bit i is set
		imm, n := gp(0), vw()
		b, a := m.read(ops[1], n), m.read(ops[2], n)
		w := make([]uint64, n/8)
		for i := range w {
			if op == "VBLENDPD" {
				w[i] = a[i]
				if imm>>i&1 != 0 {
					w[i] = b[i]
				}
				continue
			}
			for d := 0; d < 2; d++ { // the dwords of word i
				mask := uint64(0xffffffff) << (32 * d)
				from := a[i]
				if imm>>(2*i+d)&1 != 0 {
					from = b[i]
				}
				w[i] |= from & mask
			}
		}
		m.write(ops[3], w, n, true)
	case "VPBROADCASTQ": // m64 (or the low quadword of a register), dst
		n := vw()
		v := m.read(ops[0], 8)[0]
		w := make([]uint64, n/8)
		for i := range w {
			w[i] = v
		}
		m.write(ops[1], w, n, true)
	case "VPINSRQ": // $imm, r/m64, src, dst: src with half imm set to the 64 bits
		w := m.read(ops[2], 16)
		w[gp(0)&1] = gp(1)
		m.write(ops[3], w, 16, true)
	case "PSHUFD", "VPSHUFD":
		if gp(0) != 0x4e {
			panic("only PSHUFD $0x4e is modelled")
		}
		n, zero := uint(16), false
		if op == "VPSHUFD" {
			n, zero = vw(), true
		}
		m.lanewise(ops[1], ops[1], ops[2], n, zero, func(a, _ [2]uint64) [2]uint64 { return [2]uint64{a[1], a[0]} })
	case "PSHUFB":
		m.lanewise(ops[0], ops[1], ops[1], 16, false, pshufb)
	case "VPSHUFB":
		m.lanewise(ops[0], ops[1], ops[2], vw(), true, pshufb)
	case "PCLMULQDQ":
		imm := gp(0)
		m.lanewise(ops[2], ops[1], ops[2], 16, false, func(a, b [2]uint64) [2]uint64 { return clmul(a, b, imm) })
	case "VPCLMULQDQ":
		imm := gp(0)
		m.lanewise(ops[2], ops[1], ops[3], vw(), true, func(a, b [2]uint64) [2]uint64 { return clmul(a, b, imm) })
	case "VPTERNLOGD", "VPTERNLOGQ": // bitwise: the element size matters only with a mask
		imm, n := gp(0), vw()
		c, b, a := m.read(ops[1], n), m.read(ops[2], n), m.read(ops[3], n)
		w := make([]uint64, n/8)
		for i := range w {
			for k := uint64(0); k < 8; k++ {
				if imm>>k&1 == 0 {
					continue
				}
				pick := func(bit uint64, v uint64) uint64 {
					if k&bit != 0 {
						return v
					}
					return ^v
				}
				w[i] |= pick(4, a[i]) & pick(2, b[i]) & pick(1, c[i])
			}
		}
		m.write(ops[3], w, n, true)
	default:
		panic(fmt.Sprintf("instruction %s is not modelled", op))
	}
}

func isVec(op Op) bool {
	r, ok := op.(reg.Physical)
	return ok && r.Kind() == reg.KindVector
}

// lanewise sets dst, n bytes, to f of each 128-bit lane of a and b.
func (m *machine) lanewise(a, b, dst Op, n uint, zero bool, f func(a, b [2]uint64) [2]uint64) {
	x, y := m.read(a, n), m.read(b, n)
	w := make([]uint64, n/8)
	for i := 0; i < len(w); i += 2 {
		r := f([2]uint64{x[i], x[i+1]}, [2]uint64{y[i], y[i+1]})
		w[i], w[i+1] = r[0], r[1]
	}
	m.write(dst, w, n, zero)
}

// clmul is PCLMULQDQ on one lane: imm bit 0 picks a's half (a is the
// first source in Intel's order, the second operand in Go's), bit 4 b's.
func clmul(a, b [2]uint64, imm uint64) [2]uint64 {
	hi, lo := ref.ClMul64(a[imm&1], b[imm>>4&1])
	return [2]uint64{lo, hi}
}

// pshufb is PSHUFB on one lane: byte i of the result is byte idx[i] of a,
// or 0 if idx[i] has its top bit set.
func pshufb(idx, a [2]uint64) [2]uint64 {
	var src, ix, out [16]byte
	binary.LittleEndian.PutUint64(src[:], a[0])
	binary.LittleEndian.PutUint64(src[8:], a[1])
	binary.LittleEndian.PutUint64(ix[:], idx[0])
	binary.LittleEndian.PutUint64(ix[8:], idx[1])
	for i, j := range ix {
		if j&0x80 == 0 {
			out[i] = src[j&15]
		}
	}
	return [2]uint64{binary.LittleEndian.Uint64(out[:]), binary.LittleEndian.Uint64(out[8:])}
}

// Memory addresses of the emulated arguments.
const (
	emuY    = 0x100
	emuKey  = 0x1000
	emuData = 0x2000
)

// emulated generates p's functions and returns them by name.
func emulated(t *testing.T, p params) (*ir.File, map[string]*ir.Function) {
	t.Helper()
	ctx := build.NewContext()
	if err := generate(ctx, p); err != nil {
		t.Fatal(err)
	}
	f, err := ctx.Result()
	if err != nil {
		t.Fatal(err)
	}
	fns := map[string]*ir.Function{}
	for _, fn := range f.Functions() {
		fns[fn.Name] = fn
	}
	return f, fns
}

// emuKeyBytes returns the expanded key of h with the powers H^1..H^n, as
// ghashPowers, emulated, makes them; the rest of the key is garbage from
// rng if rng is not nil, so that a kernel reading a power it was not
// given gets a wrong answer.
func emuKeyBytes(t *testing.T, powersFn *ir.Function, f *ir.File, h [16]byte, n int, rng *rand.Rand) []byte {
	t.Helper()
	key := make([]byte, 8*keyWords)
	if rng != nil {
		fill(rng, key)
	}
	tw := twisted(h)
	binary.LittleEndian.PutUint64(key[powerAddr(1):], tw[0])
	binary.LittleEndian.PutUint64(key[powerAddr(1)+8:], tw[1])
	binary.LittleEndian.PutUint64(key[sumAddr(1):], tw[0]^tw[1])
	if n == 1 {
		return key
	}
	m := newMachine(f)
	m.alloc("key", emuKey, key, true)
	m.gp = [16]uint64{}
	m.args["key"], m.args["n"] = emuKey, uint64(n)
	m.run(powersFn, 1<<20)
	copy(key, m.mem[emuKey:emuKey+len(key)])
	return key
}

// TestEmulatedPowers checks the powers ghashPowers writes, emulated:
// the twisted H^i and their sums at sumAddr, for every n, and nothing
// beyond H^n, nor beyond the key when n is larger than it holds.
func TestEmulatedPowers(t *testing.T) {
	f, fns := emulated(t, params{width: W128})
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 4; trial++ {
		var h [16]byte
		binary.LittleEndian.PutUint64(h[:8], rng.Uint64())
		binary.LittleEndian.PutUint64(h[8:], rng.Uint64())
		for _, n := range []int{2, 3, 8, tableBlocks - 1, tableBlocks, tableBlocks + 1, 1 << 40} {
			key := emuKeyBytes(t, fns["ghashPowers"], f, h, n, nil)
			pow := h
			for i := 1; i <= tableBlocks; i++ {
				lo := binary.LittleEndian.Uint64(key[powerAddr(i):])
				hi := binary.LittleEndian.Uint64(key[powerAddr(i)+8:])
				s := binary.LittleEndian.Uint64(key[sumAddr(i):])
				if i > min(n, tableBlocks) {
					if lo|hi|s != 0 {
						t.Fatalf("n = %d: H^%d was written", n, i)
					}
					continue
				}
				if want := twisted(pow); lo != want[0] || hi != want[1] || s != lo^hi {
					t.Fatalf("n = %d: H^%d = %016x%016x (sum %016x), want %016x%016x", n, i, hi, lo, s, want[1], want[0])
				}
				pow = ref.GHASHMul(pow, h)
			}
		}
	}
}

// TestEmulatedKernels runs every update function of every width, with
// the default knobs and others, on inputs of 0..maxBlocks blocks (and a
// partial block it must leave alone) against the reference, on a key with
// only the powers the input's length uses, H^1..H^min(n, group size), and
// garbage after them.
func TestEmulatedKernels(t *testing.T) {
	variants := append([]params{
		{width: W128},
		{width: W256},
		{width: W256, threshold: 40},
		{width: W512},
		{width: W512, threshold: 48},
	}, shapeVariants()...)
	maxBlocks := 3*tableBlocks + 2*pclmulGroup
	if testing.Short() {
		variants = append([]params{{width: W128}, {width: W256}, {width: W512}}, shapeVariants()...)
		maxBlocks = 2*tableBlocks + pclmulGroup + 3
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, p := range variants {
		if err := p.resolve(); err != nil {
			t.Fatal(err)
		}
		f, fns := emulated(t, p)
		var names []string
		for name, fn := range fns {
			switch {
			case strings.HasSuffix(name, "Group"):
				// The group size the Go side reads.
				m := newMachine(f)
				m.run(fn, 100)
				if got := m.args["ret"]; int(got) != p.blocks.n() {
					t.Errorf("%s returns %d, want -blocks %d", name, got, p.blocks.n())
				}
			case strings.HasPrefix(name, "ghash") && name != "ghashPowers":
				names = append(names, name)
			}
		}
		slices.Sort(names)
		pf, pfns := emulated(t, params{width: W128})
		pw := pfns["ghashPowers"]
		for _, name := range names {
			t.Run(fmt.Sprintf("%s/%s", name, strings.ReplaceAll(fnKnobs(f, name), " ", "/")), func(t *testing.T) {
				fn := fns[name]
				for n := 0; n <= maxBlocks; n++ {
					var h, y0 [16]byte
					fill(rng, h[:])
					fill(rng, y0[:])
					data := make([]byte, 16*n+rng.IntN(16))
					fill(rng, data)
					want := y0
					for i := 0; i+16 <= len(data); i += 16 {
						var x [16]byte
						copy(x[:], data[i:])
						for j := range x {
							x[j] ^= want[j]
						}
						want = ref.GHASHMul(x, h)
					}
					group := pclmulGroup
					if p.width != W128 {
						group = p.blocks.n()
					}
					key := emuKeyBytes(t, pw, pf, h, max(1, min(n, group)), rng)
					m := newMachine(f)
					m.alloc("y", emuY, y0[:], true)
					m.alloc("key", emuKey, key, false)
					m.alloc("p", emuData, data, false)
					m.args["y"], m.args["key"], m.args["p_base"], m.args["p_len"] = emuY, emuKey, emuData, uint64(len(data))
					m.run(fn, 1<<20)
					var got [16]byte
					copy(got[:], m.mem[emuY:])
					if got != want {
						t.Fatalf("%d blocks (+%d bytes): y = %x, want %x", n, len(data)%16, got, want)
					}
				}
			})
		}
	}
}

// shapeVariants returns, for each width, its default shape with each
// other choice of each schedule knob that the width takes, and a few
// combinations of them: those that pipeline the reduction with another
// form of its steps, and the 512-bit fold once with each; at 128 bits
// for both kernels, and for each alone.
func shapeVariants() []params {
	var out []params
	valid := func(p params) error { q := p; return q.resolve() }
	for _, w := range []Width{W128, W256, W512} {
		kernels := []Only{OnlyBoth}
		if w == W128 {
			kernels = []Only{OnlyBoth, OnlyAVX, OnlySSE}
		}
		for _, k := range kernels {
			base := params{width: w, kernel: k}
			out = append(out, knob.Variants(base, func(p *params) []knob.Knob { return p.shapeKnobs() }, nil, valid)...)
			for _, at := range []ReduceAt{ReduceAtFront, ReduceAtSpread, ReduceAtBack} {
				for _, s := range []shape{
					{mul: MulSchoolbook},
					{reduction: ReductionShift},
					{reduction: ReductionMixed},
					{halves: HalvesUnpack},
					{halves: HalvesPair},
					{halves: HalvesPair, reduction: ReductionShift, blend: BlendMask},
					{halves: HalvesPair, reduction: ReductionShift, blend: BlendBlendpd},
					{fold: FoldOnce},
					{fold: FoldOnce, mul: MulSchoolbook, reduction: ReductionShift},
				} {
					s.reduceAt = at
					if p := (params{width: w, kernel: k, shape: s}); valid(p) == nil {
						out = append(out, p)
					}
				}
			}
		}
	}
	// Each distinct set of functions once: the shapes of every target.
	var uniq []params
	seen := map[string]bool{}
	for _, p := range out {
		if err := p.resolve(); err != nil {
			panic(err)
		}
		var key []string
		changed := false
		for _, t := range p.targets() {
			s := p.shapeOf(t)
			key = append(key, knob.Format(s.knobs()...))
			changed = changed || s != defaultShape[t]
		}
		if k := fmt.Sprint(p.width, key); changed && !seen[k] {
			seen[k] = true
			uniq = append(uniq, p)
		}
	}
	return uniq
}

// fnKnobs returns the knobs that function name prints in its "Knobs:"
// comment.
func fnKnobs(f *ir.File, name string) string {
	for _, fn := range f.Functions() {
		if fn.Name != name {
			continue
		}
		for _, n := range fn.Nodes {
			if c, ok := n.(*ir.Comment); ok {
				for _, line := range c.Lines {
					if k, ok := strings.CutPrefix(line, "Knobs: "); ok {
						return k
					}
				}
			}
		}
	}
	return "no knobs"
}

func fill(rng *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
}

// TestEmulatedGCM runs the GCM functions of the last group, emulated, on every
// split of up to eight blocks into A and C (sixteen for gcmVPCLMUL256,
// beyond eight a sample of them), whole or with a partial block, half of
// them as a whole short message and half as the end of a longer one (y
// given, the lengths larger), against the reference, on a key with H^1..H^m (m the blocks, length
// block included) and garbage above: each may read only the powers its
// message uses, and no byte outside A, C and y.
func TestEmulatedGCM(t *testing.T) {
	pf, pfns := emulated(t, params{width: W128})
	wf, wfns := emulated(t, params{width: W256})
	rng := rand.New(rand.NewPCG(9, 10))
	for _, name := range []string{gcmPCLMUL, gcmPCLMULAVX, gcmVPCLMUL256} {
		f, fn := pf, pfns[name]
		if name == gcmVPCLMUL256 {
			f, fn = wf, wfns[name]
		}
		t.Run(name, func(t *testing.T) {
			// The 128-bit functions serve keys of pclmulGroup powers, the
			// 256-bit one keys of tableBlocks.
			most := pclmulGroup - 1
			if name == gcmVPCLMUL256 {
				most = tableBlocks - 1
			}
			for la := 0; la <= most*blockBytes; la++ {
				for lc := 0; (la+15)/16+(lc+15)/16 <= most; lc++ {
					m := (la+15)/16 + (lc+15)/16 + 1
					sample := la%5 == 0 || lc%3 == 0
					if (testing.Short() || m > pclmulGroup) && !sample {
						continue
					}
					var h [16]byte
					fill(rng, h[:])
					a, c := make([]byte, la), make([]byte, lc)
					fill(rng, a)
					fill(rng, c)
					key := emuKeyBytes(t, pfns["ghashPowers"], pf, h, m, rng)
					// withY: the end of a longer message, y the GHASH
					// of what came before, the lengths those of the
					// whole; else a whole short message from zero (y is
					// garbage, only written).
					withY := (la+lc)%2 == 1
					var y0 [16]byte
					fill(rng, y0[:])
					bitsA, bitsC := uint64(la)*8, uint64(lc)*8
					want := ref.GCMGHASH(h, a, c)
					if withY {
						// y0 is the GHASH of some earlier whole
						// blocks of the message, whose lengths are
						// the larger: the reference hashes those
						// blocks, then a and c padded and the
						// length block, in one go.
						prefix := make([]byte, 16*(1+rng.IntN(3)))
						fill(rng, prefix)
						y0 = refGHASH(t, h, prefix)
						bitsA += uint64(rng.IntN(1<<20)) * 128
						bitsC += uint64(rng.IntN(1<<20)) * 128
						input := append(prefix, ref.GCMGHASHInput(a, c)...)
						binary.BigEndian.PutUint64(input[len(input)-16:], bitsA)
						binary.BigEndian.PutUint64(input[len(input)-8:], bitsC)
						want = refGHASH(t, h, input)
					}
					mc := newMachine(f)
					mc.alloc("y", emuY, y0[:], true)
					mc.alloc("key", emuKey, key, false)
					mc.alloc("a", emuData, a, false)
					mc.alloc("c", emuData+0x1000, c, false)
					mc.args["y"], mc.args["key"] = emuY, emuKey
					mc.args["a_base"], mc.args["a_len"] = emuData, uint64(la)
					mc.args["c_base"], mc.args["c_len"] = emuData+0x1000, uint64(lc)
					mc.args["bitsA"], mc.args["bitsC"] = bitsA, bitsC
					mc.args["withY"] = 0
					if withY {
						mc.args["withY"] = 1
					}
					mc.run(fn, 1<<16)
					var got [16]byte
					copy(got[:], mc.mem[emuY:])
					if got != want {
						t.Fatalf("len(A) = %d, len(C) = %d, withY %v: y = %x, want %x", la, lc, withY, got, want)
					}
				}
			}
		})
	}
}

// refGHASH is ref.GHASH of whole blocks, failing t on an error.
func refGHASH(t *testing.T, h [16]byte, x []byte) [16]byte {
	t.Helper()
	v, err := ref.GHASH(h, x)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
