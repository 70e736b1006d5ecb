//go:build amd64 && !purego

package ghash

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/internal/asmtext"
	"github.com/simdhash/simdhash/internal/cycles"
	"github.com/simdhash/simdhash/sha1"
	"golang.org/x/sys/cpu"
)

// amd64Kernels returns the registry's amd64 kernels (all but generic).
func amd64Kernels(t testing.TB) []*kernel {
	var ks []*kernel
	for i := range kernels[:len(kernels)-1] {
		ks = append(ks, &kernels[i])
	}
	if len(ks) == 0 {
		t.Fatal("no amd64 kernel registered")
	}
	return ks
}

// TestPCLMULPowers checks the key layout ghashPowers writes: H^i as the
// twisted powers that expandPCLMUL makes of H^i itself, and the Karatsuba
// sums, for every power of the table; and that it writes no power above
// the n it is given.
func TestPCLMULPowers(t *testing.T) {
	usable := false
	for _, k := range amd64Kernels(t) {
		usable = usable || k.available // each one's flag covers ghashPowers
	}
	if !usable {
		t.Skip("no amd64 kernel available: ghashPowers would use instructions the CPU lacks")
	}
	rng := rand.New(rand.NewPCG(0x9c2, 0xa7e))
	for trial := 0; trial < 50; trial++ {
		var h [16]byte
		copy(h[:], randBytes(rng, 16))
		var k expandedKey
		expandPCLMUL(&k, &h, tableBlocks)

		// The generic kernel with y = 0 and one block X gives X·H.
		var gk expandedKey
		expandGeneric(&gk, &h)
		pow := h // H^1
		w1 := powerWord(1)
		for i := 1; i <= tableBlocks; i++ {
			var want expandedKey
			expandPCLMUL(&want, &pow, 1)
			lo, hi := k.asm[powerWord(i)], k.asm[powerWord(i)+1]
			if lo != want.asm[w1] || hi != want.asm[w1+1] {
				t.Fatalf("H^%d = %016x%016x, want %016x%016x", i, hi, lo, want.asm[w1+1], want.asm[w1])
			}
			if s := k.asm[sumWord(i)]; s != lo^hi {
				t.Fatalf("Karatsuba sum of H^%d = %016x, want %016x", i, s, lo^hi)
			}
			next := [16]byte{}
			updateGeneric(&next, &gk, pow[:])
			pow = next
		}
		for _, n := range []int{1, 2, pclmulMaxBlocks, tableBlocks - 1, tableBlocks, tableBlocks + 1} {
			var part expandedKey
			expandPCLMUL(&part, &h, n)
			for i := 1; i <= tableBlocks; i++ {
				set := part.asm[powerWord(i)] != 0 || part.asm[powerWord(i)+1] != 0 || part.asm[sumWord(i)] != 0
				if set != (i <= n) {
					t.Fatalf("expandPCLMUL(key, %d): H^%d set = %v", n, i, set)
				}
			}
		}
		// ghashPowers itself stops at the key's end, whatever n.
		var all expandedKey
		expandPCLMUL(&all, &h, 1)
		ghashPowers(&all.asm, 1<<40)
		if all.asm != k.asm {
			t.Fatal("ghashPowers(key, 1<<40) differs from the full expansion")
		}
	}
}

// TestPCLMULKeySize checks that the generated kernels were generated for
// this package's key layout: their signatures name the key's size, which
// gen/ghash_pclmul computes from the same layout as the constants here.
func TestPCLMULKeySize(t *testing.T) {
	var src []byte
	for _, f := range []string{"ghash_amd64.s", "ghash_vpclmul256_amd64.s", "ghash_vpclmul512_amd64.s"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src = append(src, b...)
	}
	for _, fn := range []string{"ghashPCLMUL(", "ghashPCLMULAVX(", "ghashVPCLMUL256(", "ghashVPCLMUL512(", "ghashPowers(", "gcmPCLMUL(", "gcmPCLMULAVX(", "gcmVPCLMUL256("} {
		want := fmt.Sprintf("key *[%d]uint64", asmKeyWords)
		found := false
		for line := range strings.Lines(string(src)) {
			if strings.HasPrefix(line, "// func "+fn) {
				found = true
				if !strings.Contains(line, want) {
					t.Errorf("ghash_amd64.s: %q, want %s", strings.TrimSpace(line), want)
				}
			}
		}
		if !found {
			t.Errorf("ghash_amd64.s has no %s...)", fn)
		}
	}
}

