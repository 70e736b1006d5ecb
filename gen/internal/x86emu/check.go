package x86emu

import (
	"math/bits"

	"github.com/mmcloughlin/avo/operand"
)

// The instructions of sha1dc's UBC checks (gen/internal/ubcvec's plans as
// gen/internal/sha1x86 and gen/internal/sha1shani lower them): the SSE
// shifts and logic in two-operand form (and the VEX dword shifts and
// rotate beside them, which the SHA-1 rounds use too), the byte
// alignments, and the AVX-512 permutes, variable rotates, bit tests and
// masked ORs of the gather form. execCheck reports whether op is one of
// them.
func (m *CPU) execCheck(op string, ops []operand.Op, w int) bool {
	last := ops[len(ops)-1]
	sse := func(f func(x, y uint32) uint32) {
		m.write(last, dwords(m.read(last, 16), m.read(ops[0], 16), f), false)
	}
	shift := func(f func(x uint32, n uint) uint32, vex bool) {
		n := uint(Const(ops[0]))
		src, width := last, 16
		if vex {
			src, width = ops[1], w
		}
		a := m.read(src, width)
		m.write(last, dwords(a, a, func(x, _ uint32) uint32 { return f(x, n) }), vex)
	}
	shl := func(x uint32, n uint) uint32 { return x << n }
	shr := func(x uint32, n uint) uint32 { return x >> n }
	sar := func(x uint32, n uint) uint32 { return uint32(int32(x) >> n) }
	// align: bytes n..n+15 of hi:lo, in each 128-bit lane.
	align := func(hi, lo []byte, n int) []byte {
		out := make([]byte, len(hi))
		for p := 0; p < len(hi); p += 16 {
			cat := append(append([]byte(nil), lo[p:p+16]...), hi[p:p+16]...)
			copy(out[p:p+16], append(cat[n:], make([]byte, 16)...)[:16])
		}
		return out
	}
	switch op {
	case "PSLLL", "VPSLLD":
		shift(shl, op[0] == 'V')
	case "PSRLL", "VPSRLD":
		shift(shr, op[0] == 'V')
	case "PSRAL", "VPSRAD":
		shift(sar, op[0] == 'V')
	case "VPROLD":
		shift(func(x uint32, n uint) uint32 { return bits.RotateLeft32(x, int(n)) }, true)
	case "PAND":
		sse(func(x, y uint32) uint32 { return x & y })
	case "PANDN": // dst = ^dst & src
		sse(func(x, y uint32) uint32 { return ^x & y })
	case "POR":
		sse(func(x, y uint32) uint32 { return x | y })
	case "PALIGNR": // $n, lo, dst: dst = bytes n.. of dst:lo
		m.write(last, align(m.read(last, 16), m.read(ops[1], 16), int(Const(ops[0]))), false)
	case "VPALIGNR": // $n, lo, hi, dst
		m.write(last, align(m.read(ops[2], w), m.read(ops[1], w), int(Const(ops[0]))), true)
	case "VBLENDVPS": // mask, b, a, dst: element i from b where mask's element i is negative, else from a
		mask, b, a := m.read(ops[0], w), m.read(ops[1], w), m.read(ops[2], w)
		out := make([]byte, w)
		for i := 0; i < w/4; i++ {
			putDword(out, i, dword([][]byte{a, b}[dword(mask, i)>>31], i))
		}
		m.write(last, out, true)
	case "VEXTRACTI32X4":
		m.write(last, m.read(ops[1], 64)[16*int(Const(ops[0])&3):][:16], true)
	case "VPERMI2D": // table2, table1, idx/dst: dst[i] = (table1:table2)[idx[i] & (2n-1)]
		n := w / 4
		t2, t1, idx := m.read(ops[0], w), m.read(ops[1], w), m.read(last, w)
		out := make([]byte, w)
		for i := 0; i < n; i++ {
			j := int(dword(idx, i)) & (2*n - 1)
			putDword(out, i, dword([][]byte{t1, t2}[j/n], j%n))
		}
		m.write(last, out, true)
	case "VPROLVD": // counts, src, dst
		c, a := m.read(ops[0], w), m.read(ops[1], w)
		m.write(last, dwords(a, c, func(x, y uint32) uint32 { return bits.RotateLeft32(x, int(y&31)) }), true)
	case "VPTESTMD": // b, a, [k,] kdst: bit i where a & b is not zero (and k's bit i)
		b, a := m.read(ops[0], size(ops[1])), m.read(ops[1], size(ops[1]))
		mask := ^uint64(0)
		if len(ops) == 4 {
			mask = m.K[idx(ops[2])]
		}
		var k uint64
		for i := 0; i < len(a)/4; i++ {
			if dword(a, i)&dword(b, i) != 0 {
				k |= 1 << i
			}
		}
		m.K[idx(last)] = k & mask
	default:
		if len(ops) == 4 && isMask(ops[2]) && op == "VPORD" { // b, a, k, dst: merge-masked a | b
			b, a, k := m.read(ops[0], w), m.read(ops[1], w), m.K[idx(ops[2])]
			out := m.read(last, w)
			for i := 0; i < w/4; i++ {
				if k>>i&1 != 0 {
					putDword(out, i, dword(a, i)|dword(b, i))
				}
			}
			m.write(last, out, true)
			return true
		}
		return false
	}
	return true
}
