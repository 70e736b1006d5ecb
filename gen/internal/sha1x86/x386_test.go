package sha1x86

import (
	"bufio"
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/gentest"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// on386 returns kernel k as generated for 386.
func on386(t *testing.T, k Kernel) Kernel {
	t.Helper()
	k, err := k.For(avogen.I386)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// cpu386 is the qemu model each 386 kernel runs on: one that has what it
// needs and no more, so that a stray AVX instruction in ssse3 faults.
var cpu386 = map[string]string{"ssse3": "core2duo", "avx": "SandyBridge"}

// TestSweep386 generates the ssse3 and avx kernels for 386 with every
// value of every knob, varied one at a time from the defaults, and three
// random combinations (make sweep: 24), vets them (asmdecl, for 386's
// frames) and runs each under qemu-i386 on the CPU model of its kernel
// against internal/ref, around a guard page too (gentest.SHA1Tests).
func TestSweep386(t *testing.T) {
	combos := gentest.Sweeps(3, 24)
	for _, k := range []Kernel{SSSE3, AVX} {
		k := on386(t, k)
		t.Run(k.Name, func(t *testing.T) {
			var vs []scratchVariant
			for _, p := range sweepParams(k, combos) {
				vs = append(vs, scratchVariant{k: k, p: p, label: k.Name + " 386 " + k.Schedule(p)})
			}
			dir := scratchKernels(t, "TestSweep386", vs, nil)
			gentest.Run386(t, dir, cpu386[k.Name])
			t.Logf("%d kernels", len(vs))
		})
	}
}

// TestTrace386 runs the 386 kernels of the trace contract (W and the states
// after 58 and 65 rounds of the last block, and the blocks absorbed) with
// the placements and look-aheads that move the trace's stores, under
// qemu-i386 against internal/ref's SHA1Steps.
func TestTrace386(t *testing.T) {
	c := sha1sched.Contract{Trace: []int{58, 65}, Result: sha1sched.Absorbed}
	vs := schedVariants([]Kernel{on386(t, SSSE3), on386(t, AVX)}, " 386 ", func(v *scratchVariant, _ int) { v.c = c })
	dir := scratchKernels(t, "TestTrace386", vs, traceTests("386", c))
	gentest.Run386(t, dir, "SandyBridge")
}

// Every schedule the description accepts (look-ahead, placement, the forms
// of Ch and Maj) generates for 386: the ring model, which replays the spill
// slots beside the W+K ring, accepts what fits the frame's buffers.
func TestSchedules386(t *testing.T) {
	n := 0
	for _, k := range []Kernel{SSSE3, AVX} {
		k := on386(t, k)
		for _, s := range sha1sched.Schedules() {
			p := k.Defaults()
			p.Schedule = s
			if err := k.Generate(build.NewContext(), p, "", sha1sched.Contract{}); err != nil {
				t.Errorf("%s for 386, %s: %v", k.Name, k.Schedule(p), err)
			}
			n++
		}
	}
	if n != 2*216 {
		t.Errorf("%d schedules generated, want 216 for each kernel", n)
	}
}

// Every knob changes the 386 code as it does the amd64 code, and the 386
// kernels register the same knobs.
func TestEveryKnobChangesCode386(t *testing.T) {
	for _, k := range []Kernel{SSSE3, AVX} {
		k := on386(t, k)
		base := k.Defaults()
		gentest.KnobsChangeCode(t, k.Name+" 386", base, k.Variants(base), k.Schedule,
			func(p Params) string { return generated(t, k, p) })
		p := k.Defaults()
		if got := gentest.KnobFlags(k.Knobs(&p)); got != "lookahead placement ch maj rotate align" {
			t.Errorf("%s for 386 registers %s", k.Name, got)
		}
	}
}

// The pair kernel has no 386 form, and the 386 kernels take no register
// budget: the description has 7 XMM registers there.
func TestTargets386(t *testing.T) {
	if _, err := AVX2.For(avogen.I386); err == nil {
		t.Error("avx2 has a 386 kernel")
	}
	k := on386(t, SSSE3)
	p := k.Defaults()
	p.Registers = 8
	if err := k.Generate(build.NewContext(), p, "", sha1sched.Contract{}); err == nil || !strings.Contains(err.Error(), "7 XMM") {
		t.Errorf("Registers = 8 on 386: Generate said %v", err)
	}
	if k.Target() != avogen.I386 || SSSE3.Target() != avogen.AMD64 {
		t.Errorf("targets %s and %s", k.Target(), SSSE3.Target())
	}
}

// What the description spills on 386, for every schedule of TestEveryKnob:
// groups 0..12 of each block, once each, and reloads of two groups into
// each of groups 8..19 (W[t-32] and W[t-28]), none more, whatever the
// knobs; and the loop reaches no global.
func TestSpills386(t *testing.T) {
	spill := regexp.MustCompile(`^\s+(MOVOU|VMOVDQU)\s+X\d, (\d+)\(SP\)$`)
	reload := regexp.MustCompile(`^\s+(MOVOU|VMOVDQU)\s+(\d+)\(SP\), X\d$`)
	for _, k := range []Kernel{SSSE3, AVX} {
		k := on386(t, k)
		for _, p := range append([]Params{k.Defaults()}, k.Variants(k.Defaults())...) {
			text := generated(t, k, p)
			loop := text[strings.Index(text, "\nloop:"):regexp.MustCompile(`JMP\s+loop`).FindStringIndex(text)[0]]
			var spills, reloads int
			inSlots := func(off string) bool { // the frame's last 128 bytes (Begin)
				n, _ := strconv.Atoi(off)
				return 136 <= n && n < 264
			}
			sc := bufio.NewScanner(strings.NewReader(loop))
			for sc.Scan() {
				if m := spill.FindStringSubmatch(sc.Text()); m != nil && inSlots(m[2]) {
					spills++
				}
				if m := reload.FindStringSubmatch(sc.Text()); m != nil && inSlots(m[2]) {
					reloads++
				}
				if strings.Contains(sc.Text(), "(SB)") {
					t.Errorf("%s 386 %s: the loop reaches a global: %s", k.Name, k.Schedule(p), sc.Text())
				}
			}
			if spills != 13 || reloads != 24 {
				t.Errorf("%s 386 %s: %d spills and %d reloads a block, want 13 and 24", k.Name, k.Schedule(p), spills, reloads)
			}
		}
	}
}

// vpalignr encodes VPALIGNR as GNU as does in 32-bit mode, for every three
// XMM registers of 386 (and two counts).
func TestVPALIGNR(t *testing.T) {
	gas, objdump := gentest.Binutil(t, "as"), gentest.Binutil(t, "objdump")
	var src strings.Builder
	var want []string
	for _, n := range []uint8{8, 4} {
		for lo := 0; lo < 8; lo++ {
			for hi := 0; hi < 8; hi++ {
				for dst := 0; dst < 8; dst++ {
					// AT&T: vpalignr $n, rm, vvvv, reg, as Go's operand order.
					fmt.Fprintf(&src, "vpalignr $%d, %%xmm%d, %%xmm%d, %%xmm%d\n", n, lo, hi, dst)
					want = append(want, fmt.Sprintf("% x", vpalignr(n, lo, hi, dst)))
				}
			}
		}
	}
	dir := t.TempDir()
	gentest.WriteFile(t, filepath.Join(dir, "v.s"), ".text\n"+src.String())
	gentest.Run(t, dir, nil, gas, "--32", "-o", "v.o", "v.s")
	out := gentest.Run(t, dir, nil, objdump, "-d", "v.o")
	got := gentest.Words(out, regexp.MustCompile(`^\s+[0-9a-f]+:\t((?:[0-9a-f]{2} )*[0-9a-f]{2})\s*\tvpalignr`))
	if len(got) != len(want) {
		t.Fatalf("GNU as gave %d instructions, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s: vpalignr gives %s, GNU as %s", strings.Split(src.String(), "\n")[i], want[i], got[i])
		}
	}
}

// The 386 avx kernel writes each VPALIGNR as a LONG and a WORD, little
// endian, after a comment that names it.
func TestVPALIGNRText(t *testing.T) {
	text := generated(t, on386(t, AVX), AVX.Defaults())
	re := regexp.MustCompile(`// VPALIGNR \$0x08, X(\d), X(\d), X(\d)\n\s+LONG\s+\$0x([0-9a-f]{8})\n\s+WORD\s+\$0x([0-9a-f]{4})\n`)
	ms := re.FindAllStringSubmatch(text, -1)
	if len(ms) == 0 || strings.Count(text, "VPALIGNR") != len(ms) {
		t.Fatalf("%d VPALIGNRs written as bytes, of %d", len(ms), strings.Count(text, "VPALIGNR"))
	}
	for _, m := range ms {
		var lo, hi, dst int
		var long, word uint32
		fmt.Sscanf(m[1]+" "+m[2]+" "+m[3]+" "+m[4]+" "+m[5], "%d %d %d %x %x", &lo, &hi, &dst, &long, &word)
		b := vpalignr(8, lo, hi, dst)
		if got := []byte{byte(long), byte(long >> 8), byte(long >> 16), byte(long >> 24), byte(word), byte(word >> 8)}; !bytes.Equal(got, b) {
			t.Errorf("%s: bytes % x, want % x", strings.TrimSpace(m[0]), got, b)
		}
	}
}
