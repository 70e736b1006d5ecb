package sha1many

import (
	"fmt"
	"math/rand"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/gentest"
	"github.com/simdhash/simdhash/gen/internal/x86emu"
)

// TestEncodings assembles every variant of both kernels (with -short,
// their defaults and the gather load) with Go's assembler, disassembles the linked code with GNU objdump, and checks
// that each vector and opmask instruction is the one avo holds, operand by
// operand (registers, immediates, memory operands, broadcast, masking), in
// the order the emulator reads them. The emulator runs the 16-lane
// kernel here, where nothing else can; this is what ties the emulator's
// reading of the instructions to the bytes a CPU with AVX-512 will run.
func TestEncodings(t *testing.T) {
	gentest.NativeAMD64(t)
	objdump := gentest.Binutil(t, "objdump")
	var vs []scratchVariant
	var files []*ir.File
	for _, nb := range backends {
		b := nb(nil)
		ps := variants(b, rand.New(rand.NewSource(4)), 0)
		if testing.Short() {
			ps = ps[:1] // the defaults
			q := ps[0]
			q.Load = LoadGather
			ps = append(ps, q)
		}
		for _, p := range ps {
			vs = append(vs, scratchVariant{nb, p, b.Name() + " " + p.String(b)})
			f, _, err := generateOn(nb, p)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	dir := scratchKernels(t, vs)
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	gentest.Run(t, dir, nil, goBin, "test", "-c", "-o", "sweep.test", ".")
	pkg := strings.TrimSpace(string(gentest.Run(t, dir, nil, goBin, "list", "-f", "{{.ImportPath}}", ".")))
	checked := 0
	for i, v := range vs {
		out, err := exec.Command(objdump, "-d", "--no-show-raw-insn", fmt.Sprintf("--disassemble=%s.kernel%d.abi0", pkg, i), filepath.Join(dir, "sweep.test")).CombinedOutput()
		if err != nil {
			t.Fatalf("objdump: %v\n%s", err, out)
		}
		// The vector and opmask instructions, in order on both sides (the
		// assembler adds only scalar ones: the frame's prologue and
		// epilogue).
		gnu := gentest.Words(out, objdumpLine)
		var want []string
		for _, inst := range files[i].Functions()[0].Instructions() {
			if c, ok := canonGo(inst); ok {
				want = append(want, c)
			}
		}
		if len(gnu) != len(want) {
			t.Fatalf("%s: objdump shows %d vector and opmask instructions, avo holds %d", v.name, len(gnu), len(want))
		}
		for j := range want {
			if got := canonGNU(gnu[j]); got != want[j] {
				t.Fatalf("%s, vector instruction %d: Go's assembler wrote %q, which reads as %q; avo holds %q", v.name, j, gnu[j], got, want[j])
			}
			checked++
		}
	}
	t.Logf("%d vector and opmask instructions of %d kernels match", checked, len(vs))
}

// objdumpLine matches a line of objdump's disassembly whose instruction
// is a vector or opmask one (v..., k...).
var objdumpLine = regexp.MustCompile(`^\s+[0-9a-f]+:\t([vk].*?)\s*(?:#.*)?$`)

// canonGo renders a vector or opmask instruction of avo as "mnemonic
// operand,operand {mask}", in Go's operand order (which AT&T syntax
// shares), or reports false for any other instruction.
func canonGo(inst *ir.Instruction) (string, bool) {
	op := strings.ToLower(inst.Opcode)
	if op[0] != 'v' && op[0] != 'k' {
		return "", false
	}
	ops := inst.Operands
	mask := ""
	// A masked EVEX instruction has its opmask just before the destination.
	if op[0] == 'v' && len(ops) >= 3 {
		if k, ok := ops[len(ops)-2].(reg.Register); ok && k.Kind() == reg.KindOpmask {
			mask = "{" + strings.ToLower(k.Asm()) + "}"
			ops = append(append([]operand.Op(nil), ops[:len(ops)-2]...), ops[len(ops)-1])
		}
	}
	var s []string
	for _, o := range ops {
		switch x := o.(type) {
		case reg.Register:
			s = append(s, regName(x.Asm()))
		case operand.Mem:
			m := memString(x)
			if len(inst.Suffixes) > 0 && inst.Suffixes[0] == "BCST" {
				m += "{bcst}"
			}
			s = append(s, m)
		default:
			s = append(s, fmt.Sprintf("$%#x", x86emu.Const(o)))
		}
	}
	return op + " " + strings.Join(s, ",") + mask, true
}

// regName is a register's name in lower case, general-purpose registers by
// number whatever their width (AX and EAX are r0).
func regName(name string) string {
	name = strings.ToLower(strings.TrimPrefix(name, "%"))
	gp := map[string]string{"ax": "r0", "cx": "r1", "dx": "r2", "bx": "r3", "sp": "r4", "bp": "r5", "si": "r6", "di": "r7"}
	for k, v := range gp {
		if name == k || name == "r"+k || name == "e"+k {
			return v
		}
	}
	if m := regexp.MustCompile(`^r(\d+)[dwb]?$`).FindStringSubmatch(name); m != nil {
		return "r" + m[1]
	}
	if m := regexp.MustCompile(`^([xyz])(mm)?(\d+)$`).FindStringSubmatch(name); m != nil {
		return m[1] + "mm" + m[3]
	}
	return name
}

func memString(m operand.Mem) string {
	if m.Symbol.Name != "" {
		return "[sym]"
	}
	s := fmt.Sprintf("[%s", regName(m.Base.Asm()))
	if m.Index != nil {
		s += fmt.Sprintf("+%s*%d", regName(m.Index.Asm()), m.Scale)
	}
	return s + fmt.Sprintf("%+d]", m.Disp)
}

var (
	gnuMem  = regexp.MustCompile(`^(-?0x[0-9a-f]+|-?\d+)?\((%\w+)?(?:,(%\w+),(\d))?\)(\{1to\d+\})?$`)
	gnuMask = regexp.MustCompile(`\{(%k\d)\}$`)
)

// canonGNU renders one line of objdump's AT&T disassembly as canonGo does.
func canonGNU(line string) string {
	mnem, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	mask := ""
	if m := gnuMask.FindStringSubmatch(rest); m != nil {
		mask = "{" + strings.TrimPrefix(m[1], "%") + "}"
		rest = strings.TrimSuffix(rest, m[0])
	}
	var s []string
	for _, o := range splitOperands(rest) {
		switch {
		case strings.HasPrefix(o, "$"):
			var v uint64
			fmt.Sscanf(o, "$%v", &v)
			s = append(s, fmt.Sprintf("$%#x", v))
		case strings.HasPrefix(o, "%"):
			s = append(s, regName(o))
		default:
			m := gnuMem.FindStringSubmatch(o)
			if m == nil {
				s = append(s, "?"+o)
				continue
			}
			if m[2] == "%rip" {
				s = append(s, "[sym]"+map[bool]string{true: "{bcst}"}[m[5] != ""])
				continue
			}
			var disp int64
			fmt.Sscanf(m[1], "%v", &disp)
			x := "[" + regName(m[2])
			if m[3] != "" {
				x += "+" + regName(m[3]) + "*" + m[4]
			}
			x += fmt.Sprintf("%+d]", disp)
			if m[5] != "" {
				x += "{bcst}"
			}
			s = append(s, x)
		}
	}
	return mnem + " " + strings.Join(s, ",") + mask
}

// splitOperands splits AT&T operands at the commas outside parentheses.
func splitOperands(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	if s != "" {
		out = append(out, s[start:])
	}
	return out
}
