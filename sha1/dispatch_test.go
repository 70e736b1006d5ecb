package sha1

import (
	"bytes"
	stdsha1 "crypto/sha1"
	"encoding"
	"go/build"
	"hash"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/internal/ref"
)

// TestRegistry checks the kernels built for this GOARCH against the list
// of docs/sha1.md and the README: a kernel dropped from a build, or added
// without its tests and documentation, fails here.
func TestRegistry(t *testing.T) {
	want := map[string][]string{
		"amd64":   {"shani", "avx2", "avx", "ssse3", "generic"},
		"arm64":   {"ce", "neon", "generic"},
		"arm":     {"ce", "neon", "generic"},
		"386":     {"avx", "ssse3", "stdlib", "generic"},
		"loong64": {"stdlib", "generic"},
		"s390x":   {"stdlib", "generic"},
	}[runtime.GOARCH]
	// From Go 1.27 crypto/sha1 has riscv64 assembly, which stdlib uses.
	if runtime.GOARCH == "riscv64" && slices.Contains(build.Default.ReleaseTags, "go1.27") {
		want = []string{"stdlib", "generic"}
	}
	if want == nil || pureGo {
		want = []string{"generic"}
	}
	if got := kernelNames(); !slices.Equal(got, want) {
		t.Fatalf("%s (purego %v): kernels %v, want %v", runtime.GOARCH, pureGo, got, want)
	}
	ids := map[kernelID]string{}
	for _, k := range kernels {
		if other, ok := ids[k.id]; ok {
			t.Errorf("kernels %s and %s share an id", other, k.name)
		}
		ids[k.id] = k.name
	}
}

// TestEveryKernelDispatches runs each kernel of the registry that the CPU
// can run by its raw function, through block (the dispatch switch) and
// through Sum and New, against the reference: a kernel the switch lacks a
// case for panics there instead of running another kernel.
func TestEveryKernelDispatches(t *testing.T) {
	rng := newRand(t)
	msg := randomBytes(rng, 5*BlockSize+17)
	h0 := [5]uint32{rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32()}
	want := h0
	ref.SHA1Blocks(&want, msg)
	sum := ref.SHA1(msg)
	forEachKernel(t, func(t *testing.T) {
		for _, c := range []struct {
			name string
			fn   func(h *[5]uint32, p []byte)
		}{{"raw", active.block}, {"block", block}} {
			h := h0
			c.fn(&h, msg)
			if h != want {
				t.Errorf("%s function: state %08x, want %08x", c.name, h, want)
			}
		}
		if got := Sum(msg); got != sum {
			t.Errorf("Sum = %x, want %x", got, sum)
		}
		d := New()
		d.Write(msg)
		if got := d.Sum(nil); !bytes.Equal(got, sum[:]) {
			t.Errorf("New/Write/Sum = %x, want %x", got, sum)
		}
		// Whatever the kernel, the Hash offers what crypto/sha1's does.
		if _, ok := d.(interface {
			encoding.BinaryMarshaler
			encoding.BinaryAppender
			encoding.BinaryUnmarshaler
			hash.Cloner
		}); !ok {
			t.Errorf("New() returns a %T, which lacks a method of crypto/sha1's Hash", d)
		}
	})
}

// TestUnknownKernelPanics checks the default of the dispatch switch: a
// kernel it has no case for panics, naming it, rather than running
// another kernel.
func TestUnknownKernelPanics(t *testing.T) {
	saved := active
	t.Cleanup(func() { active = saved })
	active = &kernel{name: "nonesuch", id: 255, available: true, block: blockGeneric}
	for name, f := range map[string]func(){
		"block": func() { var h [5]uint32; block(&h, make([]byte, BlockSize)) },
		"Sum":   func() { Sum(nil) },
	} {
		func() {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(r.(string), "nonesuch") {
					t.Errorf("%s with an unknown kernel: recovered %v, want a panic naming it", name, r)
				}
			}()
			f()
		}()
	}
}

// TestNewAllocs checks that New allocates no more than crypto/sha1.New.
func TestNewAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation changes allocation counts")
	}
	var sink hash.Hash
	std := testing.AllocsPerRun(100, func() { sink = stdsha1.New() })
	forEachKernel(t, func(t *testing.T) {
		if a := testing.AllocsPerRun(100, func() { sink = New() }); a > std {
			t.Errorf("New: %v allocations, crypto/sha1.New %v", a, std)
		}
	})
	_ = sink
}
