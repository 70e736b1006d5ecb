package sha1

import (
	"bytes"
	"testing"

	"github.com/simdhash/simdhash/internal/ref"
)

// FuzzSum compares Sum, and New/Write/Sum, with the reference SHA-1 on
// arbitrary data, with every available kernel. (Not with crypto/sha1: on
// 386, loong64 and s390x the stdlib kernel is crypto/sha1.)
func FuzzSum(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("abc"))
	f.Add(bytes.Repeat([]byte{0x5a}, 55))
	f.Add(bytes.Repeat([]byte{0xff}, 56))
	f.Add(bytes.Repeat([]byte("0123456789abcdef"), 33))
	f.Fuzz(func(t *testing.T, data []byte) {
		want := ref.SHA1(data)
		withEachAvailableKernel(func(kernel string) {
			if got := Sum(data); got != want {
				t.Errorf("%s: Sum(%d bytes) = %x, ref.SHA1 %x", kernel, len(data), got, want)
			}
			h := New()
			h.Write(data)
			if got := h.Sum(nil); !bytes.Equal(got, want[:]) {
				t.Errorf("%s: New/Write/Sum(%d bytes) = %x, ref.SHA1 %x", kernel, len(data), got, want)
			}
		})
	})
}

// FuzzIncremental writes arbitrary data in pieces whose lengths come from
// the fuzzer, and checks the digest against the one-shot Sum and the
// reference SHA-1.
func FuzzIncremental(f *testing.F) {
	f.Add([]byte("hello, world"), []byte{3, 0, 5})
	f.Add(bytes.Repeat([]byte{1}, 200), []byte{63, 1, 64, 65, 0})
	f.Add(bytes.Repeat([]byte{7}, 130), []byte{128})
	f.Add([]byte{}, []byte{})
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		want := ref.SHA1(data)
		withEachAvailableKernel(func(kernel string) {
			if got := Sum(data); got != want {
				t.Fatalf("%s: Sum = %x, ref.SHA1 %x", kernel, got, want)
			}
			h := New()
			p := data
			for i := 0; len(p) > 0; i++ {
				n := len(p) // after the given cuts, the rest in one piece
				if i < len(cuts) {
					n = min(int(cuts[i]), len(p))
				}
				h.Write(p[:n])
				p = p[n:]
			}
			if got := h.Sum(nil); !bytes.Equal(got, want[:]) {
				t.Fatalf("%s: %d bytes written in pieces %v: %x, want %x", kernel, len(data), cuts, got, want)
			}
		})
	})
}
