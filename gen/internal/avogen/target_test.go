package avogen

import (
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// kernel386 is a context with one function of the SHA-1 block signature,
// whose body body emits.
func kernel386(body func(c *build.Context, table Mem)) *build.Context {
	c := build.NewContext()
	c.ConstraintExpr("386")
	table := Table(c, "table", []uint32{1, 2, 3, 4})
	c.Function("kern")
	c.Attributes(attr.NOSPLIT)
	c.SignatureExpr("func(h *[5]uint32, p []byte) uint32")
	c.AllocLocal(16)
	body(c, table)
	c.RET()
	return c
}

// A 386 file takes its argument size from frame32 (a slice of 12 bytes),
// and its FP operands at 386's offsets pass.
func TestPrint386(t *testing.T) {
	b, err := I386.Print(kernel386(func(c *build.Context, table Mem) {
		c.MOVL(NewParamAddr("h", 0), reg.EBP)
		c.MOVL(NewParamAddr("p_len", 8), reg.EAX)
		c.LEAL(table, reg.ECX)
		c.MOVOU(Mem{Base: reg.ECX}, reg.X7)
		c.PALIGNR(U8(8), reg.X1, reg.X2)
		c.MOVL(reg.EAX, NewParamAddr("ret", 16))
	}), "x", []string{"test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"//go:build 386\n", "TEXT ·kern(SB), NOSPLIT, $16-20\n", "p_len+8(FP), AX\n", "ret+16(FP)\n", "// Requires: SSE2, SSSE3\n"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("output lacks %q:\n%s", want, b)
		}
	}
}

// What Go's 386 assembler would refuse, or rewrite under -buildmode=pie,
// and arguments at amd64's offsets are refused, naming the instruction.
func TestCheck386(t *testing.T) {
	for _, c := range []struct {
		want string
		emit func(c *build.Context, table Mem)
	}{
		{"MOVQ h+0(FP), AX: a 64-bit instruction", func(c *build.Context, _ Mem) { c.MOVQ(NewParamAddr("h", 0), reg.RAX) }},
		{"register R8 does not exist on 386", func(c *build.Context, _ Mem) { c.MOVL(reg.R8L, reg.EAX) }},
		{"register X8 does not exist on 386", func(c *build.Context, _ Mem) { c.PXOR(reg.X8, reg.X0) }},
		{"ADDQ $0x40, (AX): a 64-bit instruction", func(c *build.Context, _ Mem) { c.ADDQ(U8(64), Mem{Base: reg.EAX}) }},
		{"register R9 does not exist on 386", func(c *build.Context, _ Mem) { c.MOVL(Mem{Base: reg.R9}, reg.EAX) }},
		{"at most three operands", func(c *build.Context, _ Mem) { c.VPALIGNR(U8(8), reg.X0, reg.X1, reg.X2) }},
		{"a global outside LEAL", func(c *build.Context, table Mem) { c.MOVOU(table, reg.X0) }},
		{"argument p_len+16(FP), but 386's frame has it at 8", func(c *build.Context, _ Mem) { c.MOVL(NewParamAddr("p_len", 16), reg.EAX) }},
		{"argument w+0(FP), but 386's frame has it at 0 (present: false)", func(c *build.Context, _ Mem) { c.MOVL(NewParamAddr("w", 0), reg.EAX) }},
	} {
		_, err := I386.Print(kernel386(c.emit), "x", nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one saying %q", err, c.want)
		}
	}
	// amd64 takes all of it.
	if _, err := AMD64.Print(kernel386(func(c *build.Context, table Mem) { c.MOVQ(NewParamAddr("p_len", 16), reg.R9) }), "x", nil); err != nil {
		t.Errorf("amd64: %v", err)
	}
}
