// This file models, one NEON instruction at a time, the 64x64 -> 128-bit
// carry-less multiplication built from 8x8 -> 16-bit polynomial multiplies
// described in
//
//	Danilo Câmara, Conrado P. L. Gouvêa, Julio López, Ricardo Dahab,
//	"Fast Software Polynomial Multiplication on ARM Processors Using the
//	NEON Engine", Security Engineering and Intelligence Informatics
//	(CD-ARES 2013 workshops, MoCrySEN), LNCS 8128, Springer, 2013,
//	pp. 137-154 (Algorithm 2).
//
// The paper targets 32-bit ARMv7 NEON, where the two halves of a Q register
// are separate D registers. On AArch64 the halves are not separately
// addressable, so the fold step below processes two products at once with
// UZP1/UZP2 and ZIP1/ZIP2 on .2D lanes, the arrangement also used by the
// Linux kernel's arch/arm64/crypto/ghash-ce-core.S (its "p8" fallback for
// CPUs without 64-bit PMULL). The arithmetic is the paper's; only the data
// movement is AArch64's.
//
// It exists so that the assembly generator for the "neon" GHASH kernel can be
// written against a model that is tested here against the plain bit-serial
// ClMul64: the generator emits the same steps, in the same order, with the
// same constants.
//
// Conventions. A vector register is a byte array, byte 0 being the lowest
// lane (AArch64 is little-endian here). A 64-bit polynomial a(x) = sum a_k x^k
// is held as the uint64 whose bit k is a_k; moved into a D register (FMOV
// Dd, Xn, or VMOV Rn, Vd.D[0] in Go syntax) its byte i holds the
// coefficients of x^(8i) .. x^(8i+7). Write a_i for byte i of a, b_j for
// byte j of b. Then
//
//	a·b = sum over i, j in 0..7 of (a_i·b_j) x^(8(i+j))
//
// and each a_i·b_j is an 8x8 -> 16-bit carry-less product. One PMULL
// Vd.8H, Vn.8B, Vm.8B computes eight of them (lane k: n_k·m_k), so the 64
// byte products take eight PMULLs if one operand is first rotated by
// 0, 1, .., 4 bytes (EXT) so that the wanted pairs line up lane by lane.
//
// The products group by the byte distance d = |i - j|:
//
//	d = 0: D = A·B   lane k = a_k·b_k,        belongs at bit 16k
//	d = 1: E = A1·B  lane k = a_(k+1)·b_k,    and F = A·B1 lane k = a_k·b_(k+1)
//	d = 2: G = A2·B, H = A·B2
//	d = 3: I = A3·B, J = A·B3
//	d = 4: K = A·B4  lane k = a_k·b_(k+4)     (indices mod 8)
//
// where Ar (Br) is a (b) rotated down by r bytes: EXT Vd.8B, Vn.8B, Vn.8B, #r,
// so byte k of Ar is a_((k+r) mod 8). For d = 1, 2, 3, a lane k holding
// a_(k+d)·b_k + a_k·b_(k+d) (the XOR pairs L = E^F, M = G^H, N = I^J)
// belongs at bit 16k + 8d, that is d bytes above where PMULL put it, as
// long as k + d < 8. The d lanes with k + d >= 8 wrapped around: they hold
// a_(k+d-8)·b_k + a_k·b_(k+d-8), which belongs at bit 16k + 8d - 64, that
// is 64 - 8d bits BELOW where the plain d-byte shift would put them. For
// d = 4 every lane k >= 4 holds the pair partner of lane k - 4 (the same
// power of x, 16(k-4) + 32), so the high half of K folds entirely onto its
// low half.
//
// The fold does both corrections with one mask per product: the wrapped
// lanes are the top d 16-bit lanes of the 128-bit product, all in its high
// 64-bit half. XORing them (and only them) into the low half moves them 64
// bits down; the final byte rotation (EXT Vd.16B, Vn.16B, Vn.16B, #(16-d))
// then lifts the whole product d bytes, which puts every lane where it
// belongs. The masks keep, in the high half, the lanes that did not wrap:
//
//	L (d = 1): k48 = 0x0000ffffffffffff   (lanes 4, 5, 6 stay; 7 wraps)
//	M (d = 2): k32 = 0x00000000ffffffff   (lanes 4, 5 stay; 6, 7 wrap)
//	N (d = 3): k16 = 0x000000000000ffff   (lane 4 stays; 5, 6, 7 wrap)
//	K (d = 4): k00 = 0                    (all of lanes 4..7 fold)
//
// Since the lanes kept in the high half are zero above bit 128 - 8d, the
// byte rotation of the last step brings only zero bytes round to the bottom:
// it is a plain shift by d bytes. The result is D ^ L ^ M ^ N ^ K.
//
// The step list, as run by ClMul64Camara (vector names are the paper's; the
// Go assembler spelling follows in brackets, operands in Go's order):
//
//	 1. A = a, B = b in D registers          [FMOVD or VMOV Rn, Vd.D[0]]
//	 2. A1 = EXT(A, A, #1)                   [VEXT $1, VA.B8, VA.B8, VA1.B8]
//	 3. A2 = EXT(A, A, #2)
//	 4. A3 = EXT(A, A, #3)
//	 5. B1 = EXT(B, B, #1)                   (B1..B4 depend on b only: a GHASH
//	 6. B2 = EXT(B, B, #2)                    kernel computes them once per key)
//	 7. B3 = EXT(B, B, #3)
//	 8. B4 = EXT(B, B, #4)
//	 9. E = PMULL(A1, B)                     [VPMULL VB.B8, VA1.B8, VE.H8]
//	10. F = PMULL(A, B1)
//	11. G = PMULL(A2, B)
//	12. H = PMULL(A, B2)
//	13. I = PMULL(A3, B)
//	14. J = PMULL(A, B3)
//	15. K = PMULL(A, B4)
//	16. D = PMULL(A, B)
//	17. L = E ^ F                            [VEOR ..B16]
//	18. M = G ^ H
//	19. N = I ^ J
//	20. t0 = UZP1(L, M) = [L.lo, M.lo]       [VUZP1 VM.D2, VL.D2, Vt0.D2]
//	21. t1 = UZP2(L, M) = [L.hi, M.hi]       [VUZP2 VM.D2, VL.D2, Vt1.D2]
//	22. t0 = t0 ^ t1
//	23. t1 = t1 & [k48, k32]                 [VAND ..B16; mask by VMOVQ]
//	24. t0 = t0 ^ t1
//	25. t2 = UZP1(N, K) = [N.lo, K.lo]
//	26. t3 = UZP2(N, K) = [N.hi, K.hi]
//	27. t2 = t2 ^ t3
//	28. t3 = t3 & [k16, k00]
//	29. t2 = t2 ^ t3
//	30. L = ZIP1(t0, t1) = [t0.lo, t1.lo]    [VZIP1 Vt1.D2, Vt0.D2, VL.D2]
//	31. M = ZIP2(t0, t1) = [t0.hi, t1.hi]
//	32. N = ZIP1(t2, t3)
//	33. K = ZIP2(t2, t3)
//	34. L = EXT(L, L, #15)                   [VEXT $15, VL.B16, VL.B16, VL.B16]
//	35. M = EXT(M, M, #14)
//	36. N = EXT(N, N, #13)
//	37. K = EXT(K, K, #12)
//	38. L = L ^ M
//	39. N = N ^ K
//	40. R = D ^ L
//	41. R = R ^ N                            (R.lo, R.hi = low, high 64 bits)
//
// Steps 22-24 leave t0 = [L.lo ^ (L.hi &^ k48), M.lo ^ (M.hi &^ k32)] and
// t1 = [L.hi & k48, M.hi & k32]: the wrapped lanes moved to the low half,
// the others kept. On .2D lanes UZP1, ZIP1 (and TRN1) are the same
// operation, as are UZP2, ZIP2 (and TRN2); the names follow the paper's
// intent (split, then rejoin).

