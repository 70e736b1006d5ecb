package sha1

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/internal/asmtext"
)

// The "neon" kernels are for cores without the SHA-1 instructions, but
// every qemu-aarch64 model runs them (the emulated runs turn them off only
// in golang.org/x/sys/cpu, with GODEBUG=cpu.sha1=off), so running the
// arm64 kernel proves nothing about them: a stray SHA1C would run under
// emulation and fault on a Cortex-A53 without the Cryptographic Extension.
// These tests read the generated text instead, on every GOARCH, for arm64
// and for arm (whose emulated run, on a Cortex-A15, would fault too).

// sha1Text is a SHA-1 instruction written out (Go's arm64 mnemonics), or
// named in a comment (the GNU form of a WORD).
var sha1Text = regexp.MustCompile(`(?i)\bSHA1(C|P|M|H|SU0|SU1)\b`)

// isSHA1A64 reports whether the A64 word w is a SHA-1 instruction: the
// three-register SHA1C, SHA1P, SHA1M, SHA1SU0 (0101 1110 000 Rm 0 opc 00 Rn
// Rd, opc 000 to 011) or the two-register SHA1H, SHA1SU1 (0101 1110 0010
// 1000 0000 opc 10 Rn Rd, opc 0 or 1) (Arm ARM, DDI 0487, C4.1).
func isSHA1A64(w uint32) bool {
	return w&0xffe0cc00 == 0x5e000000 || w&0xffffec00 == 0x5e280800
}

// isSHA1A32 reports whether the A32 word w is a SHA-1 instruction: SHA1C,
// SHA1P, SHA1M, SHA1SU0 (1111 0010 0D op Vn Vd 1100 N1M0 Vm) or SHA1H,
// SHA1SU1 (1111 0011 1D11 1001 Vd 0010 11M0 Vm; ... 1010 Vd 0011 10M0 Vm)
// (DDI 0487, F6).
func isSHA1A32(w uint32) bool {
	return w&0xff800f50 == 0xf2000c40 || w&0xffbf0fd0 == 0xf3b902c0 || w&0xffbf0fd0 == 0xf3ba0380
}

// sha1Lines returns the lines of body that hold a SHA-1 instruction,
// written out, named in a comment or as a WORD of the architecture (isSHA1).
func sha1Lines(body []string, isSHA1 func(uint32) bool) []string {
	return asmtext.Lines(body, sha1Text.MatchString, isSHA1)
}

// TestNEONKernelTextHasNoSHA1 reads the generated files of both ARM
// architectures: the body of blockNEON must hold no SHA-1 instruction in
// any form, and must be the NEON kernel (it rotates with SRI or USRA); the
// body of blockCE must hold them (or the detector is wrong); and the
// Requires lines must match the dispatch flags (kernel_arm64.go,
// kernel_arm.go).
func TestNEONKernelTextHasNoSHA1(t *testing.T) {
	for _, a := range []struct {
		file         string
		isSHA1       func(uint32) bool
		neon, ce     string // the Requires lines
		neonRotate   *regexp.Regexp
		ceMinimum    int // SHA-1 instructions in blockCE at least: 80 rounds, 4 a group
		architecture string
	}{
		{"sha1block_neon_arm64.s", isSHA1A64, "ASIMD", "ASIMD, SHA1", regexp.MustCompile(`\bV(SRI|USRA)\b`), 20, "arm64"},
		{"sha1block_neon_arm.s", isSHA1A32, "NEON", "NEON, SHA1", regexp.MustCompile(`// v(sri|sra)\.`), 20, "arm"},
	} {
		src, err := os.ReadFile(a.file)
		if err != nil {
			t.Fatalf("the generated %s kernel: %v", a.architecture, err)
		}
		body, ok := asmtext.Body(string(src), "blockNEON")
		if !ok {
			t.Fatalf("%s has no TEXT ·blockNEON(SB)", a.file)
		}
		if bad := sha1Lines(body, a.isSHA1); len(bad) > 0 {
			t.Errorf("%s: the neon kernel uses the SHA-1 instructions, which it must run without:\n%s", a.file, strings.Join(bad, "\n"))
		}
		if !a.neonRotate.MatchString(strings.Join(body, "\n")) {
			t.Errorf("%s: blockNEON rotates no vector lanes: is it the neon kernel?", a.file)
		}
		if got, _ := asmtext.Requires(string(src), "blockNEON"); got != a.neon {
			t.Errorf("%s: blockNEON's Requires line %q, want %q", a.file, got, a.neon)
		}

		ceFile := strings.Replace(a.file, "neon", "ce", 1)
		ceSrc, err := os.ReadFile(ceFile)
		if err != nil {
			t.Fatalf("the generated %s ce kernel: %v", a.architecture, err)
		}
		ce, _ := asmtext.Body(string(ceSrc), "blockCE")
		if n := len(sha1Lines(ce, a.isSHA1)); n < a.ceMinimum {
			t.Errorf("%s: %d lines with a SHA-1 instruction in blockCE, want at least %d: the detector misses them", ceFile, n, a.ceMinimum)
		}
		if got, _ := asmtext.Requires(string(ceSrc), "blockCE"); got != a.ce {
			t.Errorf("%s: blockCE's Requires line %q, want %q", ceFile, got, a.ce)
		}
	}
}

