package sha1ce

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/simdhash/simdhash/gen/internal/sha1sched"
	"github.com/simdhash/simdhash/internal/ref"
)

// vreg is a 128-bit register as four 32-bit words, word 0 the least
// significant.
type vreg [4]uint32

// emulator runs the description on a model of the instructions, written
// from their pseudocode in the Arm ARM (DDI 0487: SHA1C, SHA1P, SHA1M,
// SHA1H, SHA1SU0, SHA1SU1 and the shared procedures SHA1CHOOSE,
// SHA1PARITY, SHA1MAJORITY), so that the description is checked without
// a CPU that has them.
type emulator struct {
	r     [32]vreg
	h     [][5]uint32 // each stream's state
	p     [][]byte    // each stream's input
	ptr   []int       // each stream's block pointer, an offset in its p
	n     int         // the bytes of whole blocks not yet counted by nextBlock
	count map[string]int
	t     *testing.T
}

// newEmulator returns the emulator of streams whose inputs are p, from the
// states h, with n bytes of whole blocks each.
func newEmulator(t *testing.T, h [][5]uint32, p [][]byte) *emulator {
	return &emulator{h: h, p: p, ptr: make([]int, len(p)), n: len(p[0]) &^ 63, count: map[string]int{}, t: t}
}

func (m *emulator) op(name string) { m.count[name]++ }

func (m *emulator) comment(...string) {}
func (m *emulator) label(string)      {}
func (m *emulator) ret()              {}

func (m *emulator) loadArgs(string) {}

func (m *emulator) loadState(s int, x, e vec) {
	copy(m.r[x][:], m.h[s][:4])
	m.r[e] = vreg{m.h[s][4], 0xdead, 0xbeef, 0xf00d} // only word 0 is defined
}

func (m *emulator) storeState(s int, x, e vec) {
	copy(m.h[s][:4], m.r[x][:])
	m.h[s][4] = m.r[e][0]
}

func (m *emulator) loadK(ks [4]vec) {
	for i, r := range ks {
		k := sha1sched.K(20 * i)
		m.r[r] = vreg{k, k, k, k}
	}
}

func (m *emulator) loadBlock(s int, ws [4]vec) {
	if m.ptr[s] < 0 || m.ptr[s]+64 > len(m.p[s])&^63 {
		m.t.Fatalf("loadBlock reads bytes %d..%d of stream %d's %d bytes of whole blocks", m.ptr[s], m.ptr[s]+63, s, len(m.p[s])&^63)
	}
	for j, w := range ws {
		for i := range 4 {
			m.r[w][i] = binary.BigEndian.Uint32(m.p[s][m.ptr[s]+16*j+4*i:])
		}
	}
	m.ptr[s] += 64
	m.op("load")
}

func (m *emulator) nextBlock() {
	m.n -= 64
	for s := range m.ptr {
		if m.n == 0 {
			m.ptr[s] -= 64
		}
	}
}

func (m *emulator) exitIfLast(string) {}
func (m *emulator) loopBack(string)   {}

func (m *emulator) copy(d, s vec) {
	m.r[d] = m.r[s]
	m.op("copy")
}

func (m *emulator) add(d, n, mm vec) {
	for i := range 4 {
		m.r[d][i] = m.r[n][i] + m.r[mm][i]
	}
	m.op("add")
}

// rounds: four iterations of T = e + rol5(a) + f(b, c, d) + wk[i];
// (a, b, c, d, e) = (T, a, rol30(b), c, d), with a..d in words 0-3.
func (m *emulator) rounds(fn sha1sched.Func, x, e, wk vec) {
	a, b, c, d := m.r[x][0], m.r[x][1], m.r[x][2], m.r[x][3]
	y := m.r[e][0]
	for i := range 4 {
		var t uint32
		switch fn {
		case sha1sched.FCh:
			t = (b & c) | (^b & d)
		case sha1sched.FParity:
			t = b ^ c ^ d
		case sha1sched.FMaj:
			t = (b & c) | (b & d) | (c & d)
		}
		y += bits.RotateLeft32(a, 5) + t + m.r[wk][i]
		a, b, c, d, y = y, a, bits.RotateLeft32(b, 30), c, d
	}
	m.r[x] = vreg{a, b, c, d}
	m.op("rounds")
}

func (m *emulator) hashE(d, x vec) {
	m.r[d] = vreg{bits.RotateLeft32(m.r[x][0], 30), 0, 0, 0}
	m.op("hashE")
}

// scheduleStart: d = (n's words 0, 1 above d's words 2, 3) ^ d ^ m.
func (m *emulator) scheduleStart(d, n, mm vec) {
	x, y, z := m.r[d], m.r[n], m.r[mm]
	m.r[d] = vreg{x[2] ^ x[0] ^ z[0], x[3] ^ x[1] ^ z[1], y[0] ^ x[2] ^ z[2], y[1] ^ x[3] ^ z[3]}
	m.op("su0")
}