// updateSizes are BenchmarkUpdate's input lengths: OpenSSL's sizes, and
// more around the group sizes of the loops (128, 256 and 512 bytes).
var updateSizes = []int{16, 32, 64, 128, 192, 240, 256, 320, 384, 496, 512, 1024, 2048, 8192}

// clmulChains is how many carry-less multiplies one iteration of a
// clmulLoop function issues (gen/ghash_pclmul's calibrationChains).
const clmulChains = 8

// BenchmarkCLMUL measures the core's carry-less-multiply throughput at 128,
// 256 and 512 bits: run it in the same `go test -bench` as BenchmarkUpdate to
// say what fraction of it a kernel's loop reaches. It reports the time per
// instruction ("ns/clmul"); a 256-bit one makes two 64x64 products, a
// 512-bit one four.
func BenchmarkCLMUL(b *testing.B) {
	const iters = 1000
	for _, c := range []struct {
		name string
		ok   bool
		loop func(int)
	}{
		{"128", kernels[kernelIndex(b, kernelPCLMUL)].available, clmulLoop128},
		{"256", kernels[kernelIndex(b, kernelVPCLMUL256)].available, clmulLoop256},
		{"512", kernels[kernelIndex(b, kernelVPCLMUL512)].available, clmulLoop512},
	} {
		b.Run(c.name, func(b *testing.B) {
			if !c.ok {
				b.Skipf("no %s-bit carry-less multiply on this CPU", c.name)
			}
			cpu := cycles.StartCPU(b)
			for b.Loop() {
				c.loop(iters)
			}
			if ns := cpu.Stop(); ns > 0 {
				b.ReportMetric(ns/(iters*clmulChains), "cpu-ns/clmul")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(iters*clmulChains), "ns/clmul")
		})
	}
}

// kernelIndex returns the index in kernels of the kernel with id.
func kernelIndex(t testing.TB, id kernelID) int {
	for i := range kernels {
		if kernels[i].id == id {
			return i
		}
	}
	t.Fatalf("no kernel with id %d", id)
	return 0
}

// BenchmarkUpdate measures a kernel's update alone on a key made
// beforehand (NewKey): what `openssl speed ghash` measures, a GMAC update
// on a key set once, without BenchmarkKeySumGCM's length block; at more
// sizes, for scripts/ghash-kernels-speed.sh's comparisons of the kernels.
// The sizes are the outer loop, so that the kernels' measurements of one
// size follow each other closely: a ratio between them is then less
// exposed to a change in the machine's load.
func BenchmarkUpdate(b *testing.B) {
	data := bytes.Repeat([]byte{0x5a}, 8192)
	keys := map[*kernel]Key{}
	for _, k := range amd64Kernels(b) {
		if k.available {
			keys[k] = newKey(k, &benchKey)
		}
	}
	for _, n := range updateSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for _, k := range amd64Kernels(b) {
				b.Run(k.name, func(b *testing.B) {
					key, ok := keys[k]
					if !ok {
						b.Skip(unavailable(k))
					}
					b.SetBytes(int64(n))
					var y [16]byte
					cpu := cycles.StartCPU(b)
					for b.Loop() {
						updateWith(k, &y, &key.ek, data[:n])
					}
					cpu.Stop()
					benchSink = y
				})
			}
		})
	}
}

