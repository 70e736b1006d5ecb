// Package x86emu executes amd64 functions as avo holds them before they are
// printed (ir.Function), with the semantics of the Intel SDM (vol. 2) for the
// instructions the generators' kernels use: the scalar ones around the
// loops, SSE, AVX, AVX2 and AVX-512 (with opmasks, broadcasts and
// gathers), PCLMULQDQ and the SHA extensions. It lets the tests run kernels
// that no CPU or qemu model here executes (AVX-512, VPCLMULQDQ, and SHA-NI
// where the host lacks it) against the references of internal/ref.
//
// Memory is one byte array of regions the test maps (Alloc), each either
// read-only or writable; every access is checked against them, so a kernel
// that reads or writes outside its arguments fails. The argument frame is
// kept by avo's parameter names (Args["p_len"], Args["ret"]). It checks
// neither encodings nor timing: the assembler makes the former, and the
// encoding tests and native runs check them.
package x86emu

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"reflect"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/internal/ref"
)

// Compile runs avo's passes on the file of ctx, as a generator does before
// printing it, so that registers are physical and the frame is laid out.
func Compile(ctx *build.Context) (*ir.File, error) {
	f, err := ctx.Result()
	if err != nil {
		return nil, err
	}
	return f, pass.Compile.Execute(f)
}

// Function returns the function called name in f, or nil.
func Function(f *ir.File, name string) *ir.Function {
	for _, fn := range f.Functions() {
		if fn.Name == name {
			return fn
		}
	}
	return nil
}

// CPU is the emulated processor and its memory.
type CPU struct {
	GP  [16]uint64
	Vec [32][64]byte // ZMM0..ZMM31, byte 0 the lowest
	K   [8]uint64    // the opmask registers
	// Args holds the argument frame by avo's parameter names: h, p_base,
	// p_len, ret.
	Args map[string]uint64
	// Counts counts the executed instructions by opcode.
	Counts map[string]int

	zf, cf, lt bool // zero, carry (unsigned less), signed less
	mem        []byte
	regions    []region
	globals    map[string]uint64
	locals     uint64
	executed   int
}

type region struct {
	name       string
	base, size uint64
	writable   bool
}

const memBase = 4096 // no region starts below, so that 0 is never valid

// New returns a CPU with the read-only data of f mapped.
func New(f *ir.File) *CPU {
	m := &CPU{Args: map[string]uint64{}, Counts: map[string]int{}, globals: map[string]uint64{}, mem: make([]byte, memBase)}
	for _, s := range f.Sections {
		g, ok := s.(*ir.Global)
		if !ok {
			continue
		}
		b := make([]byte, g.Size)
		for _, d := range g.Data {
			n := d.Value.(interface{ Bytes() int }).Bytes()
			v := Const(d.Value)
			for i := 0; i < n; i++ {
				b[d.Offset+i] = byte(v >> (8 * i))
			}
		}
		m.globals[g.Symbol.Name] = m.Alloc(g.Symbol.Name, b, false)
	}
	return m
}

// Alloc maps a copy of b, 64-byte aligned with a gap after it (so that an
// access one past it fails), and returns its address.
func (m *CPU) Alloc(name string, b []byte, writable bool) uint64 {
	addr := (len(m.mem) + 63) &^ 63
	m.mem = append(m.mem, make([]byte, addr-len(m.mem))...)
	m.mem = append(append(m.mem, b...), make([]byte, 64)...)
	m.regions = append(m.regions, region{name, uint64(addr), uint64(len(b)), writable})
	return uint64(addr)
}

// Bytes returns the n bytes of memory at addr, which must be mapped.
func (m *CPU) Bytes(addr uint64, n int) []byte {
	m.check(addr, uint64(n), false)
	return m.mem[addr : addr+uint64(n)]
}

func (m *CPU) check(addr, n uint64, write bool) {
	for _, r := range m.regions {
		if addr >= r.base && addr+n <= r.base+r.size {
			if write && !r.writable {
				panic(fmt.Sprintf("x86emu: write of %d bytes to read-only %s at +%d", n, r.name, addr-r.base))
			}
			return
		}
	}
	panic(fmt.Sprintf("x86emu: access of %d bytes at %#x is outside every mapped region", n, addr))
}