package ref

import "encoding/binary"

// neonD is a 64-bit NEON register (Vn.8B); byte 0 is lane 0.
type neonD [8]byte

// neonQ is a 128-bit NEON register (Vn.16B, .8H or .2D); byte 0 is lane 0.
type neonQ [16]byte

// neonFromUint64 models FMOV Dd, Xn: the low 64 bits of the register get x,
// little-endian, so byte i holds bits 8i..8i+7 of x.
func neonFromUint64(x uint64) neonD {
	var d neonD
	binary.LittleEndian.PutUint64(d[:], x)
	return d
}

// neonQFromUint64s models VMOVQ $lo, $hi, Vd: a 128-bit constant whose .2D
// lane 0 is lo and lane 1 is hi.
func neonQFromUint64s(lo, hi uint64) neonQ {
	var q neonQ
	binary.LittleEndian.PutUint64(q[:8], lo)
	binary.LittleEndian.PutUint64(q[8:], hi)
	return q
}

// uint64s returns the .2D lanes of q: lo = bits 0..63, hi = bits 64..127.
func (q neonQ) uint64s() (lo, hi uint64) {
	return binary.LittleEndian.Uint64(q[:8]), binary.LittleEndian.Uint64(q[8:])
}

// neonEXT8 models EXT Vd.8B, Vn.8B, Vm.8B, #index: the eight bytes starting
// at byte index of the pair Vm:Vn (Vn the low half). With n = m it rotates n
// down by index bytes: byte k of the result is n[(k+index) mod 8].
func neonEXT8(n, m neonD, index int) neonD {
	var cat [16]byte
	copy(cat[:8], n[:])
	copy(cat[8:], m[:])
	var d neonD
	copy(d[:], cat[index:index+8])
	return d
}

