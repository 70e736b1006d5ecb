package ghash

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/internal/asmtext"
)

// The "neon" kernel is selected on CPUs without the 64-bit PMULL, and qemu
// cannot take that instruction away (every qemu-aarch64 model has it), so
// running the kernel proves nothing about it: a stray 64-bit PMULL would
// run fine under emulation and fault on the hardware the kernel is for.
// These tests read the generated text instead. They run on every GOARCH.

// pmull64Text is VPMULL or VPMULL2 with doubleword operands or a
// quadword result.
var pmull64Text = regexp.MustCompile(`(?i)\bVPMULL2?\b[^/\n]*\.(D1|D2|Q1)\b`)

// isPMULL64 reports whether the instruction word w is PMULL or PMULL2 with
// size = 11 (1Q <- 1D/2D): 0 Q 0 01110 11 1 Rm 111000 Rn Rd.
func isPMULL64(w uint32) bool { return w&0xbfe0fc00 == 0x0ee0e000 }

// pmull64Lines returns the lines of body that hold a 64-bit PMULL, written
// out or as a WORD.
func pmull64Lines(body []string) []string {
	written := func(l string) bool { return pmull64Text.MatchString(asmtext.Code(l)) }
	return asmtext.Lines(body, written, isPMULL64)
}

// TestNEONKernelTextHasNoPMULL64 reads ghash_arm64.s: the body of
// ghashNEON must hold no 64-bit PMULL in any form, and the Requires lines
// of both kernels must match their dispatch flags.
func TestNEONKernelTextHasNoPMULL64(t *testing.T) {
	src, err := os.ReadFile("ghash_arm64.s")
	if err != nil {
		t.Fatalf("the generated arm64 kernels: %v", err)
	}
	body, ok := asmtext.Body(string(src), "ghashNEON")
	if !ok {
		t.Fatal("ghash_arm64.s has no TEXT ·ghashNEON(SB)")
	}
	if bad := pmull64Lines(body); len(bad) > 0 {
		t.Errorf("the neon kernel uses the 64-bit PMULL, which it must run without:\n%s", strings.Join(bad, "\n"))
	}
	// It must still be the 8-bit PMULL kernel, or the check above is vacuous.
	if !regexp.MustCompile(`\bVPMULL2?\s+V\d+\.B(8|16), V\d+\.B(8|16), V\d+\.H8`).MatchString(strings.Join(body, "\n")) {
		t.Error("the neon kernel has no 8-bit VPMULL: is ghashNEON the right function?")
	}

	// The Requires lines must agree with the dispatch flags in kernel_arm64.go.
	for name, want := range map[string]string{"ghashNEON": "ASIMD", "ghashPMULL": "ASIMD, PMULL"} {
		if got, _ := asmtext.Requires(string(src), name); got != want {
			t.Errorf("%s: Requires line %q, want %q", name, got, want)
		}
	}
}

// TestPMULL64Detector checks the detector itself on the forms it must catch
// and the forms it must let through.
func TestPMULL64Detector(t *testing.T) {
	caught := []string{
		"\tVPMULL V1.D1, V0.D1, V2.Q1",
		"\tVPMULL2  V1.D2, V0.D2, V3.Q1",
		"\tvpmull v1.d1, v0.d1, v2.q1",
		"\tWORD $0x0ee1e002 // a PMULL.1Q written as a word",
		"\tWORD $0x4ee1e002",
		"\tWORD $249683970", // 0x0ee1e002 in decimal
	}
	for _, l := range caught {
		if len(pmull64Lines([]string{l})) != 1 {
			t.Errorf("not caught: %q", l)
		}
	}
	passed := []string{
		"\tVPMULL V1.B8, V0.B8, V2.H8",
		"\tVPMULL2 V1.B16, V0.B16, V3.H8",
		"\tWORD $0x0e21e002 // pmull v2.8h, v0.8b, v1.8b",
		"\tWORD $0x4e611c43 // bic v3.16b, v2.16b, v1.16b",
		"\tVEOR V1.B16, V2.B16, V3.B16 // not a VPMULL V1.D1, V0.D1, V2.Q1",
	}
	for _, l := range passed {
		if bad := pmull64Lines([]string{l}); len(bad) != 0 {
			t.Errorf("wrongly caught: %q", l)
		}
	}
	src := "TEXT ·a(SB), $0\n\tVPMULL V1.D1, V0.D1, V2.Q1\nTEXT ·b(SB), $0\n\tRET\nDATA x<>+0(SB)/8, $0\n"
	if body, ok := asmtext.Body(src, "b"); !ok || len(pmull64Lines(body)) != 0 {
		t.Error("asmtext.Body(b) included another function's text")
	}
	if body, ok := asmtext.Body(src, "a"); !ok || len(pmull64Lines(body)) != 1 {
		t.Error("asmtext.Body(a) missed its own text")
	}
}