// TestSHA1Detector checks the detectors on words assembled by GNU as
// (gen/internal/arm64 and arm32 check these forms) and on their
// neighbours that are not SHA-1 instructions.
func TestSHA1Detector(t *testing.T) {
	for _, c := range []struct {
		w    uint32
		a64  bool
		want bool
	}{
		{0x5e030000, true, true},   // sha1c q0, s0, v3.4s
		{0x5e1f13ff, true, true},   // sha1p q31, s31, v31.4s
		{0x5e0522a4, true, true},   // sha1m q4, s21, v5.4s
		{0x5e063020, true, true},   // sha1su0 v0.4s, v1.4s, v6.4s
		{0x5e280861, true, true},   // sha1h s1, s3
		{0x5e2818e4, true, true},   // sha1su1 v4.4s, v7.4s
		{0x5e004000, true, false},  // sha256h q0, q0, v0.4s
		{0x5e282800, true, false},  // sha256su0 v0.4s, v0.4s
		{0x4e211c00, true, false},  // and v0.16b, v0.16b, v1.16b
		{0xf2060c6a, false, true},  // sha1c.32 q0, q3, q13
		{0xf2100c40, false, true},  // sha1p.32 q0, q0, q0
		{0xf2200c40, false, true},  // sha1m.32 q0, q0, q0
		{0xf2300c40, false, true},  // sha1su0.32 q0, q0, q0
		{0xf3b922c2, false, true},  // sha1h.32 q1, q1
		{0xf3ba0380, false, true},  // sha1su1.32 q0, q0
		{0xf3000c40, false, false}, // sha256h.32 q0, q0, q0
		{0xf3042156, false, false}, // veor q1, q2, q3
		{0xf2b42846, false, false}, // vext.8 q1, q2, q3, #8
	} {
		got := isSHA1A32(c.w)
		if c.a64 {
			got = isSHA1A64(c.w)
		}
		if got != c.want {
			t.Errorf("%#08x (A64 %v): detected %v, want %v", c.w, c.a64, got, c.want)
		}
	}
	for l, want := range map[string]bool{
		"\tSHA1C V13.S4, V3, V0":                        true,
		"\tWORD $0xf3b922c2":                            true,
		"\tWORD $0x5e280861 // a word without its name": false, // an A32 line: not A32's
		"\tVSRI $30, V1.S4, V2.S4 // rotates":           false,
	} {
		if got := len(sha1Lines([]string{l}, isSHA1A32)) > 0; got != want {
			t.Errorf("%q: caught %v, want %v", l, got, want)
		}
	}
}