// BenchmarkSHA1After measures whether a kernel slows the code that runs
// after it, as wide vector units can (a lower clock while they are
// powered, on some cores): each iteration absorbs 8 KiB with the kernel
// and then hashes 1 KiB with sha1.Sum. For each kernel, "ghash" times the
// kernel alone and "ghash+sha1" the pair; "sha1" times sha1.Sum alone. The
// pair's time less the kernel's, over sha1's alone, is the slowdown of the
// code after the kernel; compare it between the wide kernels and pclmul in
// one run.
func BenchmarkSHA1After(b *testing.B) {
	data := bytes.Repeat([]byte{0x5a}, 8192)
	msg := bytes.Repeat([]byte{0xa5}, 1024)
	var digest [sha1.Size]byte
	b.Run("sha1", func(b *testing.B) {
		cpu := cycles.StartCPU(b)
		for b.Loop() {
			digest = sha1.Sum(msg)
		}
		cpu.Stop()
	})
	for _, k := range amd64Kernels(b) {
		b.Run(k.name, func(b *testing.B) {
			if !k.available {
				b.Skip(unavailable(k))
			}
			key := newKey(k, &benchKey)
			var y [16]byte
			b.Run("ghash", func(b *testing.B) {
				cpu := cycles.StartCPU(b)
				for b.Loop() {
					updateWith(k, &y, &key.ek, data)
				}
				cpu.Stop()
			})
			b.Run("ghash+sha1", func(b *testing.B) {
				cpu := cycles.StartCPU(b)
				for b.Loop() {
					updateWith(k, &y, &key.ek, data)
					digest = sha1.Sum(msg)
				}
				cpu.Stop()
			})
			benchSink = y
		})
	}
	benchSink[0] ^= digest[0]
}

// TestRequires reads the "Requires:" line of every amd64 function and
// checks it against the dispatch: each extension a kernel's functions use
// (its update, ghashPowers and its short-message GCM function) must be
// among the features that kernel's availability tests (its needs list),
// and its flag must be set whenever the kernel is available. Run under the GODEBUG settings of
// scripts/ci/test-emulated.sh, it checks that each setting that hides an
// extension also hides the kernels that use it.
func TestRequires(t *testing.T) {
	x := &cpu.X86
	flags := map[string]bool{
		"SSE2": x.HasSSE2, "SSSE3": x.HasSSSE3, "AVX": x.HasAVX, "AVX2": x.HasAVX2,
		"PCLMULQDQ": x.HasPCLMULQDQ, "VPCLMULQDQ": hasVPCLMULQDQ,
		// x/sys/cpu sets the AVX-512 flags only when the OS saves the ZMM
		// and opmask state; GODEBUG=cpu.avx512=off clears HasAVX512 alone.
		"AVX512F": x.HasAVX512 && x.HasAVX512F, "AVX512VL": x.HasAVX512 && x.HasAVX512VL,
		"AVX512BW": x.HasAVX512 && x.HasAVX512BW,
	}
	// Each kernel's update and ghashPowers; its gcm function is the one
	// gcmShort's text jumps to for its form.
	uses := map[kernelID][]string{
		kernelVPCLMUL512: {"ghashVPCLMUL512", "ghashPowers"},
		kernelVPCLMUL256: {"ghashVPCLMUL256", "ghashPowers"},
		kernelPCLMUL:     {"ghashPCLMULAVX", "ghashPowers"},
		kernelPCLMULSSE:  {"ghashPCLMUL", "ghashPowers"},
	}
	targets := gcmShortTargets(t)
	for _, k := range amd64Kernels(t) {
		fn, ok := targets[k.gcm]
		if !ok {
			t.Fatalf("kernel %q: gcmShort has no jump for its gcm form %d", k.name, k.gcm)
		}
		uses[k.id] = append(uses[k.id], fn)
	}
	var src string
	for _, f := range []string{"ghash_amd64.s", "ghash_vpclmul256_amd64.s", "ghash_vpclmul512_amd64.s"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src += string(b)
	}
	for _, k := range amd64Kernels(t) {
		fns, ok := uses[k.id]
		if !ok {
			t.Fatalf("kernel %q: TestRequires does not know its functions", k.name)
		}
		for _, fn := range fns {
			req, ok := asmtext.Requires(src, fn)
			if !ok {
				t.Fatalf("%s: no Requires line before its TEXT", fn)
			}
			for _, ext := range asmtext.Unlisted(req, k.features) {
				t.Errorf("kernel %q: %s requires %s, which the kernel's needs list (%v) does not test", k.name, fn, ext, k.features)
			}
			for _, ext := range strings.Split(req, ", ") {
				set, known := flags[ext]
				switch {
				case !known:
					t.Errorf("kernel %q: %s requires %s, which no dispatch flag here tests", k.name, fn, ext)
				case k.available && !set:
					t.Errorf("kernel %q is available, but %s requires %s, which is off", k.name, fn, ext)
				}
			}
		}
	}
}

