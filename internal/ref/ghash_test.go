package ref

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/simdhash/simdhash/internal/testvectors"
)

// ghashHex decodes a hex string or fails the test.
func ghashHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// ghashBlock decodes a 16-byte hex string.
func ghashBlock(t *testing.T, s string) [GHASHBlockSize]byte {
	t.Helper()
	b := ghashHex(t, s)
	if len(b) != GHASHBlockSize {
		t.Fatalf("%q is %d bytes, want %d", s, len(b), GHASHBlockSize)
	}
	return [GHASHBlockSize]byte(b)
}

func loadGHASHVectors(t *testing.T) testvectors.GHASHFile {
	t.Helper()
	f, err := testvectors.GHASH()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestGHASHKnownAnswers checks GCMGHASH on the McGrew-Viega test cases (GCM
// revised spec, Appendix B: GHASH(H, A, C) and the Y0 values) and GHASH on
// the RFC 8452 Appendix A raw-block example.
func TestGHASHKnownAnswers(t *testing.T) {
	f := loadGHASHVectors(t)
	for _, v := range f.Vectors {
		got := GCMGHASH(ghashBlock(t, v.H), ghashHex(t, v.A), ghashHex(t, v.C))
		if want := ghashBlock(t, v.GHASH); got != want {
			t.Errorf("%s: GCMGHASH = %x, want %x", v.Name, got, want)
		}
	}
	for _, v := range f.RawBlockVectors {
		if v.LengthBlock {
			t.Fatalf("%s: raw-block vector with a length block: the test does not know this format", v.Name)
		}
		got, err := GHASH(ghashBlock(t, v.H), ghashHex(t, v.X))
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		if want := ghashBlock(t, v.GHASH); got != want {
			t.Errorf("%s: GHASH = %x, want %x", v.Name, got, want)
		}
	}
}

// ghashOne is the multiplicative identity of GF(2^128) in SP 800-38D bit
// order: the coefficient of x^0 is the leftmost bit.
var ghashOne = [GHASHBlockSize]byte{0x80}

// ghashX is the field element x.
var ghashX = [GHASHBlockSize]byte{0x40}

func randBlock(r *rand.Rand) [GHASHBlockSize]byte {
	var b [GHASHBlockSize]byte
	binary.BigEndian.PutUint64(b[:8], r.Uint64())
	binary.BigEndian.PutUint64(b[8:], r.Uint64())
	return b
}

func xorBlocks(a, b [GHASHBlockSize]byte) [GHASHBlockSize]byte {
	for i := range a {
		a[i] ^= b[i]
	}
	return a
}

// TestGHASHMulField checks that GHASHMul is multiplication in
// GF(2)[x]/(x^128 + x^7 + x^2 + x + 1): identity, commutativity,
// associativity, distributivity, and x^128 = x^7 + x^2 + x + 1.
func TestGHASHMulField(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var zero [GHASHBlockSize]byte
	for i := 0; i < 200; i++ {
		a, b, c := randBlock(r), randBlock(r), randBlock(r)
		if got := GHASHMul(a, ghashOne); got != a {
			t.Fatalf("%x · 1 = %x", a, got)
		}
		if got := GHASHMul(a, zero); got != zero {
			t.Fatalf("%x · 0 = %x", a, got)
		}
		if ab, ba := GHASHMul(a, b), GHASHMul(b, a); ab != ba {
			t.Fatalf("a·b = %x, b·a = %x (a = %x, b = %x)", ab, ba, a, b)
		}
		if l, rr := GHASHMul(GHASHMul(a, b), c), GHASHMul(a, GHASHMul(b, c)); l != rr {
			t.Fatalf("(a·b)·c = %x, a·(b·c) = %x", l, rr)
		}
		if l, rr := GHASHMul(a, xorBlocks(b, c)), xorBlocks(GHASHMul(a, b), GHASHMul(a, c)); l != rr {
			t.Fatalf("a·(b+c) = %x, a·b + a·c = %x", l, rr)
		}
	}
	// x^(i+1) = x^i · x moves the only set bit one place right while i < 127.
	p := ghashOne
	for i := 1; i < 128; i++ {
		p = GHASHMul(p, ghashX)
		var want [GHASHBlockSize]byte
		want[i/8] = 0x80 >> (i % 8)
		if p != want {
			t.Fatalf("x^%d = %x, want %x", i, p, want)
		}
	}
	// x^128 = 1 + x + x^2 + x^7: bits 0, 1, 2 and 7 of the first byte.
	p = GHASHMul(p, ghashX)
	want := [GHASHBlockSize]byte{0x80 | 0x40 | 0x20 | 0x01}
	if p != want {
		t.Fatalf("x^128 = %x, want %x", p, want)
	}
}

// TestGHASHPartialBlock checks that GHASH rejects inputs that are not whole
// blocks with ErrGHASHPartialBlock, and accepts whole ones.
func TestGHASHPartialBlock(t *testing.T) {
	var h [GHASHBlockSize]byte
	h[0] = 1
	for n := 0; n <= 64; n++ {
		_, err := GHASH(h, make([]byte, n))
		if n%GHASHBlockSize == 0 {
			if err != nil {
				t.Errorf("GHASH of %d bytes: %v", n, err)
			}
			continue
		}
		if !errors.Is(err, ErrGHASHPartialBlock) {
			t.Errorf("GHASH of %d bytes: err = %v, want ErrGHASHPartialBlock", n, err)
		}
	}
}

// TestGHASHHorner checks Algorithm 2 block by block against GHASHMul:
// Y_i = (Y_(i-1) XOR X_i)·H.
func TestGHASHHorner(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for m := 0; m < 6; m++ {
		h := randBlock(r)
		x := make([]byte, m*GHASHBlockSize)
		for i := range x {
			x[i] = byte(r.Uint32())
		}
		var y [GHASHBlockSize]byte
		for i := 0; i < m; i++ {
			y = GHASHMul(xorBlocks(y, [GHASHBlockSize]byte(x[16*i:])), h)
		}
		got, err := GHASH(h, x)
		if err != nil {
			t.Fatal(err)
		}
		if got != y {
			t.Errorf("%d blocks: GHASH = %x, want %x", m, got, y)
		}
	}
}

// TestGCMGHASHInput checks the padding and the length block.
func TestGCMGHASHInput(t *testing.T) {
	for _, la := range []int{0, 1, 15, 16, 17, 33} {
		for _, lc := range []int{0, 1, 15, 16, 17, 40} {
			a := bytes.Repeat([]byte{0xa5}, la)
			c := bytes.Repeat([]byte{0x5a}, lc)
			s := GCMGHASHInput(a, c)
			pa := (la + 15) / 16 * 16
			pc := (lc + 15) / 16 * 16
			if len(s) != pa+pc+16 {
				t.Fatalf("len(A) = %d, len(C) = %d: input is %d bytes, want %d", la, lc, len(s), pa+pc+16)
			}
			if !bytes.Equal(s[:la], a) || !bytes.Equal(s[la:pa], make([]byte, pa-la)) {
				t.Errorf("len(A) = %d: A or its padding is wrong: %x", la, s[:pa])
			}
			if !bytes.Equal(s[pa:pa+lc], c) || !bytes.Equal(s[pa+lc:pa+pc], make([]byte, pc-lc)) {
				t.Errorf("len(C) = %d: C or its padding is wrong: %x", lc, s[pa:pa+pc])
			}
			if got := binary.BigEndian.Uint64(s[pa+pc:]); got != uint64(la)*8 {
				t.Errorf("length block: len(A) = %d bits, want %d", got, la*8)
			}
			if got := binary.BigEndian.Uint64(s[pa+pc+8:]); got != uint64(lc)*8 {
				t.Errorf("length block: len(C) = %d bits, want %d", got, lc*8)
			}
		}
	}
}

// TestGHASHDoesNotModifyInput checks that the reference leaves its inputs alone.
func TestGHASHDoesNotModifyInput(t *testing.T) {
	x := bytes.Repeat([]byte{0x3c}, 48)
	keep := bytes.Clone(x)
	h := [GHASHBlockSize]byte{1, 2, 3}
	if _, err := GHASH(h, x); err != nil {
		t.Fatal(err)
	}
	GCMGHASH(h, x[:7], x[7:])
	if !bytes.Equal(x, keep) {
		t.Errorf("input changed: %x", x)
	}
}

// camaraEdgeValues are the operands on which a byte-lane model is most
// likely to go wrong: empty and full lanes, lone high bits, alternating
// patterns, and every single bit (added by the caller).
var camaraEdgeValues = []uint64{
	0, 1, 2, 0x80, 0xff, 0x100, 0xffff, 0xffffffff, 1 << 63, 1<<63 | 1,
	0x8000000000000000, 0x7fffffffffffffff, 0xffffffffffffffff,
	0xaaaaaaaaaaaaaaaa, 0x5555555555555555, 0xff00ff00ff00ff00, 0x00ff00ff00ff00ff,
	0xf0f0f0f0f0f0f0f0, 0x0f0f0f0f0f0f0f0f, 0xcccccccccccccccc, 0x3333333333333333,
	0x8080808080808080, 0x0101010101010101, 0xff000000000000ff, 0x00000000ffffffff,
	0xffffffff00000000, 0x0123456789abcdef, 0xfedcba9876543210,
}

// TestClMul64Properties checks the bit-serial ClMul64 against facts of
// GF(2)[x] that do not depend on how it is computed.
func TestClMul64Properties(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 2000; i++ {
		a, b, c := r.Uint64(), r.Uint64(), r.Uint64()
		h1, l1 := ClMul64(a, b)
		h2, l2 := ClMul64(b, a)
		if h1 != h2 || l1 != l2 {
			t.Fatalf("ClMul64 not commutative for %#x, %#x", a, b)
		}
		// Distributive over XOR.
		h3, l3 := ClMul64(a, c)
		h4, l4 := ClMul64(a, b^c)
		if h4 != h1^h3 || l4 != l1^l3 {
			t.Fatalf("ClMul64(a, b^c) != ClMul64(a, b) ^ ClMul64(a, c) for %#x, %#x, %#x", a, b, c)
		}
		// Squaring interleaves zero bits: (sum a_i x^i)^2 = sum a_i x^(2i).
		hs, ls := ClMul64(a, a)
		var wantLo, wantHi uint64
		for k := 0; k < 32; k++ {
			wantLo |= (a >> k & 1) << (2 * k)
			wantHi |= (a >> (k + 32) & 1) << (2 * k)
		}
		if hs != wantHi || ls != wantLo {
			t.Fatalf("ClMul64(a, a) = %#x:%#x, want %#x:%#x for a = %#x", hs, ls, wantHi, wantLo, a)
		}
		// Multiplying by x^k is a shift.
		k := i % 64
		hk, lk := ClMul64(a, 1<<k)
		wh, wl := a>>(64-k), a<<k
		if k == 0 {
			wh = 0
		}
		if hk != wh || lk != wl {
			t.Fatalf("ClMul64(%#x, x^%d) = %#x:%#x, want %#x:%#x", a, k, hk, lk, wh, wl)
		}
		// deg(a·b) = deg(a) + deg(b): GF(2)[x] has no zero divisors.
		if a != 0 && b != 0 {
			plen := bits.Len64(l1)
			if h1 != 0 {
				plen = 64 + bits.Len64(h1)
			}
			if want := bits.Len64(a) + bits.Len64(b) - 1; plen != want {
				t.Fatalf("ClMul64(%#x, %#x) has %d bits, want %d", a, b, plen, want)
			}
		}
	}
}

func checkCamara(t *testing.T, a, b uint64) {
	t.Helper()
	wh, wl := ClMul64(a, b)
	gh, gl := ClMul64Camara(a, b)
	if gh != wh || gl != wl {
		t.Fatalf("ClMul64Camara(%#016x, %#016x) = %#016x:%#016x, want %#016x:%#016x", a, b, gh, gl, wh, wl)
	}
}

// TestClMul64CamaraEdges checks the NEON model against ClMul64 on every pair
// of edge values and single bits.
func TestClMul64CamaraEdges(t *testing.T) {
	vals := append([]uint64(nil), camaraEdgeValues...)
	for i := 0; i < 64; i++ {
		vals = append(vals, 1<<i, ^uint64(1<<i))
	}
	for k := 0; k < 8; k++ {
		vals = append(vals, 0xff<<(8*k)) // one full byte lane
	}
	for _, a := range vals {
		for _, b := range vals {
			checkCamara(t, a, b)
		}
	}
}

// TestClMul64CamaraRandom checks the NEON model against ClMul64 on many
// random operands.
func TestClMul64CamaraRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	n := 50000
	if testing.Short() {
		n = 5000
	}
	for i := 0; i < n; i++ {
		a, b := r.Uint64(), r.Uint64()
		// Also sparse operands, which random words rarely are.
		if i%4 == 1 {
			a &= r.Uint64() & r.Uint64()
		}
		if i%4 == 2 {
			b &= r.Uint64() & r.Uint64()
		}
		checkCamara(t, a, b)
	}
}

// TestNEONModelOps checks the instruction models on their definitions.
func TestNEONModelOps(t *testing.T) {
	var n, m neonQ
	for i := range n {
		n[i] = byte(i)
		m[i] = byte(0x10 + i)
	}
	for idx := 0; idx < 16; idx++ {
		e := neonEXT16(n, m, idx)
		for k := range e {
			want := byte(k + idx)
			if k+idx >= 16 {
				want = byte(0x10 + k + idx - 16)
			}
			if e[k] != want {
				t.Fatalf("EXT16 #%d byte %d = %#x, want %#x", idx, k, e[k], want)
			}
		}
	}
	d := neonFromUint64(0x0706050403020100)
	for idx := 0; idx < 8; idx++ {
		e := neonEXT8(d, d, idx)
		for k := range e {
			if e[k] != byte((k+idx)%8) {
				t.Fatalf("EXT8 #%d byte %d = %#x, want %#x", idx, k, e[k], (k+idx)%8)
			}
		}
	}
	if neonUZP1D(n, m) != neonZIP1D(n, m) || neonUZP2D(n, m) != neonZIP2D(n, m) {
		t.Fatal("UZP and ZIP differ on .2D lanes")
	}
	lo, hi := neonUZP1D(n, m).uint64s()
	nlo, _ := n.uint64s()
	mlo, _ := m.uint64s()
	if lo != nlo || hi != mlo {
		t.Fatalf("UZP1 = [%#x, %#x], want [%#x, %#x]", lo, hi, nlo, mlo)
	}
	// PMULL lane k is ClMul64 of the two bytes.
	r := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 1000; i++ {
		x, y := neonFromUint64(r.Uint64()), neonFromUint64(r.Uint64())
		p := neonPMULL8(x, y)
		for k := 0; k < 8; k++ {
			_, want := ClMul64(uint64(x[k]), uint64(y[k]))
			if got := binary.LittleEndian.Uint16(p[2*k:]); uint64(got) != want {
				t.Fatalf("PMULL lane %d: %#x·%#x = %#x, want %#x", k, x[k], y[k], got, want)
			}
		}
	}
}
