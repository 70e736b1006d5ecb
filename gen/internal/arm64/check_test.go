package arm64

import (
	"fmt"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/gen/internal/armemit"
	"github.com/simdhash/simdhash/gen/internal/gentest"
)

// The check's instructions, assembled by Go's assembler and by GNU as
// (as TestEncodings does for the others), and SSHR's WORD pinned.
func TestCheckEncodings(t *testing.T) {
	file, err := NewFile("arm64")
	if err != nil {
		t.Fatal(err)
	}
	f, err := file.Func("check", "func() (n uint32)")
	if err != nil {
		t.Fatal(err)
	}
	f.VSSHR(31, V2.S4(), V1.S4())
	f.VSSHR(1, V31.S4(), V0.S4())
	f.MVN(R19, R20)
	f.Label("here")
	f.CBNZ(R20, "here")
	f.MVNW(R19, R3)
	f.SUBReg(R5, R1, R19)
	f.SUBReg(R5.LSR(6), R1, R19)
	f.RET()
	src, err := file.Bytes([]string{"test"})
	if err != nil {
		t.Fatal(err)
	}
	gnu, insts := gnuOf(f, "armv8-a")
	gentest.CompareEncodings(t, "arm64", "aarch64-linux-gnu-", src, gnu, 0, insts)

	g := newFunc()
	g.VSSHR(31, V2.S4(), V1.S4())
	if got, want := g.Insts()[0].Text(), "WORD $0x4f210441 // sshr v1.4s, v2.4s, #31"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// gnuOf returns f in GNU syntax for the architecture arch (".arch"), and
// its instructions in both syntaxes, for gentest.CompareEncodings.
func gnuOf(f *Func, arch string) ([]byte, []gentest.Encoding) {
	var gnu strings.Builder
	fmt.Fprintf(&gnu, "\t.arch %s\n", arch)
	var insts []gentest.Encoding
	for _, n := range f.Nodes() {
		switch n := n.(type) {
		case armemit.Label:
			fmt.Fprintf(&gnu, "%s:\n", n)
		case *inst:
			fmt.Fprintf(&gnu, "\t%s\n", n.GNU)
			insts = append(insts, gentest.Encoding{Go: n.Text(), GNU: n.GNU})
		}
	}
	return []byte(gnu.String()), insts
}