// neonEXT16 models EXT Vd.16B, Vn.16B, Vm.16B, #index, the 16-byte form of
// neonEXT8. With n = m and index = 16 - s it rotates n up by s bytes (a
// 128-bit left rotation by 8s bits).
func neonEXT16(n, m neonQ, index int) neonQ {
	var cat [32]byte
	copy(cat[:16], n[:])
	copy(cat[16:], m[:])
	var d neonQ
	copy(d[:], cat[index:index+16])
	return d
}

// clmul8 is the carry-less product of two bytes: a polynomial of degree at
// most 14, computed bit by bit.
func clmul8(x, y byte) uint16 {
	var p uint16
	for i := 0; i < 8; i++ {
		if y>>i&1 == 1 {
			p ^= uint16(x) << i
		}
	}
	return p
}

// neonPMULL8 models PMULL Vd.8H, Vn.8B, Vm.8B (Go: VPMULL Vm.B8, Vn.B8,
// Vd.H8): for each lane k = 0..7, the 16-bit lane k of the result is the
// carry-less product of byte k of n and byte k of m.
func neonPMULL8(n, m neonD) neonQ {
	var d neonQ
	for k := 0; k < 8; k++ {
		binary.LittleEndian.PutUint16(d[2*k:], clmul8(n[k], m[k]))
	}
	return d
}

// neonEOR models EOR Vd.16B, Vn.16B, Vm.16B.
func neonEOR(n, m neonQ) neonQ {
	var d neonQ
	for i := range d {
		d[i] = n[i] ^ m[i]
	}
	return d
}

// neonAND models AND Vd.16B, Vn.16B, Vm.16B.
func neonAND(n, m neonQ) neonQ {
	var d neonQ
	for i := range d {
		d[i] = n[i] & m[i]
	}
	return d
}

// neonUZP1D models UZP1 Vd.2D, Vn.2D, Vm.2D: the even .2D lanes of the pair
// Vm:Vn, that is [n.lo, m.lo].
func neonUZP1D(n, m neonQ) neonQ {
	var d neonQ
	copy(d[:8], n[:8])
	copy(d[8:], m[:8])
	return d
}

// neonUZP2D models UZP2 Vd.2D, Vn.2D, Vm.2D: the odd .2D lanes of the pair
// Vm:Vn, that is [n.hi, m.hi].
func neonUZP2D(n, m neonQ) neonQ {
	var d neonQ
	copy(d[:8], n[8:])
	copy(d[8:], m[8:])
	return d
}

// neonZIP1D models ZIP1 Vd.2D, Vn.2D, Vm.2D: the low lanes of n and m
// interleaved, [n.lo, m.lo]. With .2D lanes this equals UZP1.
func neonZIP1D(n, m neonQ) neonQ {
	var d neonQ
	copy(d[:8], n[:8])
	copy(d[8:], m[:8])
	return d
}

// neonZIP2D models ZIP2 Vd.2D, Vn.2D, Vm.2D: the high lanes of n and m
// interleaved, [n.hi, m.hi]. With .2D lanes this equals UZP2.
func neonZIP2D(n, m neonQ) neonQ {
	var d neonQ
	copy(d[:8], n[8:])
	copy(d[8:], m[8:])
	return d
}

