package sha1

import (
	"bytes"
	stdsha1 "crypto/sha1"
	"encoding"
	"hash"
	"os"
	"slices"
	"testing"

	"github.com/simdhash/simdhash/internal/ref"
)

// The digest must offer everything crypto/sha1's does.
var (
	_ hash.Hash                  = (*digest)(nil)
	_ encoding.BinaryMarshaler   = (*digest)(nil)
	_ encoding.BinaryAppender    = (*digest)(nil)
	_ encoding.BinaryUnmarshaler = (*digest)(nil)
	_ hash.Cloner                = (*digest)(nil)
)

func TestConstants(t *testing.T) {
	h := New()
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"Size vs crypto/sha1", Size, stdsha1.Size},
		{"Size vs ref", Size, ref.SHA1Size},
		{"BlockSize vs crypto/sha1", BlockSize, stdsha1.BlockSize},
		{"BlockSize vs ref", BlockSize, ref.SHA1BlockSize},
		{"New().Size()", h.Size(), stdsha1.Size},
		{"New().BlockSize()", h.BlockSize(), stdsha1.BlockSize},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.name, c.got, c.want)
		}
	}
}

// TestAgainstRef hashes every length 0..1100 at every start offset 0..15
// inside a larger buffer, with Sum and with New/Write/Sum, and compares with
// the reference. Both functions must leave the buffer untouched.
func TestAgainstRef(t *testing.T) {
	const maxLen, maxOff = 1100, 15
	rng := newRand(t)
	msg := randomBytes(rng, maxLen)
	want := make([][Size]byte, maxLen+1)
	for n := range want {
		want[n] = ref.SHA1(msg[:n])
	}
	forEachKernel(t, func(t *testing.T) {
		for off := 0; off <= maxOff; off++ {
			buf := randomBytes(rng, maxOff+maxLen+BlockSize)
			copy(buf[off:], msg)
			backup := bytes.Clone(buf)
			h := New()
			for n := 0; n <= maxLen; n++ {
				p := buf[off : off+n]
				if got := Sum(p); got != want[n] {
					t.Fatalf("offset %d, len %d: Sum = %x, want %x", off, n, got, want[n])
				}
				h.Reset()
				h.Write(p)
				if got := h.Sum(nil); !bytes.Equal(got, want[n][:]) {
					t.Fatalf("offset %d, len %d: New/Write/Sum = %x, want %x", off, n, got, want[n])
				}
			}
			if !bytes.Equal(buf, backup) {
				t.Fatalf("offset %d: the input buffer was modified", off)
			}
		}
	})
}

// TestLargeRandom hashes a few large messages of random length, in one call
// and in random chunks.
func TestLargeRandom(t *testing.T) {
	maxLen := 1 << 20
	if testing.Short() {
		maxLen = 64 << 10
	}
	rng := newRand(t)
	data := randomBytes(rng, maxLen)
	lengths := []int{maxLen, maxLen - 1, maxLen - 63}
	for range 4 {
		lengths = append(lengths, rng.IntN(maxLen+1))
	}
	want := make([][Size]byte, len(lengths))
	for i, n := range lengths {
		want[i] = ref.SHA1(data[:n])
	}
	forEachKernel(t, func(t *testing.T) {
		for i, n := range lengths {
			if got := Sum(data[:n]); got != want[i] {
				t.Errorf("len %d: Sum = %x, want %x", n, got, want[i])
			}
			h := New()
			for p := data[:n]; len(p) > 0; {
				c := min(len(p), rng.IntN(3*BlockSize*BlockSize))
				h.Write(p[:c])
				p = p[c:]
			}
			if got := h.Sum(nil); !bytes.Equal(got, want[i][:]) {
				t.Errorf("len %d: chunked = %x, want %x", n, got, want[i])
			}
		}
	})
}