// Const is the value of a constant operand (or datum), sign-extended.
func Const(op operand.Op) uint64 {
	switch v := reflect.ValueOf(op); v.Kind() {
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint()
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return uint64(v.Int())
	}
	panic(fmt.Sprintf("x86emu: %v is not a constant", op))
}

// Run executes fn from its first instruction to RET, failing (by panic)
// after limit instructions.
func (m *CPU) Run(fn *ir.Function, limit int) {
	if fn.LocalSize > 0 && m.locals == 0 {
		m.locals = m.Alloc("locals", make([]byte, fn.LocalSize+8), true)
	}
	labels := map[ir.Label]int{}
	for i, n := range fn.Nodes {
		if l, ok := n.(ir.Label); ok {
			labels[l] = i
		}
	}
	for pc := 0; pc < len(fn.Nodes); pc++ {
		in, ok := fn.Nodes[pc].(*ir.Instruction)
		if !ok {
			continue
		}
		if m.executed++; m.executed > limit {
			panic(fmt.Sprintf("x86emu: more than %d instructions in %s", limit, fn.Name))
		}
		op := in.OpcodeWithSuffixes()
		m.Counts[op]++
		if !in.IsBranch {
			if op == "RET" {
				return
			}
			m.exec(op, in.Operands)
			continue
		}
		taken := map[string]bool{"JMP": true, "JZ": m.zf, "JE": m.zf, "JNZ": !m.zf, "JNE": !m.zf,
			"JB": m.cf, "JCS": m.cf, "JAE": !m.cf, "JCC": !m.cf, "JA": !m.cf && !m.zf, "JBE": m.cf || m.zf}
		t, known := taken[op]
		if !known {
			panic("x86emu: no branch " + op)
		}
		if t {
			l, ok := labels[*in.TargetLabel()]
			if !ok {
				panic("x86emu: no label " + string(*in.TargetLabel()))
			}
			pc = l
		}
	}
	panic("x86emu: ran off the end of " + fn.Name)
}

func idx(op operand.Op) int { return int(op.(reg.Physical).PhysicalIndex()) }

func isVec(op operand.Op) bool {
	r, ok := op.(reg.Physical)
	return ok && r.Kind() == reg.KindVector
}

func isMask(op operand.Op) bool {
	r, ok := op.(reg.Physical)
	return ok && r.Kind() == reg.KindOpmask
}

func size(op operand.Op) int { return int(op.(reg.Register).Size()) }

// addr is the address of a memory operand that is not in the argument frame.
func (m *CPU) addr(x operand.Mem) uint64 {
	a := uint64(x.Disp)
	switch {
	case x.Base == reg.StaticBase:
		g, ok := m.globals[x.Symbol.Name]
		if !ok {
			panic("x86emu: no global " + x.Symbol.Name)
		}
		return g + a
	case x.Base == reg.StackPointer:
		return m.locals + a
	case x.Base != nil:
		a += m.GP[idx(x.Base)]
	}
	if x.Index != nil {
		a += m.GP[idx(x.Index)] * uint64(x.Scale)
	}
	return a
}

// read returns n bytes of a register, memory operand or constant.
func (m *CPU) read(op operand.Op, n int) []byte {
	out := make([]byte, n)
	var v uint64 // a scalar source
	switch x := op.(type) {
	case operand.Mem:
		if x.Base != reg.FramePointer {
			a := m.addr(x)
			m.check(a, uint64(n), false)
			copy(out, m.mem[a:])
			return out
		}
		var ok bool
		if v, ok = m.Args[x.Symbol.Name]; !ok {
			panic("x86emu: no argument " + x.Symbol.Name)
		}
	case reg.Physical:
		switch x.Kind() {
		case reg.KindVector:
			copy(out, m.Vec[x.PhysicalIndex()][:])
			return out
		case reg.KindOpmask:
			v = m.K[x.PhysicalIndex()]
		default:
			v = m.GP[x.PhysicalIndex()]
		}
	default:
		v = Const(op)
	}
	copy(out, binary.LittleEndian.AppendUint64(nil, v))
	return out
}

