package sha1x86

import (
	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/frame32"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// The one-block kernels for 386: the same description, the same vector
// lowering and the same rounds as on amd64, in half the registers.
//
// Of the eight XMM registers the byte-swap indexes keep one, which leaves
// the description seven (sha1sched.SpillRegisters): it keeps the window's
// last five groups in registers and spills the older ones, as it decides
// (Backend.Registers). Of the seven general registers, AX..DI and BP, the
// rounds take all: a..e, and carry and spare, which pass b and part of the
// next f from round to round (vars). So what amd64 keeps in registers
// stays in memory: the state in the caller's h, which each block adds
// into and stores; the block pointer and the end in the frame; K in the
// frame too, copied there once (the loop then reaches no global, which
// under -buildmode=pie would cost CX, see avogen.Target). The rounds'
// temporary and the register that loads the block pointer are borrowed:
// in every round spare holds nothing until a is copied into it, and carry
// nothing once its f is added into e (borrow, freed), so whatever the
// placement puts between two round steps finds one of them free.
//
// Arguments are laid out for 386 (frame32): 4-byte pointers, 12-byte
// slices. Go's 386 assembler takes no instruction of four operands, so
// the AVX kernel's VPALIGNR is written as its bytes (vpalignr).

// i386 is the 386 backend of a one-block kernel: the x86 backend with the
// 386 register plan, frame and loop control.
type i386 struct {
	*backend
	ptrMem Mem // the block pointer, in the frame
	kSrc   Mem // the K table, copied into the frame by Begin
}

// new386 returns the 386 backend of kernel k, its constants already
// emitted into ctx.
func new386(ctx *build.Context, k Kernel, p Params, c sha1sched.Contract) (*i386, error) {
	fr, err := frame32.Layout(string(avogen.I386), c.Signature())
	if err != nil {
		return nil, err
	}
	isa := k.isa(ctx)
	if v, ok := isa.(avx); ok {
		isa = avx386{v}
	}
	e := &i386{backend: &backend{
		ctx: ctx, isa: isa, k: k, p: p,
		w:     [8]reg.VecPhysical{reg.X0, reg.X1, reg.X2, reg.X3, reg.X4},
		t0:    reg.X5,
		t1:    reg.X6,
		bswap: reg.X7,
		regs:  vars{a: reg.EAX, b: reg.EBX, c: reg.ECX, d: reg.EDX, e: reg.ESI, carry: reg.EDI, spare: reg.EBP},
		frame: &fr,
		lanes: 1,
	}}
	e.constants()
	e.kSrc = e.ktab
	return e, nil
}

// arg is the argument (or argument component, such as p_len) name, at its
// offset in the 386 frame.
func (e *backend) arg(name string) Mem {
	off, ok := e.frame.Offsets[name]
	if !ok {
		panic("sha1x86: the kernel's signature has no argument " + name)
	}
	return NewParamAddr(name, off)
}

// Registers: the XMM registers but the byte-swap indexes'.
func (e *i386) Registers() int { return sha1sched.SpillRegisters }

// Begin emits the TEXT, the frame (the ring, the end and block pointer, K,
// the spill slots, a trace), the argument loads with the early exit, the
// constants, a..e from h and round 0's plain b.
func (e *i386) Begin(name string, k sha1sched.Contract) {
	c := e.ctx
	e.begin(name, attr.NOSPLIT, "with the "+e.isa.Name()+" instruction set", k)
	e.ring = c.AllocLocal(4 * sha1sched.RingWords)
	e.endMem = c.AllocLocal(4)
	e.ptrMem = c.AllocLocal(4)
	e.ktab = c.AllocLocal(16 * 4)
	e.spills = c.AllocLocal(16 * 8)
	if k.Trace != nil {
		e.trace = [2]Mem{c.AllocLocal(4 * 80), c.AllocLocal(20 * len(k.Trace))}
	}
	v := e.vars(0)
	c.MOVL(e.arg("p_len"), v.a)
	c.Comment("Nothing to do without a whole block; end = p + len(p) rounded down to blocks.")
	c.ANDL(I32(-64), v.a)
	c.JZ(LabelRef("done"))
	c.MOVL(e.arg("p_base"), v.b)
	c.MOVL(v.b, e.ptrMem)
	c.ADDL(v.b, v.a)
	c.MOVL(v.a, e.endMem)
	c.Comment("K into the frame, and the byte-swap indexes.")
	c.LEAL(e.kSrc, v.a)
	for i := 0; i < 4; i++ {
		e.isa.Load(e.t0, Mem{Base: v.a, Disp: 16 * i})
		e.isa.Store(e.ktab.Offset(16*i), e.t0)
	}
	c.LEAL(e.bswapMem, v.a)
	e.isa.Load(e.bswap, Mem{Base: v.a})
	c.Comment("Working variables a..e from h, which stays in memory.")
	c.MOVL(e.arg("h"), v.spare)
	for i, r := range []reg.GPPhysical{v.a, v.b, v.c, v.d, v.e} {
		c.MOVL(Mem{Base: v.spare, Disp: 4 * i}, r)
	}
	c.MOVL(v.b, v.carry) // round 0's plain b
	e.freed(v.spare)
	for i := range e.h {
		e.h[i] = Mem{Base: v.spare, Disp: 4 * i}
	}
}

// Vector lowers op as on amd64, but for LoadBE, which loads the block
// pointer into the free register first.
func (e *i386) Vector(op sha1sched.VOp) []step {
	if op.Kind != sha1sched.LoadBE {
		return e.backend.Vector(op)
	}
	d := e.v(op.Dst)
	return []step{
		func() {
			p := e.free
			e.ctx.MOVL(e.ptrMem, p)
			e.isa.Load(d, Mem{Base: p, Disp: 16 * op.Group})
		},
		func() { e.isa.Shuffle(d, d, e.bswap) },
	}
}

// Advance moves the block pointer on through the free register.
func (e *i386) Advance(label string) {
	c, p := e.ctx, e.free
	c.MOVL(e.ptrMem, p)
	c.ADDL(U8(64), p)
	c.MOVL(p, e.ptrMem)
	c.CMPL(p, e.endMem)
	c.JAE(LabelRef(label))
}

// KeepState stores the state as on amd64, through the free spare.
func (e *i386) KeepState(i, t int) {
	e.tmp = e.vars(t).spare
	e.backend.KeepState(i, t)
}

// NextBlock adds a..e into h, in memory, and starts the next block.
func (e *i386) NextBlock() {
	e.ctx.MOVL(e.arg("h"), e.vars(80).spare)
	e.backend.NextBlock() // h[i] += a..e through spare, which h's operands name
}

// Finish is amd64's, through spare, which h's operands name.
func (e *i386) Finish() {
	v := e.vars(80)
	e.finish(func(p string) { e.ctx.MOVL(e.arg(p), v.spare) }, v.spare, v.b)
}

// avx386 is the ISA of the 386 "avx" kernel: AVX's, with VPALIGNR written
// as its bytes.
type avx386 struct{ avx }

// Align writes VPALIGNR as bytes (LONG and WORD): Go's 386 assembler takes
// no instruction of four operands.
func (v avx386) Align(dst, hi, lo reg.VecPhysical, n int) {
	b := vpalignr(uint8(n), int(lo.PhysicalIndex()), int(hi.PhysicalIndex()), int(dst.PhysicalIndex()))
	v.ctx.Commentf("VPALIGNR $%#02x, %s, %s, %s", n, lo.Asm(), hi.Asm(), dst.Asm())
	isa := []string{"AVX"}
	v.ctx.Instruction(&ir.Instruction{Opcode: "LONG", Operands: []Op{U32(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)}, ISA: isa})
	v.ctx.Instruction(&ir.Instruction{Opcode: "WORD", Operands: []Op{U16(uint16(b[4]) | uint16(b[5])<<8)}, ISA: isa})
}

// vpalignr is the encoding of VPALIGNR $n, lo, hi, dst (Go's operand order;
// Intel's VPALIGNR dst, hi, lo, n) on XMM registers 0..7: a three-byte VEX
// prefix (no register extension, map 0F3A, hi in vvvv inverted, 128 bits,
// prefix 66), the opcode 0F, ModRM (dst in reg, lo in rm) and n.
func vpalignr(n uint8, lo, hi, dst int) []byte {
	if lo|hi|dst < 0 || lo|hi|dst > 7 {
		panic("sha1x86: VPALIGNR of registers outside X0..X7")
	}
	return []byte{0xc4, 0xe3, byte((15-hi)<<3 | 0x01), 0x0f, byte(0xc0 | dst<<3 | lo), n}
}