// The fold masks of steps 23 and 28, as 64-bit lanes: kBB keeps the low BB
// bits of a high half (its lanes that did not wrap around).
const (
	CamaraK48 uint64 = 1<<48 - 1 // for L, byte distance 1
	CamaraK32 uint64 = 1<<32 - 1 // for M, byte distance 2
	CamaraK16 uint64 = 1<<16 - 1 // for N, byte distance 3
	CamaraK00 uint64 = 0         // for K, byte distance 4
)

// ClMul64Camara returns the 128-bit carry-less product of a and b, as high
// and low 64-bit halves, computed by the NEON instruction sequence of
// Câmara, Gouvêa, López and Dahab (2013) built from eight PMULL Vd.8H,
// Vn.8B, Vm.8B. Every statement below is one NEON instruction; the file
// comment explains the steps and lists them numbered.
func ClMul64Camara(a, b uint64) (hi, lo uint64) {
	// 1. The operands, in the low halves of two vector registers.
	A := neonFromUint64(a)
	B := neonFromUint64(b)

	// 2-8. Byte rotations: Ar[k] = a_(k+r), Br[k] = b_(k+r), indices mod 8.
	A1 := neonEXT8(A, A, 1)
	A2 := neonEXT8(A, A, 2)
	A3 := neonEXT8(A, A, 3)
	B1 := neonEXT8(B, B, 1)
	B2 := neonEXT8(B, B, 2)
	B3 := neonEXT8(B, B, 3)
	B4 := neonEXT8(B, B, 4)

	// 9-16. The eight lane-wise 8x8 -> 16 products.
	E := neonPMULL8(A1, B) // a_(k+1)·b_k
	F := neonPMULL8(A, B1) // a_k·b_(k+1)
	G := neonPMULL8(A2, B) // a_(k+2)·b_k
	H := neonPMULL8(A, B2) // a_k·b_(k+2)
	I := neonPMULL8(A3, B) // a_(k+3)·b_k
	J := neonPMULL8(A, B3) // a_k·b_(k+3)
	K := neonPMULL8(A, B4) // a_k·b_(k+4)
	D := neonPMULL8(A, B)  // a_k·b_k, already in place

	// 17-19. Products of equal byte distance share a position: pair them.
	L := neonEOR(E, F) // distance 1
	M := neonEOR(G, H) // distance 2
	N := neonEOR(I, J) // distance 3

	// 20-24. Fold the wrapped lanes of L and M into their low halves.
	kLM := neonQFromUint64s(CamaraK48, CamaraK32)
	t0 := neonUZP1D(L, M) // [L.lo, M.lo]
	t1 := neonUZP2D(L, M) // [L.hi, M.hi]
	t0 = neonEOR(t0, t1)
	t1 = neonAND(t1, kLM) // the lanes that stay high
	t0 = neonEOR(t0, t1)  // low ^= the lanes that wrapped

	// 25-29. The same for N and K.
	kNK := neonQFromUint64s(CamaraK16, CamaraK00)
	t2 := neonUZP1D(N, K) // [N.lo, K.lo]
	t3 := neonUZP2D(N, K) // [N.hi, K.hi]
	t2 = neonEOR(t2, t3)
	t3 = neonAND(t3, kNK)
	t2 = neonEOR(t2, t3)

	// 30-33. Rejoin each product's halves.
	L = neonZIP1D(t0, t1)
	M = neonZIP2D(t0, t1)
	N = neonZIP1D(t2, t3)
	K = neonZIP2D(t2, t3)

	// 34-37. Lift each by its byte distance (the top bytes are zero, so the
	// rotation is a shift).
	L = neonEXT16(L, L, 15)
	M = neonEXT16(M, M, 14)
	N = neonEXT16(N, N, 13)
	K = neonEXT16(K, K, 12)

	// 38-41. Sum everything.
	L = neonEOR(L, M)
	N = neonEOR(N, K)
	R := neonEOR(D, L)
	R = neonEOR(R, N)

	lo, hi = R.uint64s()
	return hi, lo
}

// ClMul64 returns the 128-bit carry-less (GF(2)[x]) product of a and b as
// high and low 64-bit halves, computed one bit of b at a time: the product
// is the XOR of a·x^i over the set bits i of b.
func ClMul64(a, b uint64) (hi, lo uint64) {
	for i := 0; i < 64; i++ {
		if b>>i&1 == 0 {
			continue
		}
		lo ^= a << i
		if i > 0 {
			hi ^= a >> (64 - i)
		}
	}
	return hi, lo
}
