package ubc

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// ReachBlock changes bits of the 64-byte block b so that its expanded
// message W meets every term that names DVs[d], and returns it. Unlike
// Reach, which changes W itself, it gives a real block, which a kernel
// expands on its own: the tests of every kernel's check use it to make
// blocks whose mask has bit d set.
//
// SHA-1's message expansion is linear over GF(2), and so is each term,
// so the blocks that reach a DV are the solutions of a linear system in
// the 512 bits of the block. ReachBlock solves it by Gaussian
// elimination and XORs into b the solution that sets no free variable.
// It panics if the system has no solution, which the tests rule out for
// every DV.
func ReachBlock(d int, b [64]byte) [64]byte { return reachBlock(d, -1, b) }

// ReachBlockBut is ReachBlock with the condition of term j (of Terms, one
// that names DVs[d]) broken instead of met: a block whose check kills DV
// d through term j alone, for the tests that every kernel evaluates every
// term. It panics if term j does not name DVs[d].
func ReachBlockBut(d, j int, b [64]byte) [64]byte {
	if Terms[j].DVs&(1<<d) == 0 {
		panic(fmt.Sprintf("ubc: term %d does not name %s", j, DVs[d].Name()))
	}
	return reachBlock(d, j, b)
}

// reachBlock is ReachBlock with term broken (-1: none) broken.
func reachBlock(d, broken int, b [64]byte) [64]byte {
	// w[t][k] is bit k of W[t] as a set of the block's bits: bit k of
	// word j (big-endian) is bit 32*j+k.
	var w [80][32]bitset
	for t := 0; t < 16; t++ {
		for k := range 32 {
			w[t][k].set(32*t + k)
		}
	}
	for t := 16; t < 80; t++ {
		for k := range 32 {
			src := (k + 31) % 32 // rol1: bit k comes from bit k-1
			x := w[t-3][src]
			x.xor(&w[t-8][src])
			x.xor(&w[t-14][src])
			x.xor(&w[t-16][src])
			w[t][k] = x
		}
	}
	var words [16]uint32
	for j := range words {
		words[j] = binary.BigEndian.Uint32(b[4*j:])
	}
	value := func(x *bitset) uint32 {
		var v uint32
		for j, word := range words {
			v ^= uint32(bits.OnesCount32(word&x.word(j))) & 1
		}
		return v
	}
	// Each row: the bits whose XOR must change, and by how much (the
	// term's XOR now, against Eq).
	type row struct {
		x   bitset
		rhs uint32
	}
	var rows []row
	for j, t := range Terms {
		if t.DVs&(1<<d) == 0 {
			continue
		}
		x := w[t.A][t.KA]
		x.xor(&w[t.B][t.KB])
		eq := t.Eq
		if j == broken {
			eq ^= 1
		}
		rows = append(rows, row{x, value(&x) ^ eq})
	}
	// Gaussian elimination; the pivots' bits of the change are the
	// right-hand sides, the free bits zero.
	var pivots []int
	for i := range rows {
		p := rows[i].x.lowest()
		if p < 0 {
			if rows[i].rhs != 0 {
				panic(fmt.Sprintf("ubc: no block reaches %s (term %d broken): its terms contradict one another", DVs[d].Name(), broken))
			}
			pivots = append(pivots, -1)
			continue
		}
		for j := range rows {
			if j != i && rows[j].x.has(p) {
				rows[j].x.xor(&rows[i].x)
				rows[j].rhs ^= rows[i].rhs
			}
		}
		pivots = append(pivots, p)
	}
	for i, p := range pivots {
		if p >= 0 && rows[i].rhs != 0 {
			words[p/32] ^= 1 << (p % 32)
		}
	}
	for j, word := range words {
		binary.BigEndian.PutUint32(b[4*j:], word)
	}
	return b
}

// bitset is a set of the 512 bits of a block.
type bitset [8]uint64

func (s *bitset) set(i int)      { s[i/64] |= 1 << (i % 64) }
func (s *bitset) has(i int) bool { return s[i/64]>>(i%64)&1 != 0 }
func (s *bitset) xor(o *bitset) {
	for i := range s {
		s[i] ^= o[i]
	}
}

// word returns the bits of word j (bits 32j..32j+31) as a uint32.
func (s *bitset) word(j int) uint32 { return uint32(s[j/2] >> (32 * (j % 2))) }

// lowest returns the lowest bit in the set, or -1.
func (s *bitset) lowest() int {
	for i, x := range s {
		if x != 0 {
			return 64*i + bits.TrailingZeros64(x)
		}
	}
	return -1
}
