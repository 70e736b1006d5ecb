package arm64

import (
	"testing"

	"github.com/simdhash/simdhash/gen/internal/armemit/armtest"
)

// The check's instructions, assembled by Go's assembler and by GNU as
// (as TestEncodings does for the others), and SSHR's WORD pinned.
func TestCheckEncodings(t *testing.T) {
	file := armtest.Must(NewFile("arm64"))(t)
	f := armtest.Must(file.Func("check", "func() (n uint32)"))(t)
	f.VSSHR(31, V2.S4(), V1.S4())
	f.VSSHR(1, V31.S4(), V0.S4())
	f.MVN(R19, R20)
	f.Label("here")
	f.CBNZ(R20, "here")
	f.MVNW(R19, R3)
	f.SUBReg(R5, R1, R19)
	f.SUBReg(R5.LSR(6), R1, R19)
	f.RET()
	armtest.Encodings(t, file.File, f.Func, "arm64", "aarch64-linux-gnu-", "\t.arch armv8-a\n", 0)
	armtest.Words(t, newFunc, map[string]func(f *Func){
		"WORD $0x4f210441 // sshr v1.4s, v2.4s, #31": func(f *Func) { f.VSSHR(31, V2.S4(), V1.S4()) },
	})
}