// u64 reads a scalar operand of n bytes (at most 8).
func (m *CPU) u64(op operand.Op, n int) uint64 {
	return binary.LittleEndian.Uint64(append(m.read(op, n), make([]byte, 8)...))
}

// write sets op to b. A vector register written by a VEX or EVEX
// instruction (zero) is cleared above len(b); by an SSE one it keeps its
// upper bytes. A write of 4 bytes to a general register clears its upper
// half, as the CPU does.
func (m *CPU) write(op operand.Op, b []byte, zero bool) {
	switch x := op.(type) {
	case operand.Mem:
		if x.Base == reg.FramePointer {
			m.Args[x.Symbol.Name] = binary.LittleEndian.Uint64(append(append([]byte(nil), b...), make([]byte, 8)...))
			return
		}
		a := m.addr(x)
		m.check(a, uint64(len(b)), true)
		copy(m.mem[a:], b)
	case reg.Physical:
		switch x.Kind() {
		case reg.KindVector:
			v := &m.Vec[x.PhysicalIndex()]
			if zero {
				*v = [64]byte{}
			}
			copy(v[:], b)
		case reg.KindOpmask:
			m.K[x.PhysicalIndex()] = binary.LittleEndian.Uint64(append(append([]byte(nil), b...), make([]byte, 8)...))
		default:
			v := m.GP[x.PhysicalIndex()]
			if len(b) == 4 {
				v = 0
			}
			var w [8]byte
			binary.LittleEndian.PutUint64(w[:], v)
			copy(w[:], b)
			m.GP[x.PhysicalIndex()] = binary.LittleEndian.Uint64(w[:])
		}
	default:
		panic(fmt.Sprintf("x86emu: cannot write %s", op.Asm()))
	}
}

func (m *CPU) setGP(op operand.Op, v uint64, n int) {
	m.write(op, binary.LittleEndian.AppendUint64(nil, v)[:n], false)
	m.zf, m.lt = v<<(64-8*n) == 0, int64(v<<(64-8*n)) < 0
}

func dword(b []byte, i int) uint32       { return binary.LittleEndian.Uint32(b[4*i:]) }
func putDword(b []byte, i int, v uint32) { binary.LittleEndian.PutUint32(b[4*i:], v) }
func qword(b []byte, i int) uint64       { return binary.LittleEndian.Uint64(b[8*i:]) }
func putQword(b []byte, i int, v uint64) { binary.LittleEndian.PutUint64(b[8*i:], v) }

// dwords applies f to each 32-bit lane of a and b, of a's length.
func dwords(a, b []byte, f func(x, y uint32) uint32) []byte {
	out := make([]byte, len(a))
	for i := 0; i < len(a)/4; i++ {
		putDword(out, i, f(dword(a, i), dword(b, i)))
	}
	return out
}

// lanes applies f to each 128-bit lane of a and b, as two 64-bit halves.
func lanes(a, b []byte, f func(x, y [2]uint64) [2]uint64) []byte {
	out := make([]byte, len(a))
	for i := 0; i+16 <= len(a); i += 16 {
		r := f([2]uint64{qword(a[i:], 0), qword(a[i:], 1)}, [2]uint64{qword(b[i:], 0), qword(b[i:], 1)})
		putQword(out[i:], 0, r[0])
		putQword(out[i:], 1, r[1])
	}
	return out
}

