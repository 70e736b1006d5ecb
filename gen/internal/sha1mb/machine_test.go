package sha1mb

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/reg"
)

// machine executes a generated kernel's instructions, as avo holds them,
// with the semantics of the Intel SDM (vol. 2) for the few dozen
// instructions the multi-lane kernels use. It lets the tests run the
// 16-lane AVX-512 kernel, which no CPU or emulator here executes, against
// the FIPS 180-4 reference; the 8-lane kernel runs on it too, and natively,
// which checks the machine's semantics of the instructions they share.
//
// Memory is one byte array: addresses are offsets into it, from base up
// (so that 0 is never valid). Every access is bounds-checked against the
// regions the test mapped, so a kernel reading outside its input fails.
type machine struct {
	fn      *ir.Function
	globals map[string]int // static symbol -> address

	mem     []byte
	regions [][2]int // [start, end) of the readable, writable regions
	gp      [16]uint64
	vec     [32][64]byte
	k       [8]uint64
	zf, cf  bool
	le      bool // signed less or equal, after CMPL
	args    int  // address of the argument frame (0(FP))
	locals  int  // address of the local frame (0(SP))
	steps   int
}

const machineBase = 4096

// compile runs avo's passes on the file of ctx, as the generator does
// before printing it.
func compile(ctx *build.Context) (*ir.File, error) {
	f, err := ctx.Result()
	if err != nil {
		return nil, err
	}
	return f, pass.Compile.Execute(f)
}

// newMachine loads the function name of f, and its globals.
func newMachine(f *ir.File, name string) (*machine, error) {
	m := &machine{globals: map[string]int{}, mem: make([]byte, machineBase)}
	for _, s := range f.Sections {
		switch s := s.(type) {
		case *ir.Function:
			if s.Name == name {
				m.fn = s
			}
		case *ir.Global:
			addr := m.alloc(s.Size)
			m.globals[s.Symbol.Name] = addr
			for _, d := range s.Data {
				c, ok := d.Value.(interface{ Bytes() int })
				if !ok {
					return nil, fmt.Errorf("datum %v", d.Value)
				}
				v := constValue(d.Value)
				for i := 0; i < c.Bytes(); i++ {
					m.mem[addr+d.Offset+i] = byte(v >> (8 * i))
				}
			}
		}
	}
	if m.fn == nil {
		return nil, fmt.Errorf("no function %s", name)
	}
	return m, nil
}

// alloc maps n zero bytes, 64-byte aligned, and returns their address.
func (m *machine) alloc(n int) int {
	addr := (len(m.mem) + 63) &^ 63
	m.mem = append(m.mem, make([]byte, addr+n-len(m.mem))...)
	m.regions = append(m.regions, [2]int{addr, addr + n})
	// A gap after each region, so that an access one past it fails.
	m.mem = append(m.mem, make([]byte, 64)...)
	return addr
}

func (m *machine) check(addr, n int) {
	for _, r := range m.regions {
		if addr >= r[0] && addr+n <= r[1] {
			return
		}
	}
	panic(fmt.Sprintf("access of %d bytes at %#x outside every mapped region", n, addr))
}

func (m *machine) load(addr, n int) []byte {
	m.check(addr, n)
	return m.mem[addr : addr+n]
}

func (m *machine) store(addr int, b []byte) {
	m.check(addr, len(b))
	copy(m.mem[addr:], b)
}

func constValue(c operand.Op) uint64 {
	switch v := c.(type) {
	case operand.U8:
		return uint64(v)
	case operand.I8:
		return uint64(int64(v))
	case operand.U16:
		return uint64(v)
	case operand.U32:
		return uint64(v)
	case operand.I32:
		return uint64(int64(v))
	case operand.U64:
		return uint64(v)
	case operand.I64:
		return uint64(v)
	}
	panic(fmt.Sprintf("constant %T", c))
}

// call runs the function with the argument frame args and a local frame.
func (m *machine) call(args []byte) {
	m.args = m.alloc(len(args))
	copy(m.mem[m.args:], args)
	m.locals = m.alloc(m.fn.LocalSize + 8)
	// The instructions, and the index of the instruction after each label.
	var insts []*ir.Instruction
	labels := map[ir.Label]int{}
	for _, n := range m.fn.Nodes {
		switch n := n.(type) {
		case ir.Label:
			labels[n] = len(insts)
		case *ir.Instruction:
			insts = append(insts, n)
		}
	}
	for pc := 0; pc < len(insts); {
		inst := insts[pc]
		pc++
		m.steps++
		if m.steps > 200000 {
			panic(fmt.Sprintf("machine: too many steps at %d %s", pc, inst.Opcode))
		}
		if inst.IsBranch {
			target, ok := labels[*inst.TargetLabel()]
			if !ok {
				panic("machine: no label " + string(*inst.TargetLabel()))
			}
			taken := false
			switch inst.Opcode {
			case "JMP":
				taken = true
			case "JZ", "JE":
				taken = m.zf
			case "JAE", "JCC":
				taken = !m.cf
			case "JB", "JCS":
				taken = m.cf
			default:
				panic("machine: no branch " + inst.Opcode)
			}
			if taken {
				pc = target
			}
			continue
		}
		if inst.Opcode == "RET" {
			return
		}
		m.exec(inst)
	}
	panic("machine: ran off the end of the function")
}

