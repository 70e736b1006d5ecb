package sha1many

import (
	"path/filepath"
	"testing"

	"github.com/simdhash/simdhash/gen/internal/arm64"
	"github.com/simdhash/simdhash/gen/internal/gentest"
	"github.com/simdhash/simdhash/gen/internal/sha1arm"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// neonRounds describes, through the NEON ISA, the function
// rounds(h *[5][4]uint32, w *[16][4]uint32): the description's 80 rounds
// and 64 schedule words (with the look-ahead of 16) on four lanes, from
// the working variables h[0..4] (one word of each lane per row) and the
// message words W[0..15] in w, the ring; it leaves the variables after the
// last round in h.
func neonRounds(t *testing.T) []byte {
	file, err := arm64.NewFile("arm64")
	if err != nil {
		t.Fatal(err)
	}
	k := sha1arm.KTable(file.File, "roundsK")
	f, err := file.Func("rounds", "func(h *[5][4]uint32, w *[16][4]uint32)")
	if err != nil {
		t.Fatal(err)
	}
	isa := &neon{f: f, ring: arm64.R1, k: [4]arm64.VReg{arm64.V27, arm64.V28, arm64.V29, arm64.V30}, scratch: arm64.V31}
	e := newEmitter(isa, 27, DefaultParams(4)) // V27..V31 are the ISA's own: the W ring is on the stack
	f.LoadArg(f.Arg("h"), arm64.R0)
	f.LoadArg(f.Arg("w"), arm64.R1)
	f.LoadAddr(k, arm64.R2)
	f.VLD1(arm64.R2, isa.k[0].S4(), isa.k[1].S4(), isa.k[2].S4(), isa.k[3].S4())
	v := e.v0
	for i, r := range v.words() {
		f.LDRQ(arm64.R0.At(16*i), arm64.V(int(r)))
	}
	for r := 0; r < 80; r++ {
		var words []step
		if r+ringWords < 80 {
			words = e.wordSteps(r + ringWords)
		}
		sha1sched.Spread.Merge(e.round(r, v), words)
		v = v.next()
	}
	for i, r := range v.words() {
		f.STRQ(arm64.V(int(r)), arm64.R0.At(16*i))
	}
	f.RET()
	b, err := file.Bytes([]string{"TestNEONRounds"})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestNEONRounds checks the NEON lowering of the multi-lane rounds and
// schedule words: neonRounds assembles (go vet, with asmdecl, for arm64)
// and, without -short, runs under qemu-aarch64 against ref.SHA1Steps on
// four lanes of random states and blocks.
func TestNEONRounds(t *testing.T) {
	dir := gentest.ScratchPackage(t)
	gentest.WriteFile(t, filepath.Join(dir, "rounds_arm64.s"), string(neonRounds(t)))
	gentest.WriteFile(t, filepath.Join(dir, "rounds_arm64.go"), "package sweep\n\n//go:noescape\nfunc rounds(h *[5][4]uint32, w *[16][4]uint32)\n")
	gentest.WriteFile(t, filepath.Join(dir, "rounds_arm64_test.go"), neonRoundsTest)
	goBin, _ := gentest.GoTool(t)
	gentest.Run(t, dir, []string{"GOOS=linux", "GOARCH=arm64"}, goBin, "vet", ".")
	if testing.Short() {
		t.Skip("-short: the NEON rounds assemble; without -short they run under qemu-aarch64")
	}
	gentest.NeedQemu(t)
	gentest.TestUnderQemu(t, dir, "arm64", "qemu-aarch64")
}

const neonRoundsTest = `package sweep

import (
	"encoding/binary"
	"math/rand"
	"testing"

	"github.com/simdhash/simdhash/internal/ref"
)

func TestRounds(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 20; trial++ {
		var h, want [5][4]uint32
		var w [16][4]uint32
		for l := 0; l < 4; l++ {
			var block [64]byte
			rng.Read(block[:])
			var s [5]uint32
			for i := range s {
				s[i] = rng.Uint32()
				h[i][l] = s[i]
			}
			for i := range w {
				w[i][l] = binary.BigEndian.Uint32(block[4*i:])
			}
			_, states := ref.SHA1Steps(s, &block)
			for i := range want {
				want[i][l] = states[80][i]
			}
		}
		rounds(&h, &w)
		if h != want {
			t.Fatalf("trial %d: after 80 rounds %08x, want %08x", trial, h, want)
		}
	}
}
`