// TestBlockFunction drives the active kernel's raw block function directly
// and compares it with ref.SHA1Block, starting from random states.
func TestBlockFunction(t *testing.T) {
	rng := newRand(t)
	forEachKernel(t, func(t *testing.T) {
		blockFn := active.block
		randomState := func() [5]uint32 {
			var h [5]uint32
			for i := range h {
				h[i] = rng.Uint32()
			}
			return h
		}
		// check calls blockFn on the n bytes at offset off of a buffer with
		// random bytes all around them, and returns the resulting state.
		// The whole buffer must be left as it was.
		check := func(h0 [5]uint32, n, off int) [5]uint32 {
			t.Helper()
			buf := randomBytes(rng, off+n+2*BlockSize)
			backup := bytes.Clone(buf)
			h := h0
			blockFn(&h, buf[off:off+n])
			if !bytes.Equal(buf, backup) {
				for i := range buf {
					if buf[i] != backup[i] {
						t.Fatalf("len %d, offset %d: byte %d of the buffer (p[%d]) was modified", n, off, i, i-off)
					}
				}
			}
			want := h0
			ref.SHA1Blocks(&want, buf[off:off+n])
			if h != want {
				t.Fatalf("len %d, offset %d: state %08x, want %08x", n, off, h, want)
			}
			return h
		}

		// Whole blocks, 1 to 20 of them, from random states and offsets.
		for blocks := 1; blocks <= 20; blocks++ {
			for range 4 {
				check(randomState(), blocks*BlockSize, rng.IntN(16))
			}
		}
		// A trailing partial block must be ignored: the state equals the one
		// after the whole blocks alone (check compares with ref.SHA1Blocks, which
		// stops at len(p)&^63).
		for blocks := 0; blocks <= 3; blocks++ {
			for r := 1; r < BlockSize; r++ {
				check(randomState(), blocks*BlockSize+r, rng.IntN(16))
			}
		}
		// Fewer than 64 bytes, nil included: h is unchanged.
		for n := 0; n < BlockSize; n++ {
			h0 := randomState()
			if h := check(h0, n, 0); h != h0 {
				t.Fatalf("len %d: state changed from %08x to %08x", n, h0, h)
			}
		}
		h0 := randomState()
		h := h0
		blockFn(&h, nil)
		if h != h0 {
			t.Fatalf("nil: state changed from %08x to %08x", h0, h)
		}
	})
}

// TestIncremental writes messages in random pieces and checks the digest
// against the one-shot Sum and the reference.
func TestIncremental(t *testing.T) {
	rng := newRand(t)
	forEachKernel(t, func(t *testing.T) {
		for iter := 0; iter < 300; iter++ {
			msg := randomBytes(rng, rng.IntN(5*BlockSize))
			if iter%10 == 0 {
				msg = randomBytes(rng, rng.IntN(40*BlockSize))
			}
			want := ref.SHA1(msg)
			if got := Sum(msg); got != want {
				t.Fatalf("len %d: Sum = %x, want %x", len(msg), got, want)
			}
			h := New()
			var cuts []int
			for p := msg; len(p) > 0; {
				c := rng.IntN(min(len(p), 2*BlockSize) + 1)
				cuts = append(cuts, c)
				h.Write(p[:c])
				p = p[c:]
			}
			if got := h.Sum(nil); !bytes.Equal(got, want[:]) {
				t.Fatalf("len %d written in pieces %v: %x, want %x", len(msg), cuts, got, want)
			}
		}
	})
}

// TestSumKeepsState checks that Sum can be called at any point without
// disturbing the running hash, that it appends to its argument, and that
// Reset starts over.
func TestSumKeepsState(t *testing.T) {
	rng := newRand(t)
	msg := randomBytes(rng, 10*BlockSize+7)
	forEachKernel(t, func(t *testing.T) {
		h := New()
		for n := 0; n <= len(msg); n++ {
			if n > 0 {
				h.Write(msg[n-1 : n])
			}
			want := ref.SHA1(msg[:n])
			prefix := []byte("prefix")
			got := h.Sum(prefix)
			if !bytes.Equal(got[:len(prefix)], []byte("prefix")) || !bytes.Equal(got[len(prefix):], want[:]) {
				t.Fatalf("len %d: Sum(prefix) = %q, want prefix then %x", n, got, want)
			}
			// A second Sum gives the same answer.
			if again := h.Sum(nil); !bytes.Equal(again, want[:]) {
				t.Fatalf("len %d: second Sum = %x, want %x", n, again, want)
			}
		}
		h.Reset()
		empty := ref.SHA1(nil)
		if got := h.Sum(nil); !bytes.Equal(got, empty[:]) {
			t.Fatalf("after Reset: Sum = %x, want %x", got, empty)
		}
		h.Write(msg[:100])
		want := ref.SHA1(msg[:100])
		if got := h.Sum(nil); !bytes.Equal(got, want[:]) {
			t.Fatalf("after Reset and Write: Sum = %x, want %x", got, want)
		}
	})
}

// TestClone checks that a clone continues from the same state and that the
// clone and the original are independent afterwards.
func TestClone(t *testing.T) {
	rng := newRand(t)
	msg := randomBytes(rng, 500)
	for _, n := range []int{0, 1, 63, 64, 65, 130, 500} {
		h := New()
		h.Write(msg[:n])
		c, err := h.(hash.Cloner).Clone()
		if err != nil {
			t.Fatal(err)
		}
		clone := c.(hash.Hash)
		clone.Write(msg[n:])
		h.Write([]byte("different"))
		want := ref.SHA1(msg)
		if got := clone.Sum(nil); !bytes.Equal(got, want[:]) {
			t.Fatalf("split %d: clone = %x, want %x", n, got, want)
		}
		want = ref.SHA1(append(bytes.Clone(msg[:n]), "different"...))
		if got := h.Sum(nil); !bytes.Equal(got, want[:]) {
			t.Fatalf("split %d: original after cloning = %x, want %x", n, got, want)
		}
	}
}

