package arm64

// Encodings of the Advanced SIMD instructions that Go's assembler lacks,
// from the instruction classes of the Arm Architecture Reference Manual
// for A-profile (DDI 0487), section C4.1 "A64 instruction set encoding",
// Advanced SIMD data processing. Register fields: Rd bits 0-4, Rn 5-9,
// Rm 16-20; Q (bit 30) selects a 128-bit operand; U (bit 29) and size
// (bits 22-23) select among related operations.

// encThreeSame encodes the "three same" class:
// 0 Q U 01110 size 1 Rm opcode 1 Rn Rd, with base holding U and opcode.
func encThreeSame(base, q, size uint32, m, n, d Vec) uint32 {
	return base | q<<30 | size<<22 | uint32(m.Reg)<<16 | uint32(n.Reg)<<5 | uint32(d.Reg)
}

// encLogic is the base encoding of the bitwise three-same operations
// (opcode 00011), which use size as part of the opcode:
// U=0: AND, BIC, ORR, ORN; U=1: EOR, BSL, BIT, BIF (opc = 0..3).
func encLogic(u, opc uint32) uint32 {
	return 0x0e201c00 | u<<29 | opc<<22
}

// encTwoReg encodes the "two-register miscellaneous" class:
// 0 Q U 01110 size 10000 opcode 10 Rn Rd, with base holding U and opcode.
func encTwoReg(base, q, size uint32, n, d Vec) uint32 {
	return base | q<<30 | size<<22 | uint32(n.Reg)<<5 | uint32(d.Reg)
}

// encShiftImm encodes the "shift by immediate" class:
// 0 Q U 011110 immh:immb opcode 1 Rn Rd. For right shifts immh:immb is
// 2*esize - shift, where immh's leading one gives the element size.
func encShiftImm(u, opcode, q, immhb uint32, n, d Vec) uint32 {
	return 0x0f000400 | q<<30 | u<<29 | immhb<<16 | opcode<<11 | uint32(n.Reg)<<5 | uint32(d.Reg)
}

// encModImm encodes the "modified immediate" class:
// 0 Q op 0111100000 a:b:c cmode o2=0 1 d:e:f:g:h Rd.
// op=1, cmode=1110 is MOVI.2D, whose eight immediate bits each stand for
// a byte of 0x00 or 0xff; cmode 0xx1 (32-bit) and 10x1 (16-bit) are ORR
// (op=0) and BIC (op=1) of an 8-bit immediate shifted left by 8*x.
func encModImm(q, op, cmode, imm8 uint32, d VReg) uint32 {
	return 0x0f000400 | q<<30 | op<<29 | (imm8>>5)<<16 | cmode<<12 | (imm8&31)<<5 | uint32(d)
}