// value is a 64-bit general-purpose register, memory operand or constant.
func (m *machine) value(op operand.Op) uint64 {
	switch x := op.(type) {
	case operand.Mem:
		return binary.LittleEndian.Uint64(m.load(m.addr(x), 8))
	case reg.Register:
		return m.gp[x.(reg.Physical).PhysicalIndex()]
	}
	return constValue(op)
}

// addr is the address of a memory operand (not a vector-indexed one).
func (m *machine) addr(x operand.Mem) int {
	a := x.Disp
	switch {
	case x.Symbol.Name != "" && x.Base == reg.StaticBase:
		g, ok := m.globals[x.Symbol.Name]
		if !ok {
			panic("machine: no global " + x.Symbol.Name)
		}
		return g + a
	case x.Base == reg.FramePointer:
		return m.args + a
	case x.Base == reg.StackPointer:
		return m.locals + a
	case x.Base != nil:
		a += int(m.gp[x.Base.(reg.Physical).PhysicalIndex()])
	}
	if x.Index != nil {
		a += int(m.gp[x.Index.(reg.Physical).PhysicalIndex()]) * int(x.Scale)
	}
	return a
}

func size(r reg.Register) int { return int(r.Size()) }

func isVec(op operand.Op) bool {
	r, ok := op.(reg.Register)
	return ok && r.(reg.Physical) != nil && r.Kind() == reg.KindVector
}

// read returns the n bytes of a register or memory operand.
func (m *machine) read(op operand.Op, n int) []byte {
	switch x := op.(type) {
	case operand.Mem:
		return append([]byte(nil), m.load(m.addr(x), n)...)
	case reg.Register:
		p := x.(reg.Physical)
		switch x.Kind() {
		case reg.KindVector:
			return append([]byte(nil), m.vec[p.PhysicalIndex()][:n]...)
		case reg.KindGP:
			var b [8]byte
			binary.LittleEndian.PutUint64(b[:], m.gp[p.PhysicalIndex()])
			return b[:n]
		}
	}
	panic(fmt.Sprintf("machine: cannot read %v", op))
}

// writeVec sets vector register r to b, zeroing its bits past len(b), as
// every VEX and EVEX instruction does.
func (m *machine) writeVec(r operand.Op, b []byte) {
	v := &m.vec[r.(reg.Physical).PhysicalIndex()]
	*v = [64]byte{}
	copy(v[:], b)
}

func dword(b []byte, i int) uint32       { return binary.LittleEndian.Uint32(b[4*i:]) }
func putDword(b []byte, i int, v uint32) { binary.LittleEndian.PutUint32(b[4*i:], v) }

// lanewise applies f to each 32-bit lane of two sources of width n.
func lanewise(a, b []byte, f func(x, y uint32) uint32) []byte {
	out := make([]byte, len(a))
	for i := 0; i < len(a)/4; i++ {
		putDword(out, i, f(dword(a, i), dword(b, i)))
	}
	return out
}