// marshalSplits are the prefix lengths at which states are saved.
func marshalSplits(total int) []int {
	var s []int
	for n := 0; n <= 3*BlockSize && n <= total; n++ {
		s = append(s, n)
	}
	for _, n := range []int{1000, 1023, 1024, 1025, 4095, total} {
		if n <= total {
			s = append(s, n)
		}
	}
	return s
}

// TestMarshalInterop saves the state of one implementation after a prefix of
// a message, restores it into the other, writes the rest and compares the
// digest with the reference, in both directions. The saved bytes must be
// identical to crypto/sha1's.
func TestMarshalInterop(t *testing.T) {
	rng := newRand(t)
	msg := randomBytes(rng, 5000)
	want := ref.SHA1(msg)
	forEachKernel(t, func(t *testing.T) {
		for _, n := range marshalSplits(len(msg)) {
			// Leave stale bytes in our buffer (Reset keeps them) and write
			// the prefix in pieces, so the zero fill of the saved buffer
			// beyond the pending bytes is really tested.
			ours := New()
			ours.Write(randomBytes(rng, 200))
			ours.Reset()
			for p := msg[:n]; len(p) > 0; p = p[min(len(p), 7):] {
				ours.Write(p[:min(len(p), 7)])
			}
			std := stdsha1.New()
			std.Write(msg[:n])

			ourState, err := ours.(encoding.BinaryMarshaler).MarshalBinary()
			if err != nil {
				t.Fatalf("split %d: MarshalBinary: %v", n, err)
			}
			stdState, err := std.(encoding.BinaryMarshaler).MarshalBinary()
			if err != nil {
				t.Fatalf("split %d: crypto/sha1 MarshalBinary: %v", n, err)
			}
			if !bytes.Equal(ourState, stdState) {
				t.Fatalf("split %d: state\n%x\ndiffers from crypto/sha1's\n%x", n, ourState, stdState)
			}

			// ours -> crypto/sha1
			toStd := stdsha1.New()
			if err := toStd.(encoding.BinaryUnmarshaler).UnmarshalBinary(ourState); err != nil {
				t.Fatalf("split %d: crypto/sha1 rejects our state: %v", n, err)
			}
			toStd.Write(msg[n:])
			if got := toStd.Sum(nil); !bytes.Equal(got, want[:]) {
				t.Fatalf("split %d: ours -> crypto/sha1 = %x, want %x", n, got, want)
			}

			// crypto/sha1 -> ours, into a hash that already holds other data
			toOurs := New()
			toOurs.Write(msg[:rng.IntN(200)])
			if err := toOurs.(encoding.BinaryUnmarshaler).UnmarshalBinary(stdState); err != nil {
				t.Fatalf("split %d: UnmarshalBinary of crypto/sha1's state: %v", n, err)
			}
			toOurs.Write(msg[n:])
			if got := toOurs.Sum(nil); !bytes.Equal(got, want[:]) {
				t.Fatalf("split %d: crypto/sha1 -> ours = %x, want %x", n, got, want)
			}

			// The original keeps going after being marshalled.
			ours.Write(msg[n:])
			if got := ours.Sum(nil); !bytes.Equal(got, want[:]) {
				t.Fatalf("split %d: after MarshalBinary = %x, want %x", n, got, want)
			}
		}
	})
}

// TestAppendBinary checks that AppendBinary appends the state after existing
// bytes, leaving them alone, and that the appended part round-trips.
func TestAppendBinary(t *testing.T) {
	msg := []byte("The quick brown fox jumps over the lazy dog, then over 64 bytes of padding")
	h := New()
	h.Write(msg[:70])
	state, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if len(state) != marshaledSize {
		t.Fatalf("MarshalBinary returned %d bytes, want %d", len(state), marshaledSize)
	}
	for _, prefix := range [][]byte{nil, {}, []byte("existing"), make([]byte, 3, 500)} {
		orig := bytes.Clone(prefix)
		out, err := h.(encoding.BinaryAppender).AppendBinary(prefix)
		if err != nil {
			t.Fatal(err)
		}
		if len(out) != len(orig)+marshaledSize {
			t.Fatalf("prefix %q: got %d bytes, want %d", orig, len(out), len(orig)+marshaledSize)
		}
		if !bytes.Equal(out[:len(orig)], orig) {
			t.Fatalf("prefix %q was overwritten: %q", orig, out[:len(orig)])
		}
		if !bytes.Equal(out[len(orig):], state) {
			t.Fatalf("prefix %q: appended state differs from MarshalBinary", orig)
		}
		h2 := New()
		if err := h2.(encoding.BinaryUnmarshaler).UnmarshalBinary(out[len(orig):]); err != nil {
			t.Fatal(err)
		}
		h2.Write(msg[70:])
		want := ref.SHA1(msg)
		if got := h2.Sum(nil); !bytes.Equal(got, want[:]) {
			t.Fatalf("restored from AppendBinary: %x, want %x", got, want)
		}
	}
}