// exec executes one instruction that is not a branch, ops in Go's order
// (sources first, the destination last).
func (m *CPU) exec(op string, ops []operand.Op) {
	if op == "VZEROUPPER" {
		for i := 0; i < 16; i++ {
			clear(m.Vec[i][16:])
		}
		return
	}
	last := ops[len(ops)-1]
	// A vector instruction's width is its destination's, or for a store
	// its source's.
	w := 16
	switch {
	case isVec(last):
		w = size(last)
	case isVec(ops[0]):
		w = size(ops[0])
	}
	sse := func(f func(a, b []byte) []byte) { m.write(last, f(m.read(last, 16), m.read(ops[0], 16)), false) }
	vex := func(f func(a, b []byte) []byte) { m.write(last, f(m.read(ops[1], w), m.read(ops[0], w)), true) }
	bin := func(f func(x, y uint32) uint32) { vex(func(a, b []byte) []byte { return dwords(a, b, f) }) }
	cmpMask := func(f func(x, y uint32) bool) func(x, y uint32) uint32 {
		return func(x, y uint32) uint32 {
			if f(x, y) {
				return ^uint32(0)
			}
			return 0
		}
	}
	switch op {
	// General registers.
	case "MOVQ", "MOVL", "VMOVQ", "VMOVD", "MOVBQZX":
		n := map[string]int{"MOVQ": 8, "VMOVQ": 8, "MOVL": 4, "VMOVD": 4, "MOVBQZX": 1}[op]
		b := m.read(ops[0], n)
		if isVec(last) {
			m.write(last, append(b, make([]byte, 16-n)...), op[0] == 'V')
			return
		}
		if op == "MOVBQZX" {
			b = append(b, make([]byte, 7)...)
		}
		m.write(last, b, false)
	case "BSWAPQ":
		m.GP[idx(last)] = bits.ReverseBytes64(m.GP[idx(last)])
	case "BSWAPL":
		m.GP[idx(last)] = uint64(bits.ReverseBytes32(uint32(m.GP[idx(last)])))
	case "LEAQ":
		m.GP[idx(last)] = m.addr(ops[0].(operand.Mem))
	case "XORQ", "ORQ", "ANDQ", "ADDQ", "SUBQ", "SHLQ", "SHRQ", "XORL":
		n := 8
		if op == "XORL" {
			n = 4
		}
		a, b := m.u64(last, n), m.u64(ops[0], n)
		v := map[string]uint64{"XORQ": a ^ b, "XORL": a ^ b, "ORQ": a | b, "ANDQ": a & b, "ADDQ": a + b, "SUBQ": a - b,
			"SHLQ": a << (b & 63), "SHRQ": a >> (b & 63)}[op]
		m.setGP(last, v, n)
		m.cf = op == "ADDQ" && v < a || op == "SUBQ" && a < b
	case "NEGQ":
		v := -m.GP[idx(last)]
		m.setGP(last, v, 8)
		m.cf = v != 0
	case "INCQ", "DECQ":
		d := map[string]uint64{"INCQ": 1, "DECQ": ^uint64(0)}[op]
		m.setGP(last, m.GP[idx(last)]+d, 8)
	case "CMPQ", "CMPL": // CMPQ a, b sets the flags of a - b
		n := map[string]int{"CMPQ": 8, "CMPL": 4}[op]
		a, b := m.u64(ops[0], n), m.u64(ops[1], n)
		m.zf, m.cf, m.lt = a == b, a < b, int64(a<<(64-8*n)) < int64(b<<(64-8*n))
	case "TESTQ":
		m.zf, m.cf = m.u64(ops[0], 8)&m.u64(ops[1], 8) == 0, false
	case "CMOVQEQ", "CMOVQLE":
		if m.zf || op == "CMOVQLE" && m.lt {
			m.write(last, m.read(ops[0], 8), false)
		}
	case "PREFETCHT0":
		m.addr(ops[0].(operand.Mem)) // a hint: no access, no fault

	// Vector moves.
	case "MOVOU", "MOVO":
		m.write(last, m.read(ops[0], 16), false)
	case "MOVSD": // the low 64 bits: between registers the rest of dst stays, a load clears it
		b := m.read(ops[0], 8)
		switch {
		case isVec(ops[0]) && isVec(last):
			b = append(b, m.read(last, 16)[8:]...)
		case isVec(last):
			b = append(b, make([]byte, 8)...)
		}
		m.write(last, b, false)
	case "VMOVDQU", "VMOVDQA", "VMOVDQU32", "VMOVDQA32", "VMOVDQU64", "VMOVDQA64":
		if len(ops) == 3 { // a masked store: VMOVDQU32 src, k, mem
			src, k, a := m.read(ops[0], w), m.K[idx(ops[1])], m.addr(last.(operand.Mem))
			for i := 0; i < w/4; i++ {
				if k>>i&1 != 0 {
					m.write(operand.Mem{Base: nil, Disp: int(a) + 4*i}, src[4*i:4*i+4], false)
				}
			}
			return
		}
		m.write(last, m.read(ops[0], w), true)
	case "VPBROADCASTD", "VPBROADCASTQ", "VBROADCASTI128", "VBROADCASTI32X4":
		n := map[string]int{"VPBROADCASTD": 4, "VPBROADCASTQ": 8, "VBROADCASTI128": 16, "VBROADCASTI32X4": 16}[op]
		src, out := m.read(ops[0], n), make([]byte, w)
		for i := range out {
			out[i] = src[i%n]
		}
		m.write(last, out, true)
	case "VEXTRACTI128", "VEXTRACTI64X4":
		n := size(last)
		m.write(last, m.read(ops[1], 2*n)[n*int(Const(ops[0])):][:n], true)
	case "VINSERTI128", "VINSERTI32X4", "VINSERTI64X4":
		n := map[string]int{"VINSERTI128": 16, "VINSERTI32X4": 16, "VINSERTI64X4": 32}[op]
		out := m.read(ops[2], w)
		copy(out[n*int(Const(ops[0])):], m.read(ops[1], n))
		m.write(last, out, true)
	case "PINSRD", "VPINSRQ": // $i, r/m, [src,] dst: lane i of dst set
		n, src := 4, last
		if op == "VPINSRQ" {
			n, src = 8, ops[2]
		}
		out := m.read(src, 16)
		copy(out[n*(int(Const(ops[0]))%(16/n)):], m.read(ops[1], n))
		m.write(last, out, op[0] == 'V')
	case "PEXTRD": // $i, xmm, r/m32
		m.write(last, m.read(ops[1], 16)[4*(Const(ops[0])&3):][:4], false)

	// Lane-wise arithmetic and logic.
	case "PXOR":
		sse(func(a, b []byte) []byte { return dwords(a, b, func(x, y uint32) uint32 { return x ^ y }) })
	case "PADDL":
		sse(func(a, b []byte) []byte { return dwords(a, b, func(x, y uint32) uint32 { return x + y }) })
	case "VPXOR", "VPXORD":
		bin(func(x, y uint32) uint32 { return x ^ y })
	case "VPAND", "VPANDD":
		bin(func(x, y uint32) uint32 { return x & y })
	case "VPOR", "VPORD":
		if len(ops) == 4 { // merge-masked (check.go)
			m.execCheck(op, ops, w)
			return
		}
		bin(func(x, y uint32) uint32 { return x | y })
	case "VPANDN", "VPANDND": // dst = ^a & b, a the second operand in Go's order
		bin(func(x, y uint32) uint32 { return ^x & y })
	case "VPADDD":
		bin(func(x, y uint32) uint32 { return x + y })
	case "VPADDD.BCST":
		y := dword(m.read(ops[0], 4), 0)
		a := m.read(ops[1], w)
		m.write(last, dwords(a, a, func(x, _ uint32) uint32 { return x + y }), true)
	case "VPCMPEQD":
		bin(cmpMask(func(x, y uint32) bool { return x == y }))
	case "VPCMPGTD": // VPCMPGTD b, a, dst: a > b (signed), in lanes or opmask bits
		gt := func(x, y uint32) bool { return int32(x) > int32(y) }
		if !isMask(last) {
			bin(cmpMask(gt))
			return
		}
		n := size(ops[1])
		a, b := m.read(ops[1], n), m.read(ops[0], n)
		var k uint64
		for i := 0; i < n/4; i++ {
			if gt(dword(a, i), dword(b, i)) {
				k |= 1 << i
			}
		}
		m.K[idx(last)] = k
	case "PSLLQ", "PSRLQ", "VPSLLQ", "VPSRLQ": // $n, [src,] dst: each 64-bit element, 0 for n > 63
		n, a := Const(ops[0]), m.read(ops[len(ops)-2], w)
		if len(ops) == 2 {
			a = m.read(last, w)
		}
		out := make([]byte, w)
		for i := 0; i < w/8 && n < 64; i++ {
			v := qword(a, i) << n
			if op[len(op)-3] == 'R' {
				v = qword(a, i) >> n
			}
			putQword(out, i, v)
		}
		m.write(last, out, op[0] == 'V')
	case "VPTERNLOGD", "VPTERNLOGQ": // VPTERNLOGD imm, c, b, a: a = f(a, b, c), bit 4a+2b+c of imm (unmasked, the element size does not matter)
		imm := Const(ops[0])
		c, b, a := m.read(ops[1], w), m.read(ops[2], w), m.read(ops[3], w)
		out := make([]byte, w)
		for i := range out {
			for bit := 0; bit < 8; bit++ {
				k := (a[i]>>bit&1)<<2 | (b[i]>>bit&1)<<1 | c[i]>>bit&1
				out[i] |= byte(imm>>k&1) << bit
			}
		}
		m.write(last, out, true)

	// Shuffles, within each 128-bit lane.
	case "PSHUFB", "VPSHUFB":
		idx, src, zero := m.read(ops[0], w), m.read(ops[len(ops)-2], w), op[0] == 'V'
		if !zero {
			src = m.read(last, 16)
		}
		out := make([]byte, w)
		for i := range out {
			if idx[i]&0x80 == 0 {
				out[i] = src[i&^15+int(idx[i]&15)]
			}
		}
		m.write(last, out, zero)
	case "PSHUFD", "VPSHUFD":
		imm, a := Const(ops[0]), m.read(ops[1], w)
		out := make([]byte, w)
		for i := 0; i < w/4; i++ {
			putDword(out, i, dword(a, i&^3+int(imm>>(2*(i&3))&3)))
		}
		m.write(last, out, op[0] == 'V')
	case "PUNPCKLQDQ", "PUNPCKHQDQ": // [dst's low half, src's low half], or the high halves (H)
		h := map[string]int{"PUNPCKHQDQ": 1}[op]
		sse(func(a, b []byte) []byte {
			return lanes(a, b, func(x, y [2]uint64) [2]uint64 { return [2]uint64{x[h], y[h]} })
		})
	case "VBLENDPD", "VPBLENDD": // $imm, b, a, dst: element i from b where bit i of imm is set, else from a
		el := map[string]int{"VBLENDPD": 8, "VPBLENDD": 4}[op]
		imm, b, out := Const(ops[0]), m.read(ops[1], w), m.read(ops[2], w)
		for i := 0; i < w/el; i++ {
			if imm>>i&1 != 0 {
				copy(out[el*i:el*(i+1)], b[el*i:])
			}
		}
		m.write(last, out, true)
	case "VPUNPCKLDQ", "VPUNPCKHDQ", "VPUNPCKLQDQ", "VPUNPCKHQDQ":
		b, a := m.read(ops[0], w), m.read(ops[1], w)
		el := map[string]int{"VPUNPCKLDQ": 4, "VPUNPCKHDQ": 4, "VPUNPCKLQDQ": 8, "VPUNPCKHQDQ": 8}[op]
		half := map[string]int{"VPUNPCKHDQ": 8, "VPUNPCKHQDQ": 8}[op] // the high half of each lane
		out := make([]byte, w)
		for p := 0; p < w; p += 16 {
			for i := 0; i < 8/el; i++ {
				copy(out[p+2*el*i:], a[p+half+el*i:p+half+el*(i+1)])
				copy(out[p+2*el*i+el:], b[p+half+el*i:p+half+el*(i+1)])
			}
		}
		m.write(last, out, true)

	// Carry-less multiplication: imm bit 0 picks the half of the first
	// source in Intel's order (the second operand in Go's), bit 4 the other's.
	case "PCLMULQDQ", "VPCLMULQDQ":
		imm, a, b, zero := Const(ops[0]), m.read(ops[2], w), m.read(ops[1], w), op[0] == 'V'
		m.write(last, lanes(a, b, func(x, y [2]uint64) [2]uint64 {
			hi, lo := ref.ClMul64(x[imm&1], y[imm>>4&1])
			return [2]uint64{lo, hi}
		}), zero)

	// The SHA extensions.
	case "SHA1RNDS4", "SHA1NEXTE", "SHA1MSG1", "SHA1MSG2":
		var d, s [4]uint32
		dst, src := m.read(last, 16), m.read(ops[len(ops)-2], 16)
		for i := range d {
			d[i], s[i] = dword(dst, i), dword(src, i)
		}
		var r [4]uint32
		switch op {
		case "SHA1RNDS4":
			r = sha1rnds4(d, s, int(Const(ops[0])&3))
		case "SHA1NEXTE":
			r, r[3] = s, s[3]+bits.RotateLeft32(d[3], 30)
		case "SHA1MSG1":
			r = sha1msg1(d, s)
		case "SHA1MSG2":
			r = sha1msg2(d, s)
		}
		out := make([]byte, 16)
		for i, v := range r {
			putDword(out, i, v)
		}
		m.write(last, out, false)

	// Opmasks and gathers.
	case "KMOVW":
		m.K[idx(last)] = m.u64(ops[0], 2)
	case "KXNORW":
		m.K[idx(last)] = uint64(uint16(^(m.K[idx(ops[0])] ^ m.K[idx(ops[1])])))
	case "VPGATHERQD":
		m.gather(ops)
	default:
		if !m.execCheck(op, ops, w) {
			panic("x86emu: no instruction " + op)
		}
	}
}

