package arm64

// Encodings of the Advanced SIMD instructions that Go's assembler lacks,
// from the instruction classes of the Arm Architecture Reference Manual
// for A-profile (DDI 0487), section C4.1 "A64 instruction set encoding",
// Advanced SIMD data processing. Register fields: Rd bits 0-4; Q (bit
// 30) selects a 128-bit operand.

// encModImm encodes the "modified immediate" class:
// 0 Q op 0111100000 a:b:c cmode o2=0 1 d:e:f:g:h Rd.
// op=1, cmode=1110 is MOVI.2D, whose eight immediate bits each stand for
// a byte of 0x00 or 0xff.
func encModImm(q, op, cmode, imm8 uint32, d VReg) uint32 {
	return 0x0f000400 | q<<30 | op<<29 | (imm8>>5)<<16 | cmode<<12 | (imm8&31)<<5 | uint32(d)
}

// encFMOVHigh encodes FMOV Xd, Vn.D[1], of the class "conversion between
// floating-point and integer": sf=1 0 0 11110 type=10 1 rmode=01
// opcode=110 000000 Rn Rd.
func encFMOVHigh(n VReg, d Reg) uint32 {
	return 0x9eae0000 | uint32(n)<<5 | uint32(d)
}
