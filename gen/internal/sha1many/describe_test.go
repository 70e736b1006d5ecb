package sha1many

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/simdhash/simdhash/gen/internal/gentest"
	"github.com/simdhash/simdhash/gen/internal/knob"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
	"github.com/simdhash/simdhash/gen/internal/x86emu"
	"github.com/simdhash/simdhash/internal/ref"
)

var backends = []func(*build.Context) Backend{AVX2, AVX512}

// variants returns the choices the tests generate for backend b: its
// defaults first, each knob it honours varied alone (knob.Variants), the
// Ch and Maj forms that differ from the defaults in both (which varying
// one knob at a time leaves out), and then random combinations
// (knob.Random).
func variants(b Backend, rng *rand.Rand, random int) []Params {
	base := DefaultParams(b.Lanes())
	knobs := func(p *Params) []knob.Knob { return p.Knobs(b) }
	out := append([]Params{base}, knob.Variants(base, knobs, nil, Params.Validate)...)
	if !b.Ternary() {
		for _, ch := range []sha1sched.Ch{sha1sched.ChXor, sha1sched.ChAdd} {
			for _, maj := range []sha1sched.Maj{sha1sched.MajXor, sha1sched.MajOr, sha1sched.MajAdd} {
				if ch != base.Stream.Ch && maj != base.Stream.Maj {
					q := base
					q.Stream.Ch, q.Stream.Maj = ch, maj
					out = append(out, q)
				}
			}
		}
	}
	return append(out, knob.Random(rng.Intn, random, base, knobs, Params.Validate)...)
}

// generateOn describes the kernel into a fresh context and compiles it.
func generateOn(newBackend func(*build.Context) Backend, p Params) (*ir.File, Backend, error) {
	ctx := build.NewContext()
	b := newBackend(ctx)
	if err := Generate(b, p, "kernel"); err != nil {
		return nil, b, err
	}
	f, err := x86emu.Compile(ctx)
	return f, b, err
}

// lanesIn is a kernel's input besides h and n: for each lane, cnt blocks
// to absorb, rem of them at seg[0], then the rest at seg[1] (rem <= 0:
// all at seg[0]). Lanes may share segments.
type lanesIn struct {
	seg [maxLanes][2][]byte
	rem [maxLanes]int32
	cnt [maxLanes]int32
}

// blocks returns lane l's cnt blocks in the order the kernel must hash them.
func (in *lanesIn) blocks(l int) []byte {
	r, n := int(in.rem[l]), int(in.cnt[l])
	if r <= 0 || r >= n {
		return in.seg[l][0][:64*n]
	}
	return append(append([]byte(nil), in.seg[l][0][:64*r]...), in.seg[l][1][:64*(n-r)]...)
}

// runOnMachine runs the kernel of f on the emulator (gen/internal/x86emu)
// with state h, the lanes' blocks in, and n, and returns h afterwards.
// Every segment is a region of its own, so the emulator fails a read
// outside any.
func runOnMachine(t *testing.T, f *ir.File, h [5][16]uint32, in *lanesIn, n int) [5][16]uint32 {
	t.Helper()
	m := x86emu.New(f)
	var hb, pb, cb []byte
	for w := range h {
		for l := range h[w] {
			hb = binary.LittleEndian.AppendUint32(hb, h[w][l])
		}
	}
	pb, cb = make([]byte, 4*maxLanes*8), make([]byte, 2*maxLanes*4)
	placed := map[*byte]uint64{}
	for l := range in.seg {
		for i, d := range in.seg[l] {
			if len(d) == 0 {
				continue
			}
			a, ok := placed[&d[0]]
			if !ok {
				a = m.Alloc("segment", d, false)
				placed[&d[0]] = a
			}
			binary.LittleEndian.PutUint64(pb[8*(maxLanes*i+l):], a)
		}
		binary.LittleEndian.PutUint32(cb[4*l:], uint32(in.rem[l]))
		binary.LittleEndian.PutUint32(cb[4*(maxLanes+l):], uint32(in.cnt[l]))
	}
	hAddr := m.Alloc("h", hb, true)
	m.Args["h"], m.Args["p"], m.Args["c"], m.Args["n"] = hAddr, m.Alloc("p", pb, true), m.Alloc("c", cb, true), uint64(n)
	m.Run(x86emu.Function(f, "kernel"), 200000)
	var out [5][16]uint32
	hb = m.Bytes(hAddr, len(hb))
	for w := range out {
		for l := range out[w] {
			out[w][l] = binary.LittleEndian.Uint32(hb[64*w+4*l:])
		}
	}
	return out
}

// expect is what a kernel of lanes lanes must leave in h.
func expect(h [5][16]uint32, in *lanesIn, lanes int) [5][16]uint32 {
	for l := 0; l < lanes; l++ {
		s := [5]uint32{h[0][l], h[1][l], h[2][l], h[3][l], h[4][l]}
		ref.SHA1Blocks(&s, in.blocks(l))
		for w := range s {
			h[w][l] = s[w]
		}
	}
	return h
}

