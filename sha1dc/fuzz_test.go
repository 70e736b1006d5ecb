package sha1dc

import (
	"bytes"
	stdsha1 "crypto/sha1"
	"testing"
)

// FuzzSum checks any message against crypto/sha1 (no collision detected on
// fuzzed data: a false positive has probability below 2^-90, and an input
// the fuzzer makes collide would be news) and a hash written in two
// pieces. The comparison with sha1cd is gen/internal/sha1dccheck's FuzzSum.
func FuzzSum(f *testing.F) {
	f.Add([]byte(nil), 0)
	f.Add([]byte("abc"), 1)
	f.Add(bytes.Repeat([]byte{0xa5}, 130), 64)
	f.Fuzz(func(t *testing.T, msg []byte, cut int) {
		got, col := Sum(msg)
		if want := stdsha1.Sum(msg); got != want || col {
			t.Fatalf("Sum = %x %v, crypto/sha1 %x", got, col, want)
		}
		cut = min(max(cut, 0), len(msg))
		h := New().(CollisionResistantHash)
		h.Write(msg[:cut])
		h.Write(msg[cut:])
		if s, c := h.CollisionResistantSum(nil); !bytes.Equal(s, got[:]) || c {
			t.Fatalf("written at %d: %x %v, Sum %x", cut, s, c, got)
		}
	})
}
