package main

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/simdhash/simdhash/internal/ref"
)

// xmm is a 128-bit register as four 32-bit lanes, lane 0 the least
// significant (bits 31..0) and lane 3 the most significant.
type xmm [4]uint32

// emulator runs the description on a model of the instructions, written
// from their pseudocode in the Intel SDM vol. 2 (SHA1RNDS4, SHA1NEXTE,
// SHA1MSG1, SHA1MSG2), so that the schedule is checked without a CPU that
// has them.
type emulator struct {
	r     [numVecs]xmm
	block []byte // the 64 bytes being absorbed
	trace []string
}

func (m *emulator) comment(string) {}

func (m *emulator) loadWords(dst vec, g int) {
	for k := 0; k < 4; k++ {
		m.r[dst][3-k] = binary.BigEndian.Uint32(m.block[16*g+4*k:])
	}
	m.trace = append(m.trace, "load")
}

func (m *emulator) copy(dst, src vec) { m.r[dst] = m.r[src] }

func (m *emulator) add32(dst, src vec) {
	for i := range m.r[dst] {
		m.r[dst][i] += m.r[src][i]
	}
}

func (m *emulator) xor(dst, src vec) {
	for i := range m.r[dst] {
		m.r[dst][i] ^= m.r[src][i]
	}
	m.trace = append(m.trace, "xor")
}

// nexte: the top lane becomes rol30(dst's top lane) + src's top lane, the
// others are src's.
func (m *emulator) nexte(dst, src vec) {
	d, s := m.r[dst], m.r[src]
	s[3] += bits.RotateLeft32(d[3], 30)
	m.r[dst] = s
	m.trace = append(m.trace, "nexte")
}

// msg1: with W0..W3 the lanes of dst from the top and W4, W5 the top two
// of src, the result is W2^W0, W3^W1, W4^W2, W5^W3 from the top.
func (m *emulator) msg1(dst, src vec) {
	d, s := m.r[dst], m.r[src]
	w := [6]uint32{d[3], d[2], d[1], d[0], s[3], s[2]}
	m.r[dst] = xmm{w[5] ^ w[3], w[4] ^ w[2], w[3] ^ w[1], w[2] ^ w[0]}
	m.trace = append(m.trace, "msg1")
}

// msg2: with W13, W14, W15 the lower three lanes of src from the top,
// W16 = rol1(dst top ^ W13), W17 and W18 likewise with W14 and W15, and
// W19 = rol1(dst bottom ^ W16); the result is W16..W19 from the top.
func (m *emulator) msg2(dst, src vec) {
	d, s := m.r[dst], m.r[src]
	w16 := bits.RotateLeft32(d[3]^s[2], 1)
	w17 := bits.RotateLeft32(d[2]^s[1], 1)
	w18 := bits.RotateLeft32(d[1]^s[0], 1)
	w19 := bits.RotateLeft32(d[0]^w16, 1)
	m.r[dst] = xmm{w19, w18, w17, w16}
	m.trace = append(m.trace, "msg2")
}

// rnds4: four rounds on A..D (dst, A on top) with W0+E, W1, W2, W3 (src,
// from the top), the function and constant picked by f.
func (m *emulator) rnds4(dst, src vec, f int) {
	d, s := m.r[dst], m.r[src]
	a, b, c, dd, e := d[3], d[2], d[1], d[0], uint32(0)
	k := [4]uint32{0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6}[f]
	for i := 0; i < 4; i++ {
		var fn uint32
		switch f {
		case 0:
			fn = b&c ^ ^b&dd
		case 2:
			fn = b&c ^ b&dd ^ c&dd
		default:
			fn = b ^ c ^ dd
		}
		t := fn + bits.RotateLeft32(a, 5) + s[3-i] + e + k
		a, b, c, dd, e = t, a, bits.RotateLeft32(b, 30), c, dd
	}
	m.r[dst] = xmm{dd, c, b, a}
	m.trace = append(m.trace, "rnds4")
}

// absorb runs the description on each block of p, starting from h, in the
// register form the emitted prologue sets up.
func absorb(h [5]uint32, p []byte) [5]uint32 {
	m := &emulator{}
	m.r[abcd] = xmm{h[3], h[2], h[1], h[0]}
	m.r[e0] = xmm{0, 0, 0, h[4]}
	for ; len(p) >= 64; p = p[64:] {
		m.block = p[:64]
		block(m)
	}
	if m.r[e0][0]|m.r[e0][1]|m.r[e0][2] != 0 {
		panic("E's lower lanes are not zero between blocks")
	}
	a := m.r[abcd]
	return [5]uint32{a[3], a[2], a[1], a[0], m.r[e0][3]}
}

// The description, run on the model of the instructions, computes the
// FIPS 180-4 block function.
func TestDescriptionComputesSHA1(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 4; n++ {
		for trial := 0; trial < 20; trial++ {
			p := make([]byte, 64*n)
			for i := range p {
				p[i] = byte(rng.Uint32())
			}
			var h [5]uint32
			for i := range h {
				h[i] = rng.Uint32()
			}
			if trial == 0 {
				h = ref.SHA1Init()
			}
			want := h
			for q := p; len(q) >= 64; q = q[64:] {
				ref.SHA1Block(&want, (*[64]byte)(q))
			}
			if got := absorb(h, p); got != want {
				t.Fatalf("%d blocks, trial %d: got %08x, want %08x", n, trial, got, want)
			}
		}
	}
}

// Each block has 20 SHA1RNDS4, 19 SHA1NEXTE plus one for the final E,
// 4 loads, and 16 schedule groups of SHA1MSG1, PXOR and SHA1MSG2 each: no
// group is computed twice or skipped.
func TestDescriptionCounts(t *testing.T) {
	m := &emulator{block: make([]byte, 64)}
	block(m)
	count := map[string]int{}
	for _, op := range m.trace {
		count[op]++
	}
	want := map[string]int{"rnds4": 20, "nexte": 20, "load": 4, "msg1": 16, "xor": 16, "msg2": 16}
	for op, n := range want {
		if count[op] != n {
			t.Errorf("%s: %d per block, want %d", op, count[op], n)
		}
	}
}

// The emulator can tell a wrong schedule from a right one: a swapped
// function selector fails the comparison (so the test above can fail).
func TestEmulatorCatchesWrongRounds(t *testing.T) {
	h := ref.SHA1Init()
	p := make([]byte, 64)
	want := h
	ref.SHA1Block(&want, (*[64]byte)(p))
	m := &wrongSelector{emulator: &emulator{}}
	m.r[abcd] = xmm{h[3], h[2], h[1], h[0]}
	m.r[e0] = xmm{0, 0, 0, h[4]}
	m.block = p
	block(m)
	a := m.r[abcd]
	if got := [5]uint32{a[3], a[2], a[1], a[0], m.r[e0][3]}; got == want {
		t.Fatal("a wrong round function gave the right block function")
	}
}

type wrongSelector struct{ *emulator }

func (w *wrongSelector) rnds4(dst, src vec, f int) { w.emulator.rnds4(dst, src, f^1) }
