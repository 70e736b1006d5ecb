package sha1

import (
	"bytes"
	"testing"

	"github.com/simdhash/simdhash/internal/testvectors"
)

// The NIST CAVP SHAVS response files in ../testdata/sha1 (provenance in
// testdata/README.md), checked with every kernel.

func TestNISTShortMsg(t *testing.T) { testShavsMsg(t, "SHA1ShortMsg.rsp", 65) }

func TestNISTLongMsg(t *testing.T) { testShavsMsg(t, "SHA1LongMsg.rsp", 64) }

func testShavsMsg(t *testing.T, file string, records int) {
	recs, err := testvectors.SHAVSMessages(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != records {
		t.Fatalf("%s: parsed %d records, want %d", file, len(recs), records)
	}
	forEachKernel(t, func(t *testing.T) {
		for _, r := range recs {
			if got := Sum(r.Msg); got != r.MD {
				t.Errorf("%s:%d (%d bytes): Sum = %x, want %x", file, r.Line, len(r.Msg), got, r.MD)
			}
			// The same message written in pieces of 1, 2, 3, ... bytes, so
			// the buffered path and the direct path both run.
			h := New()
			for p, step := r.Msg, 1; len(p) > 0; step++ {
				n := min(step, len(p))
				h.Write(p[:n])
				p = p[n:]
			}
			if got := h.Sum(nil); !bytes.Equal(got, r.MD[:]) {
				t.Errorf("%s:%d (%d bytes): incremental = %x, want %x", file, r.Line, len(r.Msg), got, r.MD)
			}
		}
	})
}

// TestNISTMonte runs the SHAVS Monte Carlo procedure: for j = 0..99, MD0 =
// MD1 = MD2 = Seed; for i = 3..1002, MDi = SHA1(MD(i-3) || MD(i-2) ||
// MD(i-1)); checkpoint j is MD1002, which is also the next Seed.
func TestNISTMonte(t *testing.T) {
	m, err := testvectors.SHAVSMonteCarlo("SHA1Monte.rsp")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Checkpoints) != 100 {
		t.Fatalf("parsed %d checkpoints, want 100", len(m.Checkpoints))
	}
	forEachKernel(t, func(t *testing.T) {
		seed := m.Seed
		var msg [3 * Size]byte
		for j, want := range m.Checkpoints {
			md0, md1, md2 := seed, seed, seed
			for i := 3; i <= 1002; i++ {
				copy(msg[0:], md0[:])
				copy(msg[Size:], md1[:])
				copy(msg[2*Size:], md2[:])
				md0, md1, md2 = md1, md2, Sum(msg[:])
			}
			if md2 != want {
				t.Fatalf("COUNT = %d: got %x, want %x", j, md2, want)
			}
			seed = md2
		}
	})
}