func (m *machine) exec(inst *ir.Instruction) {
	ops := inst.Operands
	op := inst.OpcodeWithSuffixes()
	if op == "VZEROUPPER" {
		for i := 0; i < 16; i++ {
			copy(m.vec[i][16:], make([]byte, 48))
		}
		return
	}
	last := ops[len(ops)-1]
	// The width of a vector instruction is its destination register's.
	w := 0
	if r, ok := last.(reg.Register); ok && r.Kind() == reg.KindVector {
		w = size(r)
	}
	bin := func(f func(x, y uint32) uint32) {
		m.writeVec(last, lanewise(m.read(ops[1], w), m.read(ops[0], w), f))
	}
	switch op {
	case "MOVQ", "MOVL":
		n := 8
		if op == "MOVL" {
			n = 4
		}
		v := binary.LittleEndian.Uint64(append(m.read(ops[0], n), make([]byte, 8-n)...))
		if x, ok := last.(operand.Mem); ok {
			m.store(m.addr(x), binary.LittleEndian.AppendUint64(nil, v)[:n])
		} else {
			m.gp[last.(reg.Physical).PhysicalIndex()] = v
		}
	case "SHLQ":
		r := &m.gp[last.(reg.Physical).PhysicalIndex()]
		*r <<= constValue(ops[0])
		m.zf = *r == 0
	case "XORL":
		r := &m.gp[last.(reg.Physical).PhysicalIndex()]
		*r = uint64(uint32(*r) ^ uint32(m.gp[ops[0].(reg.Physical).PhysicalIndex()]))
		m.zf = *r == 0
	case "CMPL": // CMPL a, b sets the flags of a - b
		a, b := int32(binary.LittleEndian.Uint32(m.read(ops[0], 4))), int32(binary.LittleEndian.Uint32(m.read(ops[1], 4)))
		m.zf, m.le = a == b, a <= b
	case "TESTQ":
		m.zf = m.value(ops[0])&m.value(ops[1]) == 0
	case "INCQ":
		m.gp[last.(reg.Physical).PhysicalIndex()]++
	case "CMOVQLE":
		if m.le {
			m.gp[last.(reg.Physical).PhysicalIndex()] = binary.LittleEndian.Uint64(m.read(ops[0], 8))
		}
	case "CMOVQEQ":
		if m.zf {
			m.gp[last.(reg.Physical).PhysicalIndex()] = binary.LittleEndian.Uint64(m.read(ops[0], 8))
		}
	case "PREFETCHT0":
		m.addr(ops[0].(operand.Mem)) // a hint: no access, no fault
	case "LEAQ":
		m.gp[last.(reg.Physical).PhysicalIndex()] = uint64(m.addr(ops[0].(operand.Mem)))
	case "CMPQ": // CMPQ a, b sets the flags of a - b
		a, b := m.value(ops[0]), m.value(ops[1])
		m.zf, m.cf = a == b, a < b
	case "ADDQ", "ANDQ":
		var src uint64
		if r, ok := ops[0].(reg.Register); ok {
			src = m.gp[r.(reg.Physical).PhysicalIndex()]
		} else {
			src = constValue(ops[0])
		}
		r := &m.gp[last.(reg.Physical).PhysicalIndex()]
		switch op {
		case "ADDQ":
			*r += src
			m.zf = *r == 0
		case "ANDQ":
			*r &= src
			m.zf = *r == 0
		}
	case "VMOVDQU", "VMOVDQU32", "VMOVDQU64", "VMOVDQA32":
		if len(ops) == 3 { // a masked store: VMOVDQU32 src, k, mem
			src := m.read(ops[0], size(ops[0].(reg.Register)))
			k := m.k[ops[1].(reg.Physical).PhysicalIndex()]
			a := m.addr(last.(operand.Mem))
			for i := 0; i < len(src)/4; i++ {
				if k>>i&1 != 0 {
					m.store(a+4*i, src[4*i:4*i+4])
				}
			}
			return
		}
		if x, ok := last.(operand.Mem); ok {
			m.store(m.addr(x), m.read(ops[0], size(ops[0].(reg.Register))))
			return
		}
		m.writeVec(last, m.read(ops[0], w))
	case "VMOVD":
		m.writeVec(last, m.read(ops[0], 4))
	case "VPBROADCASTD":
		v := dword(m.read(ops[0], 4), 0)
		out := make([]byte, w)
		for i := 0; i < w/4; i++ {
			putDword(out, i, v)
		}
		m.writeVec(last, out)
	case "VPADDD":
		bin(func(x, y uint32) uint32 { return x + y })
	case "VPADDD.BCST":
		y := dword(m.read(ops[0], 4), 0)
		a := m.read(ops[1], w)
		m.writeVec(last, lanewise(a, a, func(x, _ uint32) uint32 { return x + y }))
	case "VPXOR", "VPXORD":
		bin(func(x, y uint32) uint32 { return x ^ y })
	case "VPAND", "VPANDD":
		bin(func(x, y uint32) uint32 { return x & y })
	case "VPOR", "VPORD":
		bin(func(x, y uint32) uint32 { return x | y })
	case "VPANDN", "VPANDND": // dst = ^second & first (Go order)
		bin(func(x, y uint32) uint32 { return ^x & y })
	case "VPCMPGTD": // VPCMPGTD b, a, dst: dst = a > b (signed), lanes or opmask bits
		b, a := m.read(ops[0], size(ops[1].(reg.Register))), m.read(ops[1], size(ops[1].(reg.Register)))
		if k, ok := last.(reg.Register); ok && k.Kind() == reg.KindOpmask {
			var bits uint64
			for i := 0; i < len(a)/4; i++ {
				if int32(dword(a, i)) > int32(dword(b, i)) {
					bits |= 1 << i
				}
			}
			m.k[k.(reg.Physical).PhysicalIndex()] = bits
			return
		}
		m.writeVec(last, lanewise(a, b, func(x, y uint32) uint32 {
			if int32(x) > int32(y) {
				return ^uint32(0)
			}
			return 0
		}))
	case "VPCMPEQD":
		bin(func(x, y uint32) uint32 {
			if x == y {
				return ^uint32(0)
			}
			return 0
		})
	case "VPSLLD", "VPSRLD", "VPROLD":
		n := uint(constValue(ops[0]))
		a := m.read(ops[1], w)
		m.writeVec(last, lanewise(a, a, func(x, _ uint32) uint32 {
			switch op {
			case "VPSLLD":
				return x << n
			case "VPSRLD":
				return x >> n
			}
			return bits.RotateLeft32(x, int(n))
		}))
	case "VPTERNLOGD": // VPTERNLOGD imm, c, b, a: a = f(a, b, c)
		imm := uint32(constValue(ops[0]))
		c, b, a := m.read(ops[1], w), m.read(ops[2], w), m.read(ops[3], w)
		out := make([]byte, w)
		for i := 0; i < w/4; i++ {
			x, y, z := dword(a, i), dword(b, i), dword(c, i)
			var r uint32
			for bit := 0; bit < 32; bit++ {
				idx := (x>>bit&1)<<2 | (y>>bit&1)<<1 | z>>bit&1
				r |= (imm >> idx & 1) << bit
			}
			putDword(out, i, r)
		}
		m.writeVec(last, out)
	case "VPSHUFB":
		idx, a := m.read(ops[0], w), m.read(ops[1], w)
		out := make([]byte, w)
		for i := range out {
			if idx[i]&0x80 == 0 {
				out[i] = a[i&^15+int(idx[i]&15)]
			}
		}
		m.writeVec(last, out)
	case "VPUNPCKLDQ", "VPUNPCKHDQ", "VPUNPCKLQDQ", "VPUNPCKHQDQ":
		b, a := m.read(ops[0], w), m.read(ops[1], w)
		el := 4
		if op == "VPUNPCKLQDQ" || op == "VPUNPCKHQDQ" {
			el = 8
		}
		half := 0
		if op == "VPUNPCKHDQ" || op == "VPUNPCKHQDQ" {
			half = 8
		}
		out := make([]byte, w)
		for p := 0; p < w; p += 16 {
			for i := 0; i < 8/el; i++ {
				copy(out[p+2*el*i:], a[p+half+el*i:p+half+el*(i+1)])
				copy(out[p+2*el*i+el:], b[p+half+el*i:p+half+el*(i+1)])
			}
		}
		m.writeVec(last, out)
	case "VINSERTI128", "VINSERTI32X4", "VINSERTI64X4":
		n := 16
		if op == "VINSERTI64X4" {
			n = 32
		}
		q := int(constValue(ops[0]))
		out := m.read(ops[2], w)
		copy(out[n*q:], m.read(ops[1], n))
		m.writeVec(last, out)
	case "KMOVW":
		m.k[last.(reg.Physical).PhysicalIndex()] = uint64(uint16(binary.LittleEndian.Uint32(append(m.read(ops[0], 4), 0, 0, 0, 0))))
	case "KXNORW":
		a := m.k[ops[0].(reg.Physical).PhysicalIndex()]
		b := m.k[ops[1].(reg.Physical).PhysicalIndex()]
		m.k[last.(reg.Physical).PhysicalIndex()] = uint64(uint16(^(a ^ b)))
	case "VPGATHERQD":
		m.gather(ops)
	default:
		panic("machine: no instruction " + op)
	}
}