// sha1rnds4 is SHA1RNDS4: four rounds on A..D (d, A in the top lane) with
// W0+E, W1, W2, W3 in s from the top, the function and constant of f.
func sha1rnds4(d, s [4]uint32, f int) [4]uint32 {
	a, b, c, dd, e := d[3], d[2], d[1], d[0], uint32(0)
	k := [4]uint32{0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6}[f]
	for i := 0; i < 4; i++ {
		fn := b ^ c ^ dd
		switch f {
		case 0:
			fn = b&c ^ ^b&dd
		case 2:
			fn = b&c ^ b&dd ^ c&dd
		}
		t := fn + bits.RotateLeft32(a, 5) + s[3-i] + e + k
		a, b, c, dd, e = t, a, bits.RotateLeft32(b, 30), c, dd
	}
	return [4]uint32{dd, c, b, a}
}

// sha1msg1 is SHA1MSG1: with W0..W3 the lanes of d from the top and W4, W5
// the top two of s, W2^W0, W3^W1, W4^W2, W5^W3 from the top.
func sha1msg1(d, s [4]uint32) [4]uint32 {
	return [4]uint32{s[2] ^ d[0], s[3] ^ d[1], d[0] ^ d[2], d[1] ^ d[3]}
}

// sha1msg2 is SHA1MSG2: with W13..W15 the lower three lanes of s from the
// top, W16 = rol1(d's top ^ W13), W17 and W18 likewise, W19 = rol1(d's
// bottom ^ W16); W16..W19 from the top.
func sha1msg2(d, s [4]uint32) [4]uint32 {
	w16 := bits.RotateLeft32(d[3]^s[2], 1)
	w17 := bits.RotateLeft32(d[2]^s[1], 1)
	w18 := bits.RotateLeft32(d[1]^s[0], 1)
	return [4]uint32{bits.RotateLeft32(d[0]^w16, 1), w18, w17, w16}
}

