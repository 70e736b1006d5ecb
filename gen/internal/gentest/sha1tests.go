package gentest

import (
	"fmt"
	"strings"

	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// SHA1Tests returns the test files of a scratch package of SHA-1 block
// functions (the knob sweeps of gen/internal/sha1x86, gen/internal/sha1arm
// and gen/internal/sha1ce), by file name, for the build constraint expr (the
// package's GOARCHes). The package declares, in files of its own,
//
//	var variants = []variant{{"label", blockN}, ...}
//
// with blockN of the Blocks contract (sha1sched.Contract), and the tests
// check every one of them against internal/ref. If need is not empty, it is a
// boolean the package declares, which says that the CPU has what the
// kernels need: the tests fail at once if it is false.
func SHA1Tests(expr, need string) map[string]string {
	check := ""
	if need != "" {
		check = "\tif !" + need + " {\n\t\tt.Fatal(\"the emulated CPU lacks what the kernels need (" + need + " is false): check the qemu -cpu model\")\n\t}\n"
	}
	return map[string]string{
		"sweep_test.go":       strings.NewReplacer("CONSTRAINT", expr, "\tNEED\n", check, "SIGNATURE", sha1sched.Contract{}.Signature()).Replace(sha1Test),
		"guard_linux_test.go": strings.ReplaceAll(sha1GuardTest, "CONSTRAINT", expr),
	}
}

// sha1Test checks every variant's block function against the FIPS 180-4
// reference: random states, 0..20 whole blocks, alone or with a trailing
// partial block of 1, 37 or 63 bytes that must be ignored, and bytes
// around the input that must not change.
const sha1Test = `//go:build CONSTRAINT

package sweep

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/simdhash/simdhash/internal/ref"
)

type variant struct {
	name  string
	block SIGNATURE
}

func TestVariants(t *testing.T) {
	NEED
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(1))
			for n := 0; n <= 20; n++ {
				for _, extra := range []int{0, 1, 37, 63} {
					buf := make([]byte, 16+64*n+extra+16)
					rng.Read(buf)
					saved := bytes.Clone(buf)
					p := buf[16 : 16+64*n+extra]
					var h [5]uint32
					for i := range h {
						h[i] = rng.Uint32()
					}
					want := h
					ref.SHA1Blocks(&want, p)
					v.block(&h, p)
					if h != want {
						t.Fatalf("%d blocks + %d bytes: state %08x, want %08x", n, extra, h, want)
					}
					if !bytes.Equal(buf, saved) {
						t.Fatalf("%d blocks + %d bytes: the kernel changed its input or the bytes around it", n, extra)
					}
				}
			}
		})
	}
}
`

// sha1GuardTest runs every variant on inputs that end where an
// inaccessible page begins: 0..20 whole blocks, alone and followed by a
// partial block, so that a load past the end of p faults. Where the
// look-ahead stops loading moves with the knobs, which is why every variant
// gets this, not only the checked-in kernels (sha1/guard_test.go).
const sha1GuardTest = `//go:build (CONSTRAINT) && linux

package sweep

import (
	"testing"

	"github.com/simdhash/simdhash/internal/guardpage"
	"github.com/simdhash/simdhash/internal/ref"
)

func TestVariantsGuardPage(t *testing.T) {
	mem := guardpage.Page(t)
	page := len(mem)
	for i := range mem {
		mem[i] = byte(i * 7)
	}
	for _, v := range variants {
		for n := 0; n <= 20; n++ {
			for _, tail := range []int{0, 37} {
				p := mem[page-64*n-tail : page]
				h := [5]uint32{1, 2, 3, 4, 5}
				want := h
				for i := 0; i < n; i++ {
					ref.SHA1Block(&want, (*[64]byte)(p[64*i:]))
				}
				v.block(&h, p)
				if h != want {
					t.Fatalf("%s, %d blocks + %d bytes ending at a guard page: state %08x, want %08x", v.name, n, tail, h, want)
				}
			}
		}
	}
}
`

// StreamTests returns the test file of a scratch package of SHA-1 kernels
// of the Streams contract (sha1sched.Streams), for the build constraint
// expr. The package declares
//
//	var streamVariants = []streamVariant{{"label", streams, kernelN}, ...}
//
// and the test checks each kernel against internal/ref: random states, 0
// to 9 blocks of each stream's own message, each ending at a guard page,
// and the states of h past the kernel's streams left alone. need is as
// for SHA1Tests.
func StreamTests(expr, need string) map[string]string {
	check := ""
	if need != "" {
		check = "\tif !" + need + " {\n\t\tt.Fatal(\"the emulated CPU lacks what the kernels need (" + need + " is false)\")\n\t}\n"
	}
	return map[string]string{"streams_linux_test.go": strings.NewReplacer("CONSTRAINT", expr, "\tNEED\n", check,
		"SIGNATURE", sha1sched.Contract{Form: sha1sched.Streams}.Signature(), "MAX", fmt.Sprint(sha1sched.MaxStreams)).Replace(streamTest)}
}

const streamTest = `//go:build (CONSTRAINT) && linux

package sweep

import (
	"math/rand"
	"testing"

	"github.com/simdhash/simdhash/internal/guardpage"
	"github.com/simdhash/simdhash/internal/ref"
)

type streamVariant struct {
	name    string
	streams int
	block   SIGNATURE
}

func TestStreams(t *testing.T) {
	NEED
	rng := rand.New(rand.NewSource(1))
	var pages [MAX][]byte
	for s := range pages {
		pages[s] = guardpage.Page(t)
	}
	for _, v := range streamVariants {
		for n := 0; n <= 9; n++ {
			var h [MAX][5]uint32
			var p [MAX]*byte
			want := h
			for s := range h {
				for i := range h[s] {
					h[s][i] = rng.Uint32()
				}
				want[s] = h[s]
				msg := pages[s][len(pages[s])-64*n:]
				rng.Read(msg)
				if s < v.streams {
					ref.SHA1Blocks(&want[s], msg)
				}
				p[s] = &pages[s][len(pages[s])-64*n-1+min(n, 1)]
			}
			v.block(&h, &p, n)
			if h != want {
				t.Fatalf("%s, %d blocks: states %08x, want %08x", v.name, n, h, want)
			}
		}
	}
}
`