// scheduleEnd: t = d ^ (n >> 32); words 0-2 are rol1 of t's, word 3 is
// rol1(t[3]) ^ rol2(t[0]).
func (m *emulator) scheduleEnd(d, n vec) {
	x, y := m.r[d], m.r[n]
	t := vreg{x[0] ^ y[1], x[1] ^ y[2], x[2] ^ y[3], x[3]}
	m.r[d] = vreg{bits.RotateLeft32(t[0], 1), bits.RotateLeft32(t[1], 1), bits.RotateLeft32(t[2], 1),
		bits.RotateLeft32(t[3], 1) ^ bits.RotateLeft32(t[0], 2)}
	m.op("su1")
}

// absorb runs the kernel's description on the streams' inputs p from h,
// with the control flow of the emitted code: the blocks alternate between
// the two register roles, and the loop ends after the block that
// nextBlock counted last.
func absorb(t *testing.T, h [][5]uint32, p [][]byte, prm params) [][5]uint32 {
	m := newEmulator(t, h, p)
	if m.n == 0 {
		return h
	}
	prm.prologue(m)
	for b := 0; m.n > 0; b++ {
		r := alternate[b%2]
		m.nextBlock()
		prm.block(m, r)
		prm.finish(m, r)
	}
	for s := range prm.streams {
		m.storeState(s, prm.at(s, sa), prm.at(s, hE))
	}
	return m.h
}

// copiedSets are the -copied values the tests try: none, the default,
// every group, and a few random sets.
func copiedSets(rng *rand.Rand) []groupSet {
	sets := []groupSet{0, defaultCopied, (1<<groups - 1) &^ 1}
	for range 3 {
		sets = append(sets, groupSet(rng.Uint32())&(1<<groups-1)&^1)
	}
	return sets
}

// The description, run on the model of the instructions, computes the
// FIPS 180-4 block function, for every -ahead and several -copied, over
// 0 to 5 blocks (both register roles, and the last block in each), for
// one stream and for two.
func TestDescriptionComputesSHA1(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, a := range aheads {
		for _, c := range copiedSets(rng) {
			for streams := 1; streams <= 2; streams++ {
				for n := 0; n <= 5; n++ {
					testAbsorb(t, rng, params{ahead: int(a), copied: c, streams: streams}, n)
				}
			}
		}
	}
}

// testAbsorb checks n whole blocks of each stream plus 0 to 3 bytes the
// kernel must ignore, from the initial state and from random ones.
func testAbsorb(t *testing.T, rng *rand.Rand, prm params, n int) {
	t.Helper()
	src := rand.NewChaCha8([32]byte{byte(n), byte(prm.ahead), byte(prm.streams)})
	for extra := range 4 {
		var h, want [][5]uint32
		var p [][]byte
		for range prm.streams {
			p = append(p, make([]byte, 64*n+extra))
			src.Read(p[len(p)-1])
			s := ref.SHA1Init()
			if extra > 0 {
				s = [5]uint32{rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32()}
			}
			h, want = append(h, s), append(want, s)
			ref.SHA1Blocks(&want[len(want)-1], p[len(p)-1])
		}
		if got := absorb(t, h, p, prm); !slices.Equal(got, want) {
			t.Fatalf("%+v, %d bytes: got %08x, want %08x", prm, len(p[0]), got, want)
		}
	}
}

// Each block has 20 four-round instructions and 20 SHA1H, one load of the
// (next) block, 16 steps of the schedule of each kind, 23 additions (20
// W+K, the state's e, and a..d twice) and a copy of a..d per group in
// -copied besides the one of the state: no group is computed twice or
// skipped.
func TestDescriptionCounts(t *testing.T) {
	for _, a := range aheads {
		for _, c := range []groupSet{0, defaultCopied} {
			m := newEmulator(t, make([][5]uint32, 1), [][]byte{make([]byte, 128)})
			m.ptr[0] = 64
			prm := params{ahead: int(a), copied: c, streams: 1}
			prm.block(m, alternate[0])
			prm.finish(m, alternate[0])
			want := map[string]int{"rounds": 20, "hashE": 20, "load": 1, "su0": 16, "su1": 16, "add": 23,
				"copy": 1 + bits.OnesCount32(uint32(c))}
			for op, n := range want {
				if m.count[op] != n {
					t.Errorf("-ahead %d -copied %v: %s: %d per block, want %d", a, c, op, m.count[op], n)
				}
			}
		}
	}
}

// The emulator can tell a wrong description from a right one: a swapped
// round function fails the comparison (so the test above can fail).
func TestEmulatorCatchesWrongRounds(t *testing.T) {
	h := ref.SHA1Init()
	p := make([]byte, 64)
	want := h
	ref.SHA1Blocks(&want, p)
	m := &wrongFunc{emulator: newEmulator(t, [][5]uint32{h}, [][]byte{p})}
	prm := params{ahead: 2, copied: defaultCopied, streams: 1}
	prm.prologue(m)
	m.nextBlock()
	prm.block(m, alternate[0])
	prm.finish(m, alternate[0])
	m.storeState(0, sa, hE)
	if m.h[0] == want {
		t.Fatal("a wrong round function gave the right block function")
	}
}

type wrongFunc struct{ *emulator }

func (w *wrongFunc) rounds(fn sha1sched.Func, x, e, wk vec) {
	w.emulator.rounds([...]sha1sched.Func{sha1sched.FParity, sha1sched.FCh, sha1sched.FParity}[fn], x, e, wk)
}

func (m *emulator) retire(int, vec, vec) {}