// gather is VPGATHERQD: the AVX2 form (mask xmm, vm64y, xmm) and the
// AVX-512 one (vm64z, k, ymm). Each element whose mask is set loads the
// 32-bit word at base + index*scale + disp; the mask is cleared.
func (m *CPU) gather(ops []operand.Op) {
	var x operand.Mem
	var masked func(i int) bool
	var clearMask func()
	dst := ops[2]
	if isVec(ops[0]) {
		mask := idx(ops[0])
		x = ops[1].(operand.Mem)
		masked = func(i int) bool { return dword(m.Vec[mask][:], i)>>31 != 0 }
		clearMask = func() { m.Vec[mask] = [64]byte{} }
	} else {
		x = ops[0].(operand.Mem)
		k := idx(ops[1])
		masked = func(i int) bool { return m.K[k]>>i&1 != 0 }
		clearMask = func() { m.K[k] = 0 }
	}
	index := m.read(x.Index, size(x.Index))
	base := m.GP[idx(x.Base)]
	out := m.read(dst, size(dst))
	for i := 0; i < size(x.Index)/8; i++ {
		if masked(i) {
			a := base + qword(index, i)*uint64(x.Scale) + uint64(x.Disp)
			m.check(a, 4, false)
			copy(out[4*i:4*i+4], m.mem[a:])
		}
	}
	clearMask()
	m.write(dst, out, true)
}