// TestGCMShortForms checks that every amd64 kernel names a short-message
// function for Key.SumGCM (TestSumGCMShort runs each through it), that
// the forms are gcmShort's, and that gcmShort panics on a form it does not
// know instead of hashing with some other function.
func TestGCMShortForms(t *testing.T) {
	targets := gcmShortTargets(t)
	for _, k := range amd64Kernels(t) {
		if _, ok := targets[k.gcm]; !ok {
			t.Errorf("kernel %q has gcm form %d, not one of gcmShort's (%v)", k.name, k.gcm, targets)
		}
	}
	for form, want := range map[uint8]string{gcmSSE: "gcmPCLMUL", gcmAVX: "gcmPCLMULAVX", gcmYMM: "gcmVPCLMUL256"} {
		if targets[form] != want {
			t.Errorf("gcmShort jumps to %q for form %d, which kernel_amd64.go names %s's", targets[form], form, want)
		}
	}
	var y [16]byte
	var key [asmKeyWords]uint64
	for _, form := range []uint8{0, gcmYMM + 1, 255} {
		mustPanic(t, fmt.Sprintf("gcmShort with form %d", form), func() { gcmShort(&y, &key, nil, nil, 0, 0, false, form) }, "gcm form")
	}
}

// gcmShortTargets reads gcmShort's generated text in ghash_amd64.s: the
// function it jumps to for each form (CMPQ AX, $form; JE label; and at
// label, JMP ·function(SB)).
func gcmShortTargets(t *testing.T) map[uint8]string {
	t.Helper()
	src, err := os.ReadFile("ghash_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	body, ok := asmtext.Body(string(src), "gcmShort")
	if !ok {
		t.Fatal("ghash_amd64.s has no TEXT ·gcmShort")
	}
	forms, labels := map[string]uint8{}, map[string]string{}
	var form, label string
	for _, line := range body {
		f := strings.Fields(strings.ReplaceAll(asmtext.Code(line), ",", " "))
		switch {
		case len(f) == 3 && f[0] == "CMPQ" && f[1] == "AX":
			form = f[2]
		case len(f) == 2 && f[0] == "JE" && form != "":
			n, err := strconv.ParseUint(strings.TrimPrefix(form, "$"), 0, 8)
			if err != nil {
				t.Fatalf("gcmShort: %q: %v", line, err)
			}
			forms[f[1]] = uint8(n)
			form = ""
		case len(f) == 1 && strings.HasSuffix(f[0], ":"):
			label = strings.TrimSuffix(f[0], ":")
		case len(f) == 2 && f[0] == "JMP" && label != "":
			fn := strings.TrimPrefix(f[1], "·")
			fn, _, _ = strings.Cut(fn, "+")
			labels[label] = strings.TrimSuffix(fn, "(SB)")
			label = ""
		}
	}
	targets := map[uint8]string{}
	for l, n := range forms {
		fn, ok := labels[l]
		if !ok {
			t.Fatalf("gcmShort: no JMP at label %s", l)
		}
		targets[n] = fn
	}
	if len(targets) == 0 {
		t.Fatal("gcmShort: no jumps found in its text")
	}
	return targets
}
