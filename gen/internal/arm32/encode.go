package arm32

// Encodings of the A32 Advanced SIMD instructions, from the Arm
// Architecture Reference Manual ARMv7-A/R (DDI 0406C), section A7
// "Advanced SIMD and Floating-point Instruction Encoding", and, for
// VMULL.P64, the ARMv8 manual (DDI 0487), section F. All are
// unconditional (0b1111 in bits 28-31). A 64-bit register number 0-31 is
// split into a four-bit field and a high bit: Vd (bits 12-15) with D (bit
// 22), Vn (16-19) with N (bit 7), Vm (0-3) with M (bit 5). A Q register is
// written as its low D register with Q (bit 6) set.

// fields places the register numbers d, n and m (64-bit register numbers)
// in their fields.
func fields(d, n, m int) uint32 {
	return uint32(d>>4&1)<<22 | uint32(d&15)<<12 |
		uint32(n&15)<<16 | uint32(n>>4&1)<<7 |
		uint32(m>>4&1)<<5 | uint32(m&15)
}

// quad is the Q bit of an operand.
func quad(v Vec) uint32 {
	if v.Quad() {
		return 1 << 6
	}
	return 0
}

// Three registers of the same length: 1111001U 0Dsz Vn Vd opc N Q M o Vm.
// The bitwise operations are opc 0001, o = 1, with U:sz selecting one.
const (
	encVAND = 0xf2000110
	encVORR = 0xf2200110
	encVEOR = 0xf3000110
)

// Three registers of different lengths, VMULL (polynomial, op = 1):
// 1111001U 1Dsz Vn Vd 11op N0M0 Vm, with sz 00 for .P8 and 10 for .P64.
const (
	encVMULLP8  = 0xf2800e00
	encVMULLP64 = 0xf2a00e00
)

// Three registers of the same length, integer addition:
// 1111001U 0Dsz Vn Vd 1000 N Q M 0 Vm, U = 0, sz the element size.
const encVADD = 0xf2000800

// The SHA-1 instructions of the ARMv8 Crypto Extensions (DDI 0487, section
// F6), all on Q registers. Three registers: 11110010 0D op Vn Vd 1100 N1M0 Vm
// with op 00 SHA1C, 01 SHA1P, 10 SHA1M, 11 SHA1SU0. Two registers:
// 11110011 1D11 1001 Vd 0010 11M0 Vm for SHA1H, 11110011 1D11 1010 Vd 0011
// 10M0 Vm for SHA1SU1.
const (
	encSHA1C   = 0xf2000c40
	encSHA1P   = 0xf2100c40
	encSHA1M   = 0xf2200c40
	encSHA1SU0 = 0xf2300c40
	encSHA1H   = 0xf3b902c0
	encSHA1SU1 = 0xf3ba0380
)

// VLDR and VSTR of a single-precision register Sd (the VFP loads):
// cond 1101 U D 0 L Rn Vd 1010 imm8, L = 1 to load, with Sd = Vd:D and
// the offset imm8*4 added (U = 1).
const (
	encVLDR32 = 0xed900a00
	encVSTR32 = 0xed800a00
)

// VLDR and VSTR of a double-precision register Dd: cond 1101 U D 0 L Rn Vd
// 1011 imm8, the offset imm8*4 added (U = 1).
const (
	encVLDR = 0xed900b00
	encVSTR = 0xed800b00
)

// VEXT: 11110010 1D11 Vn Vd imm4 NQM0 Vm.
const encVEXT = 0xf2b00000

// VTBL: 11110011 1D11 Vn Vd 10 len N0M0 Vm (len = registers - 1).
const encVTBL = 0xf3b00800

// Two registers, miscellaneous: 11110011 1D11 size opc1 Vd 0 opc2 QM0 Vm.
// encMisc(opc1, opc2) is the base encoding; size goes in bits 18-19.
func encMisc(opc1, opc2 uint32) uint32 { return 0xf3b00000 | opc1<<16 | opc2<<7 }

var (
	encVREV32 = encMisc(0, 1)
	encVUZP   = encMisc(2, 2)
)

// Two registers and a shift amount: 1111001U 1D imm6 Vd opc L Q M 1 Vm.
// Right shifts encode L:imm6 = 2*esize - shift; left shifts esize + shift
// (for 64-bit elements, L = 1 and imm6 = 64 - shift or shift).
func encShift(u, opc uint32, esize, shift int, right bool) uint32 {
	v := esize + shift
	if right {
		v = 2*esize - shift
	}
	l := uint32(0)
	if esize == 64 {
		l, v = 1, v-64
		if right {
			v = 64 - shift
		}
	}
	return 0xf2800010 | u<<24 | uint32(v)<<16 | opc<<8 | l<<7
}

// One register and a modified immediate:
// 1111001i 1D000abc Vd cmode 0 Q op 1 efgh, with abcdefgh the immediate.
// cmode 1110 is VMOV.I8 (op = 0) and VMOV.I64 (op = 1, each immediate bit
// standing for a byte of 0x00 or 0xff).
func encModImm(op, cmode, imm8 uint32) uint32 {
	return 0xf2800010 | (imm8>>7)<<24 | (imm8>>4&7)<<16 | cmode<<8 | op<<5 | imm8&15
}

// Element and structure load/store, multiple elements:
// 11110100 0D L0 Rn Vd type size align Rm, L = 1 to load. type gives the
// number of consecutive registers for VLD1/VST1; Rm is 15 for no
// writeback, 13 to add the transfer size to Rn, else the register added.
var vld1Type = [...]uint32{1: 0x7, 2: 0xa, 3: 0x6, 4: 0x2}

func encLdSt(load bool, n int, base Reg, first DReg, rm uint32) uint32 {
	w := uint32(0xf4000000) | uint32(base)<<16 | vld1Type[n]<<8 | rm | fields(int(first), 0, 0)
	if load {
		w |= 1 << 21
	}
	return w
}
