package ghash

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/internal/asmtext"
)

// The 32-bit arm "neon" kernel must run on NEON cores without the ARMv8
// Crypto Extensions (a Cortex-A9, A15 or A7, say). qemu-arm -cpu cortex-a15
// does fault on VMULL.P64, so the emulated tests would catch a stray one
// on the paths they take; this test reads the generated text, all of it,
// on every GOARCH. (neon_text_test.go does the same for arm64.)

// isVMULLP64 reports whether the A32 word w is VMULL.P64:
// 1111 0010 1D10 Vn Vd 1110 N0M0 Vm.
func isVMULLP64(w uint32) bool { return w&0xffb00f50 == 0xf2a00e00 }

var vmullP64Text = regexp.MustCompile(`(?i)\bvmull\.p64\b`)

// vmullP64Lines returns the lines of body that hold VMULL.P64, as a WORD
// or named in the text.
func vmullP64Lines(body []string) []string {
	return asmtext.Lines(body, vmullP64Text.MatchString, isVMULLP64)
}

// TestARMNEONKernelTextHasNoVMULLP64 reads ghash_arm.s: the body of
// ghashNEON must hold no VMULL.P64 in any form, and the Requires lines of
// both kernels must match their dispatch flags in kernel_arm.go.
func TestARMNEONKernelTextHasNoVMULLP64(t *testing.T) {
	src, err := os.ReadFile("ghash_arm.s")
	if err != nil {
		t.Fatalf("the generated arm kernels: %v", err)
	}
	body, ok := asmtext.Body(string(src), "ghashNEON")
	if !ok {
		t.Fatal("ghash_arm.s has no TEXT ·ghashNEON(SB)")
	}
	if bad := vmullP64Lines(body); len(bad) > 0 {
		t.Errorf("the arm neon kernel uses VMULL.P64, which it must run without:\n%s", strings.Join(bad, "\n"))
	}
	// It must still be the VMULL.P8 kernel, or the check above is vacuous.
	if !strings.Contains(strings.Join(body, "\n"), "// vmull.p8 q") {
		t.Error("the arm neon kernel has no vmull.p8: is ghashNEON the right function?")
	}
	pmull, _ := asmtext.Body(string(src), "ghashPMULL")
	if len(vmullP64Lines(pmull)) == 0 {
		t.Error("ghashPMULL has no VMULL.P64: the detector or the file is wrong")
	}
	for name, want := range map[string]string{"ghashNEON": "NEON", "ghashPMULL": "NEON, PMULL"} {
		if got, _ := asmtext.Requires(string(src), name); got != want {
			t.Errorf("%s: Requires line %q, want %q", name, got, want)
		}
	}
}

// TestVMULLP64Detector checks the detector on the forms it must catch (the
// words checked with GNU as in gen/internal/arm32) and those it must not.
func TestVMULLP64Detector(t *testing.T) {
	caught := []string{
		"\tWORD $0xf2a00e21 // vmull.p64 q0, d0, d17",
		"\tWORD $0xf2eb6ea2 // written without its comment",
		"\tWORD $4070575649", // 0xf2a00e21 in decimal
		"\t// vmull.p64 q1, d2, d3 in a comment is a smell too",
	}
	for _, l := range caught {
		if len(vmullP64Lines([]string{l})) != 1 {
			t.Errorf("not caught: %q", l)
		}
	}
	passed := []string{
		"\tWORD $0xf2800ea1 // vmull.p8 q0, d16, d17",
		"\tWORD $0xf2ce6ea1 // vmull.p8 q11, d30, d17",
		"\tWORD $0xf3042156 // veor q1, q2, q3",
		"\tWORD $0xf2b42846 // vext.8 q1, q2, q3, #8",
	}
	for _, l := range passed {
		if bad := vmullP64Lines([]string{l}); len(bad) != 0 {
			t.Errorf("wrongly caught: %q", l)
		}
	}
}
