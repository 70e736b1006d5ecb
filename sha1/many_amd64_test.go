//go:build amd64 && !purego

package sha1

import (
	"os"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/internal/asmtext"
	"golang.org/x/sys/cpu"
)

// TestManyRequires reads the "Requires:" line of each multi-lane kernel's
// TEXT and checks it against the registry: every extension it lists must
// be among the features that kernel's availability tests (its manyNeeds
// list, or one every amd64 CPU has), and its flag must be set whenever the
// kernel is available (also under the GODEBUG settings that turn
// extensions off).
func TestManyRequires(t *testing.T) {
	x := &cpu.X86
	flags := map[string]bool{
		"AVX": x.HasAVX, "AVX2": x.HasAVX2,
		// x/sys/cpu sets the AVX-512 flags only when the OS saves the ZMM
		// and opmask state; GODEBUG=cpu.avx512=off clears HasAVX512 alone.
		"AVX512F": x.HasAVX512 && x.HasAVX512F, "AVX512VL": x.HasAVX512 && x.HasAVX512VL,
		"AVX512BW": x.HasAVX512 && x.HasAVX512BW,
		// avo's names for CMOVcc and PREFETCHT0: in every amd64 CPU.
		"CMOV": true, "MMX+": true,
		"SHA": hasSHA, "SSE2": x.HasSSE2, "SSE4.1": x.HasSSE41, "SSSE3": x.HasSSSE3,
	}
	files := map[manyID]struct{ file, fn string }{
		manyAVX2x8:    {"sha1many_avx2_amd64.s", "manyAVX2"},
		manyAVX512x16: {"sha1many_avx512_amd64.s", "manyAVX512"},
		manySHANIx2:   {"sha1many_shani_amd64.s", "manySHANI2"},
		manySHANIx3:   {"sha1many_shani_amd64.s", "manySHANI3"},
		manySHANIx4:   {"sha1many_shani_amd64.s", "manySHANI4"},
	}
	for _, k := range manyKernels {
		if k.id == manyPortable || k.id == manySingle {
			continue
		}
		f, ok := files[k.id]
		if !ok {
			t.Fatalf("kernel %q: TestManyRequires does not know its function", k.name)
		}
		src, err := os.ReadFile(f.file)
		if err != nil {
			t.Fatal(err)
		}
		req, ok := asmtext.Requires(string(src), f.fn)
		if !ok {
			t.Fatalf("%s: no Requires line before its TEXT", f.fn)
		}
		// avo's names for CMOVcc and PREFETCHT0, in every amd64 CPU.
		tested := append([]string{"CMOV", "MMX+"}, k.features...)
		for _, ext := range asmtext.Unlisted(req, tested) {
			t.Errorf("kernel %q: %s requires %s, which the kernel's manyNeeds list (%v) does not test", k.name, f.fn, ext, k.features)
		}
		for _, ext := range strings.Split(req, ", ") {
			set, known := flags[ext]
			switch {
			case !known:
				t.Errorf("kernel %q: %s requires %s, which no dispatch flag here tests", k.name, f.fn, ext)
			case k.available && !set:
				t.Errorf("kernel %q is available, but %s requires %s, which is off", k.name, f.fn, ext)
			}
		}
	}
}