// TestUnmarshalErrors feeds malformed states: each must be rejected with an
// error, without a panic and without changing the hash.
func TestUnmarshalErrors(t *testing.T) {
	h := New()
	h.Write([]byte("some data"))
	good, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	std256 := append([]byte("sha\x03"), good[4:]...) // SHA-256's magic
	cases := map[string][]byte{
		"nil":          nil,
		"empty":        {},
		"magic only":   []byte("sha\x01"),
		"short magic":  []byte("sh"),
		"wrong magic":  append([]byte("sha\x02"), good[4:]...),
		"sha256 magic": std256,
		"no magic":     make([]byte, marshaledSize),
		"one short":    good[:len(good)-1],
		"one long":     append(bytes.Clone(good), 0),
		"double":       append(bytes.Clone(good), good...),
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			d := New()
			d.Write([]byte("before"))
			before := d.Sum(nil)
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("UnmarshalBinary panicked: %v", r)
					}
				}()
				err = d.(encoding.BinaryUnmarshaler).UnmarshalBinary(in)
			}()
			if err == nil {
				t.Fatalf("UnmarshalBinary(%q) returned nil error", in)
			}
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			t.Logf("error: %v", err)
			if after := d.Sum(nil); !bytes.Equal(after, before) {
				t.Fatalf("state changed by a rejected UnmarshalBinary")
			}
			// crypto/sha1 rejects the same inputs.
			if stdErr := stdsha1.New().(encoding.BinaryUnmarshaler).UnmarshalBinary(in); stdErr == nil {
				t.Errorf("crypto/sha1 accepts what we reject")
			}
		})
	}
}

// TestDispatch checks the kernel chosen at init. With SIMDHASH_SHA1_KERNEL
// set (as CI does for each GODEBUG setting) Kernel must report exactly that;
// otherwise it must be the first available kernel of the registry.
func TestDispatch(t *testing.T) {
	got := Kernel()
	if !slices.Contains(kernelNames(), got) {
		t.Fatalf("Kernel() = %q is not a registered kernel %v", got, kernelNames())
	}
	if want, ok := os.LookupEnv("SIMDHASH_SHA1_KERNEL"); ok {
		if got != want {
			t.Fatalf("Kernel() = %q, but SIMDHASH_SHA1_KERNEL = %q (GODEBUG=%q)", got, want, os.Getenv("GODEBUG"))
		}
		return
	}
	t.Logf("Kernel() = %q; registry %v", got, kernelNames())
	for _, k := range kernels {
		if k.available {
			if got != k.name {
				t.Fatalf("Kernel() = %q, want the first available kernel %q", got, k.name)
			}
			return
		}
	}
	t.Fatal("no available kernel in the registry")
}

// TestAllocs checks that Sum, and Write and Sum on a hash from New, do not
// allocate: the states and buffers they hand to the kernel stay on the stack.
func TestAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation changes allocation counts")
	}
	rng := newRand(t)
	data := randomBytes(rng, 3000)
	forEachKernel(t, func(t *testing.T) {
		for _, n := range []int{0, 1, 55, 56, 64, 100, 3000} {
			var sink [Size]byte
			if a := testing.AllocsPerRun(100, func() { sink = Sum(data[:n]) }); a != 0 {
				t.Errorf("Sum of %d bytes: %v allocations per call, want 0", n, a)
			}
			// A caller's stack array passed to Sum must not be moved to the heap.
			if a := testing.AllocsPerRun(100, func() {
				var local [100]byte
				copy(local[:], data)
				sink = Sum(local[:n%100])
			}); a != 0 {
				t.Errorf("Sum of a local array: %v allocations per call, want 0", a)
			}
			_ = sink
		}
		h := New()
		out := make([]byte, 0, Size)
		if a := testing.AllocsPerRun(100, func() {
			h.Write(data[:1000])
			out = h.Sum(out[:0])
		}); a != 0 {
			t.Errorf("Write and Sum: %v allocations per call, want 0", a)
		}
	})
}