// gather is VPGATHERQD: the AVX2 form (mask xmm, vm64y, xmm) and the
// AVX-512 one (vm64z, k, ymm). Each element whose mask is set loads the
// 32-bit word at base + index*scale + disp; the mask is cleared.
func (m *machine) gather(ops []operand.Op) {
	var x operand.Mem
	var masked func(i int) bool
	var clearMask func()
	dst := ops[2]
	if isVec(ops[0]) {
		mask := ops[0].(reg.Physical).PhysicalIndex()
		x = ops[1].(operand.Mem)
		masked = func(i int) bool { return dword(m.vec[mask][:], i)>>31 != 0 }
		clearMask = func() { m.vec[mask] = [64]byte{} }
	} else {
		x = ops[0].(operand.Mem)
		k := ops[1].(reg.Physical).PhysicalIndex()
		masked = func(i int) bool { return m.k[k]>>i&1 != 0 }
		clearMask = func() { m.k[k] = 0 }
	}
	index := m.read(x.Index, size(x.Index))
	base := int(m.gp[x.Base.(reg.Physical).PhysicalIndex()])
	n := size(x.Index) / 8
	out := m.read(dst, size(dst.(reg.Register)))
	for i := 0; i < n; i++ {
		if masked(i) {
			a := base + int(binary.LittleEndian.Uint64(index[8*i:]))*int(x.Scale) + x.Disp
			putDword(out, i, dword(m.load(a, 4), 0))
		}
	}
	clearMask()
	m.writeVec(dst, out)
}