// randomLanes returns random states and, for each of 16 lanes, up to n
// blocks to absorb (all n in lanes of all, 0..n in the others, at least
// one lane with n), in one or two segments (the switch anywhere from the
// first block to past the last), some lanes sharing another's.
func randomLanes(rng *rand.Rand, n int, all uint32) (h [5][16]uint32, in *lanesIn) {
	in = new(lanesIn)
	for l := range in.seg {
		if l > 0 && rng.Intn(5) == 0 {
			o := rng.Intn(l)
			in.seg[l], in.rem[l], in.cnt[l] = in.seg[o], in.rem[o], in.cnt[o]
		} else {
			in.cnt[l] = int32(n)
			if all>>l&1 == 0 {
				in.cnt[l] = int32(rng.Intn(n + 1))
			}
			in.rem[l] = int32(rng.Intn(n+2) - 1) // -1..n: no switch, or after rem blocks
			r := n
			if in.rem[l] > 0 && int(in.rem[l]) < n {
				r = int(in.rem[l])
			}
			in.seg[l][0] = make([]byte, 64*r)
			in.seg[l][1] = make([]byte, 64*(n-r))
			rng.Read(in.seg[l][0])
			rng.Read(in.seg[l][1])
		}
		for w := range h {
			h[w][l] = rng.Uint32()
		}
	}
	in.cnt[0] = int32(n)
	return h, in
}

// TestEmulated runs every variant of both kernels on the emulator (of
// a kernel the CPU runs, which TestSweep runs natively, two) against
// FIPS 180-4: one to three blocks (the prologue, the loop and the
// branch out of the last block), every lane absorbing all of them or only
// some (retiring early, or not at all), each lane's blocks in one segment
// or two. The emulator fails a kernel that
// reads outside the blocks it was given.
func TestEmulated(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	random := 2
	if testing.Short() {
		random = 0
	}
	for _, nb := range backends {
		ps := variants(nb(nil), rng, random)
		if runtime.GOARCH == "amd64" && gentest.Runs(nb(nil).Name()) {
			// TestSweep runs every variant natively: here the defaults
			// and the gather load check the emulator against the CPU.
			ps = ps[:1]
			q := ps[0]
			q.Load = LoadGather
			ps = append(ps, q)
		}
		for _, p := range ps {
			f, b, err := generateOn(nb, p)
			if err != nil {
				t.Errorf("%s %s: %v", nb(nil).Name(), p.String(nb(nil)), err)
				continue
			}
			name := b.Name() + " " + p.String(b)
			for n := 1; n <= 3; n++ {
				for _, all := range []uint32{1<<16 - 1, rng.Uint32()} {
					h, in := randomLanes(rng, n, all)
					got := runOnMachine(t, f, h, in, n)
					if want := expect(h, in, b.Lanes()); got != want {
						t.Fatalf("%s, %d blocks, counts %v, rem %v:\n got %08x\nwant %08x", name, n, in.cnt, in.rem, got, want)
					}
				}
			}
		}
	}
}

// TestTernary checks the immediates of the round functions against the
// SDM's examples: Ch is "a ? b : c" (0xca), Parity the three-way XOR (0x96),
// Maj the majority (0xe8).
func TestTernary(t *testing.T) {
	for _, c := range []struct {
		name string
		f    sha1sched.Func
		want uint8
	}{{"Ch", sha1sched.FCh, 0xca}, {"Parity", sha1sched.FParity, 0x96}, {"Maj", sha1sched.FMaj, 0xe8}} {
		if got := c.f.Ternary(); got != c.want {
			t.Errorf("%s: %#x, want %#x", c.name, got, c.want)
		}
	}
}

// TestLookaheadModel: every look-ahead Validate accepts passes the W model
// for both kernels, and the model, not only Validate, rejects look-aheads
// too short for a load group's words to be stored before their rounds
// (1, 2) or so long that the next block's loads overwrite words still to
// be read (17, 20). (3 fits the unpack load's steps, but not every
// placement of them: Validate keeps the one-stream kernels' 4..16.)
func TestLookaheadModel(t *testing.T) {
	for _, nb := range backends {
		for l := 1; l <= ringWords+4; l++ {
			p := DefaultParams(nb(nil).Lanes())
			p.Stream.Lookahead = sha1sched.Lookahead(l)
			ctx := build.NewContext()
			err := generate(nb(ctx), p, "kernel")
			valid := p.Validate() == nil
			switch {
			case valid && err != nil:
				t.Errorf("%s lookahead %d: %v", nb(nil).Name(), l, err)
			case (l <= 2 || l > ringWords) && (err == nil || !strings.Contains(err.Error(), "would be read from")):
				t.Errorf("%s lookahead %d: the model said %v, want a W slot error", nb(nil).Name(), l, err)
			}
		}
	}
}

// TestKnobsChangeCode: every knob a kernel registers changes its code, and
// the schedule line names exactly those knobs.
func TestKnobsChangeCode(t *testing.T) {
	for _, nb := range backends {
		b := nb(nil)
		base := DefaultParams(b.Lanes())
		baseText := text(t, nb, base)
		for _, p := range variants(b, rand.New(rand.NewSource(2)), 0)[1:] {
			if text(t, nb, p) == baseText {
				t.Errorf("%s: %s generates the same code as %s", b.Name(), p.String(b), base.String(b))
			}
		}
		keys := map[string]bool{}
		for _, f := range strings.Fields(base.String(b)) {
			k, _, _ := strings.Cut(f, "=")
			keys[k] = true
		}
		for _, k := range []string{"ch", "maj"} {
			if keys[k] == b.Ternary() {
				t.Errorf("%s: schedule line %q and the -%s knob disagree", b.Name(), base.String(b), k)
			}
		}
	}
}

func text(t *testing.T, nb func(*build.Context) Backend, p Params) string {
	f, _, err := generateOn(nb, p)
	if err != nil {
		t.Fatal(err)
	}
	var s strings.Builder
	for _, fn := range f.Functions() {
		for _, i := range fn.Instructions() {
			fmt.Fprintln(&s, i.OpcodeWithSuffixes(), i.Operands)
		}
	}
	return s.String()
}
