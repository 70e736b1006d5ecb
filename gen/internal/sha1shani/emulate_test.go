package sha1shani

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/simdhash/simdhash/gen/internal/x86emu"
	"github.com/simdhash/simdhash/internal/ref"
)

// kernel generates the kernel of streams streams, compiled as avo would
// print it.
func kernel(t *testing.T, streams int) (*ir.File, *ir.Function) {
	t.Helper()
	ctx := build.NewContext()
	if err := Generate(ctx, "kernel", streams); err != nil {
		t.Fatal(err)
	}
	f, err := x86emu.Compile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return f, x86emu.Function(f, "kernel")
}

// emulate runs fn on the emulator (gen/internal/x86emu), which models the
// four SHA instructions from their pseudocode in the Intel SDM: n blocks
// of each stream's message msgs[s] from h[s] (a Streams kernel), or, with
// one stream and blocks, the len(msgs[0])/64 whole blocks of a Blocks
// kernel; it returns the state and counts of the instructions executed.
func emulate(f *ir.File, fn *ir.Function, h [4][5]uint32, msgs [][]byte, n int, blocks bool) ([4][5]uint32, map[string]int) {
	m := x86emu.New(f)
	var hb, pb []byte
	for _, s := range h {
		for _, w := range s {
			hb = binary.LittleEndian.AppendUint32(hb, w)
		}
	}
	hAddr := m.Alloc("h", hb, true)
	m.Args["h"] = hAddr
	for s, msg := range msgs {
		pb = binary.LittleEndian.AppendUint64(pb, m.Alloc(fmt.Sprintf("p[%d]", s), msg, false))
	}
	if blocks {
		m.Args["p_base"], m.Args["p_len"] = binary.LittleEndian.Uint64(pb), uint64(len(msgs[0]))
	} else {
		m.Args["p"], m.Args["n"] = m.Alloc("p", pb, false), uint64(n)
	}
	m.Run(fn, 1<<20)
	hb = m.Bytes(hAddr, len(hb))
	for s := range h {
		for i := range h[s] {
			h[s][i] = binary.LittleEndian.Uint32(hb[20*s+4*i:])
		}
	}
	return h, m.Counts
}

// Both kernels, emulated, compute the FIPS 180-4 block function: one
// stream over 0 to 4 whole blocks and a partial one it must ignore, and
// two interleaved streams (19 registers, two stack slots each) over 0 to 4
// blocks of their own messages, leaving the other states of h alone.
func TestEmulated(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for streams := 1; streams <= 2; streams++ {
		f, fn := kernel(t, streams)
		for n := 0; n <= 4; n++ {
			for trial := 0; trial < 5; trial++ {
				var h [4][5]uint32
				msgs := make([][]byte, streams)
				for s := range h {
					for i := range h[s] {
						h[s][i] = rng.Uint32()
					}
				}
				for s := range msgs {
					msgs[s] = make([]byte, 64*n)
					if streams == 1 {
						msgs[s] = make([]byte, 64*n+rng.IntN(64))
					}
					for i := range msgs[s] {
						msgs[s][i] = byte(rng.Uint32())
					}
				}
				want := h
				for s := range msgs {
					ref.SHA1Blocks(&want[s], msgs[s])
				}
				if got, _ := emulate(f, fn, h, msgs, n, streams == 1); got != want {
					t.Fatalf("%d streams, %d blocks: got %08x, want %08x", streams, n, got, want)
				}
			}
		}
	}
}

// Each block of each stream has 20 SHA1RNDS4, 19 SHA1NEXTE plus one for
// the final E, and 16 schedule groups of SHA1MSG1, PXOR and SHA1MSG2: no
// group is computed twice or skipped.
func TestCounts(t *testing.T) {
	for streams := 1; streams <= 2; streams++ {
		f, fn := kernel(t, streams)
		const n = 3
		msgs := make([][]byte, streams)
		for s := range msgs {
			msgs[s] = make([]byte, 64*n)
		}
		_, counts := emulate(f, fn, [4][5]uint32{}, msgs, n, streams == 1)
		for op, per := range map[string]int{"SHA1RNDS4": 20, "SHA1NEXTE": 20, "SHA1MSG1": 16, "SHA1MSG2": 16} {
			if got := counts[op]; got != per*n*streams {
				t.Errorf("%d streams: %d %s in %d blocks, want %d", streams, got, op, n, per*n*streams)
			}
		}
	}
}

// The emulator tells a wrong kernel from a right one: a SHA1RNDS4 with the
// function of other rounds gives another state (so the tests above can
// fail).
func TestEmulatorCatchesWrongRounds(t *testing.T) {
	f, fn := kernel(t, 1)
	for _, node := range fn.Nodes {
		if i, ok := node.(*ir.Instruction); ok && i.Opcode == "SHA1RNDS4" {
			i.Operands[0] = operand.U8(1)
			break
		}
	}
	msg := make([]byte, 64)
	want := [4][5]uint32{ref.SHA1Init()}
	ref.SHA1Blocks(&want[0], msg)
	if got, _ := emulate(f, fn, [4][5]uint32{ref.SHA1Init()}, [][]byte{msg}, 1, true); got == want {
		t.Fatal("a wrong round function gave the right block function")
	}
}
