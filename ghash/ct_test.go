//go:build !purego

package ghash

import (
	"bufio"
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"math/bits"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/internal/asmtext"
)

// The constant-time check. It compiles this package's test binary for
// each target below, disassembles it with `go tool objdump`, follows every
// call from the functions that touch the key or the data (ctRoots) through
// this package and the packages it calls, and fails if any function so
// reached
//
//   - refers to a data symbol that is not in ctAllowedData, whatever the
//     instruction (a table indexed by a secret is a load from a data
//     symbol; so is math/bits.Reverse8 on 386, amd64 and arm, where it is a
//     256-byte table: the compiler makes it an anonymous go:string symbol);
//   - calls through a register (which this check could not follow);
//   - calls into the runtime other than the stack-growth, panic, copy,
//     zeroing and write-barrier helpers of ctAllowedRuntime.
//
// The data symbols allowed are each loaded whole, at a fixed address. A
// canary compiled into the same binary (ctCanary: a table indexed by its
// argument, and bits.Reverse8) must be caught on every target, so the
// check cannot pass because the disassembly stopped looking like what it
// parses.

// ctTarget is one build of the test binary to check.
type ctTarget struct {
	label string
	env   []string
	arch  string // the disassembly syntax: amd64, arm64 or arm
}

var ctTargets = []ctTarget{
	{"arm64", []string{"GOARCH=arm64"}, "arm64"},
	{"arm GOARM=7", []string{"GOARCH=arm", "GOARM=7"}, "arm"},
	{"arm GOARM=6", []string{"GOARCH=arm", "GOARM=6"}, "arm"},
	{"amd64", []string{"GOARCH=amd64", "GOAMD64=v1"}, "amd64"},
}

// ctPkg is this package's symbol prefix.
const ctPkg = "github.com/simdhash/simdhash/ghash."

// ctRoots are the functions through which the key and the data pass.
var ctRoots = []string{
	ctPkg + "NewKey",
	ctPkg + "SumGCM",
	ctPkg + "(*Key).SumGCM",
	ctPkg + "(*Hash).Write",
	ctPkg + "(*Hash).value", // Hash.Sum's body, without the append to the caller's slice
}

// ctKeep takes the roots as values, so that each is linked as a function
// of its own, with every call in it inlined as in any caller, even where
// all its calls are inlined.
var ctKeep = []any{NewKey, SumGCM, (*Key).SumGCM, (*Hash).Write, (*Hash).value, ctCanary}

// ctAllowedData are the data symbols the reached functions may refer to,
// and why each is not a table indexed by a secret.
var ctAllowedData = map[string]string{
	"ghashBswap":           "amd64 kernels: PSHUFB's byte-reversal indexes, loaded whole into a register",
	"ghashPoly":            "amd64 kernels: the reduction multiplier, loaded whole into a register",
	"ghashBswap64":         "amd64 kernels (-halves pair): PSHUFB's indexes reversing each 64-bit half, read whole at a fixed address as its operand",
	"ghashLoMask":          "amd64 kernels (-blend mask): all ones in the low half, read whole at a fixed address as VPAND's operand",
	"ghashHiMask":          "amd64 kernels (512-bit -reduction shift): all ones in the high half, broadcast whole into a register",
	"ghashNeonRotations":   "arm64 neon kernel: TBL's index vectors, loaded whole into registers (TBL permutes registers)",
	"ghashBitrevNibbles":   "arm kernels: VTBL's 16-byte table, loaded whole into a register (VTBL permutes registers)",
	"runtime.writeBarrier": "the garbage collector's write-barrier flag",
	ctPkg + "active":       "the pointer to the kernel chosen at init",
	ctPkg + "errNilKey":    "a misuse panic's value",
	ctPkg + "errZeroKey":   "a misuse panic's value",
	ctPkg + "errZeroHash":  "a misuse panic's value",
	ctPkg + "errGCMForm":   "an internal-error panic's value (gcmBadForm, or gcmShort off amd64)",
}

// ctNotFollowed are functions of this package that the reached code calls
// but the check does not follow, and why.
var ctNotFollowed = map[string]string{
	ctPkg + "noCase": "panics, building its message: a switch over kernel ids lacks a case",
}

// ctAllowedRuntime are the prefixes of the runtime functions the reached
// code may call: stack growth, bounds and misuse panics, copying and
// zeroing of fixed or public sizes, write barriers. They are not followed.
var ctAllowedRuntime = []string{
	"runtime.morestack", "runtime.panic", "runtime.gopanic", "runtime.duffzero",
	"runtime.duffcopy", "runtime.memmove", "runtime.memclrNoHeapPointers",
	"runtime.gcWriteBarrier", "runtime.wbMove", "runtime.wbZero",
}

// ctPackages are the packages whose functions are disassembled and
// followed; reaching any other (but the runtime) fails the check.
var ctPackages = []string{ctPkg, "math/bits.", "encoding/binary.", "internal/byteorder."}

// ctCanaryTable and ctCanary are what the check must catch.
var ctCanaryTable [256]byte

//go:noinline
func ctCanary(b byte) byte { return ctCanaryTable[b] ^ bits.Reverse8(b) }

func TestConstantTimeCode(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the check cross-compiles and disassembles the test binary for arm64, arm and amd64")
	}
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goCmd); err != nil {
		t.Skipf("no go command at %s: %v", goCmd, err)
	}
	if len(ctKeep) == 0 { // a use, so that the linker keeps ctKeep and the roots
		t.Fatal("no roots")
	}
	dir := t.TempDir()
	for _, tg := range ctTargets {
		t.Run(strings.ReplaceAll(tg.label, " ", "_"), func(t *testing.T) {
			bin := filepath.Join(dir, strings.ReplaceAll(tg.label, " ", "_")+".test")
			build := exec.Command(goCmd, "test", "-c", "-o", bin, ".")
			build.Env = append(append(os.Environ(), "GOOS=linux", "CGO_ENABLED=0", "GOFLAGS="), tg.env...)
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("go test -c: %v\n%s", err, out)
			}
			prog, err := ctLoad(goCmd, bin, tg.arch)
			if err != nil {
				t.Fatal(err)
			}
			canary := prog.check([]string{ctPkg + "ctCanary"})
			want := []string{ctPkg + "ctCanaryTable"}
			if tg.arch != "arm64" { // arm64 reverses bits with RBIT
				want = append(want, "go:string.*")
			}
			for _, w := range want {
				if !strings.Contains(strings.Join(canary, "\n"), "data "+w+" ") {
					t.Errorf("the canary's load from %s was not caught: the check is blind on %s; it found:\n%s", w, tg.label, strings.Join(canary, "\n"))
				}
			}
			bad := prog.check(ctRoots)
			if len(bad) > 0 {
				t.Errorf("%s: key expansion or the block loop refers to data or code this check does not allow:\n%s", tg.label, strings.Join(bad, "\n"))
			}
			t.Logf("%s: %d functions reached from %d roots, %d findings", tg.label, len(prog.reached), len(ctRoots), len(bad))
		})
	}
}

// ctProg is a disassembled binary.
type ctProg struct {
	arch    string
	funcs   map[string]*ctFunc
	syms    []ctSym // sorted by address
	elf     *elf.File
	reached map[string]bool
}

type ctFunc struct {
	name, file string
	start, end uint64
	insns      []ctInsn
}

type ctInsn struct {
	pos  string // file:line
	addr uint64
	size int
	text string
}

type ctSym struct {
	addr, size uint64
	kind       byte // nm's type letter
	name       string
}

var (
	ctTextLine = regexp.MustCompile(`^TEXT (\S+)\(SB\) (.*)$`)
	ctInsnLine = regexp.MustCompile(`^\s+(\S+)\s+0x([0-9a-f]+)\s+([0-9a-f]+)\s+(.*?)\s*$`)
	ctNmLine   = regexp.MustCompile(`^\s*([0-9a-f]+)\s+(\d+)\s+([A-Za-z])\s+(.+)$`)
)

func ctLoad(goCmd, bin, arch string) (*ctProg, error) {
	p := &ctProg{arch: arch, funcs: map[string]*ctFunc{}}
	nm, err := exec.Command(goCmd, "tool", "nm", "-size", "-sort", "address", bin).Output()
	if err != nil {
		return nil, fmt.Errorf("go tool nm: %v", err)
	}
	for _, l := range strings.Split(string(nm), "\n") {
		if m := ctNmLine.FindStringSubmatch(l); m != nil {
			a, _ := strconv.ParseUint(m[1], 16, 64)
			s, _ := strconv.ParseUint(m[2], 10, 64)
			p.syms = append(p.syms, ctSym{a, s, m[3][0], m[4]})
		}
	}
	sort.SliceStable(p.syms, func(i, j int) bool { return p.syms[i].addr < p.syms[j].addr })
	var pattern []string
	for _, pkg := range ctPackages {
		pattern = append(pattern, regexp.QuoteMeta(pkg))
	}
	dump, err := exec.Command(goCmd, "tool", "objdump", "-s", "^("+strings.Join(pattern, "|")+")", bin).Output()
	if err != nil {
		return nil, fmt.Errorf("go tool objdump: %v", err)
	}
	var f *ctFunc
	sc := bufio.NewScanner(bytes.NewReader(dump))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if m := ctTextLine.FindStringSubmatch(l); m != nil {
			f = &ctFunc{name: m[1], file: m[2]}
			p.funcs[f.name] = f
			continue
		}
		if m := ctInsnLine.FindStringSubmatch(l); m != nil && f != nil {
			a, _ := strconv.ParseUint(m[2], 16, 64)
			in := ctInsn{pos: m[1], addr: a, size: len(m[3]) / 2, text: m[4]}
			if len(f.insns) == 0 {
				f.start = a
			}
			f.end = a + uint64(in.size)
			f.insns = append(f.insns, in)
		}
	}
	if len(p.funcs) == 0 {
		return nil, fmt.Errorf("go tool objdump printed no functions of %v", ctPackages)
	}
	if p.elf, err = elf.Open(bin); err != nil {
		return nil, err
	}
	return p, nil
}

// symAt returns the symbol holding address a: the last one starting at or
// before it, within its size (or, for a size-0 marker such as go:string.*,
// up to the next symbol).
func (p *ctProg) symAt(a uint64) (ctSym, bool) {
	inBinary := false
	for _, s := range p.elf.Sections {
		if s.Flags&elf.SHF_ALLOC != 0 && a >= s.Addr && a < s.Addr+s.Size {
			inBinary = true
		}
	}
	if !inBinary {
		return ctSym{}, false
	}
	i := sort.Search(len(p.syms), func(i int) bool { return p.syms[i].addr > a }) - 1
	if i < 0 {
		return ctSym{}, false
	}
	s := p.syms[i]
	if s.size > 0 && a >= s.addr+s.size {
		return ctSym{}, false
	}
	return s, true
}

func (p *ctProg) symNamed(name string) (ctSym, bool) {
	for _, s := range p.syms {
		if s.name == name {
			return s, true
		}
	}
	return ctSym{}, false
}

// word returns the 32-bit little-endian word at address a of the binary.
func (p *ctProg) word(a uint64) (uint32, bool) {
	for _, s := range p.elf.Sections {
		if s.Type == elf.SHT_PROGBITS && a >= s.Addr && a+4 <= s.Addr+s.Size {
			var b [4]byte
			if _, err := s.ReadAt(b[:], int64(a-s.Addr)); err != nil {
				return 0, false
			}
			return binary.LittleEndian.Uint32(b[:]), true
		}
	}
	return 0, false
}

// A ctRef is what an instruction refers to outside its function.
type ctRef struct {
	call     bool   // a call or jump to another function
	indirect bool   // through a register
	name     string // the symbol, if objdump named it
	addr     uint64 // else its address
	bad      string // an instruction the check does not understand
}

var (
	ctNamedBranch  = regexp.MustCompile(`^(?:CALL|JMP|BL|B)\s+(\S+)\(SB\)$`)
	ctAddrBranch   = regexp.MustCompile(`^(?:CALL|JMP|BL|B)\s+0x([0-9a-f]+)$`)
	ctRegBranch    = regexp.MustCompile(`^(?:CALL|JMP|BL|B)\s+(?:\*?[A-Z][A-Z0-9]*|[^(\s]*\(([A-Z][A-Z0-9]*)\))$`)
	ctNamedOperand = regexp.MustCompile(`([^\s,$(]+)\(SB\)`)
	ctIPOperand    = regexp.MustCompile(`(-?0x[0-9a-f]+)\(IP\)`)
	ctPoolLoad     = regexp.MustCompile(`^MOV[A-Z.]*\s+(-?0x[0-9a-f]+)\(R15\),\s*(R\d+)$`)
	ctADRP         = regexp.MustCompile(`^ADRP\s+(-?\d+)\(PC\),\s*(R\d+)$`)
)

// refs returns what the instructions of f refer to outside f.
func (p *ctProg) refs(f *ctFunc) []struct {
	ctRef
	in ctInsn
} {
	type out = struct {
		ctRef
		in ctInsn
	}
	var rs []out
	asm := strings.HasSuffix(f.file, ".s")
	if asm && p.arch == "amd64" {
		// Go's x86 disassembler does not know VEX and EVEX encodings and
		// loses the instruction boundaries in them, so that the bytes of
		// a kernel can read as references to any symbol. The generated
		// source says what the kernel refers to: its (SB) operands.
		src, err := os.ReadFile(f.file)
		if err != nil {
			return []out{{ctRef{bad: "the assembly source cannot be read: " + err.Error()}, ctInsn{pos: f.file}}}
		}
		name := strings.TrimSuffix(strings.TrimPrefix(f.name, ctPkg), ".abi0")
		body, ok := asmtext.Body(string(src), name)
		if !ok {
			return []out{{ctRef{bad: "no TEXT for it in " + f.file}, ctInsn{pos: f.file}}}
		}
		for i, line := range body {
			code := strings.TrimSpace(asmtext.Code(line))
			in := ctInsn{pos: fmt.Sprintf("%s, line %d of %s's body", f.file, i+1, name), text: code}
			for _, m := range ctNamedOperand.FindAllStringSubmatch(code, -1) {
				sym, _, _ := strings.Cut(m[1], "+")
				sym = strings.TrimSuffix(sym, "<>")
				if rest, ok := strings.CutPrefix(sym, "·"); ok {
					sym = ctPkg + rest
				}
				op, _, _ := strings.Cut(code, " ")
				call := op == "CALL" || op == "JMP"
				if _, ok := p.funcs[sym+".abi0"]; call && ok {
					// Assembly calls a function of either language
					// by its ABI0 symbol: an assembly body, or the
					// wrapper of a Go function, which calls it.
					sym += ".abi0"
				}
				rs = append(rs, out{ctRef{call: call, name: sym}, in})
			}
		}
		return rs
	}
	for i, in := range f.insns {
		add := func(r ctRef) { rs = append(rs, out{r, in}) }
		text := in.text
		if m := ctNamedBranch.FindStringSubmatch(text); m != nil {
			if m[1] != f.name {
				add(ctRef{call: true, name: m[1]})
			}
			continue
		}
		if m := ctAddrBranch.FindStringSubmatch(text); m != nil && !(asm && p.arch == "amd64") {
			a, _ := strconv.ParseUint(m[1], 16, 64)
			if a < f.start || a >= f.end {
				add(ctRef{call: true, addr: a})
			}
			continue
		}
		if m := ctRegBranch.FindStringSubmatch(text); m != nil && m[1] != "PC" && m[1] != "IP" {
			add(ctRef{call: true, indirect: true})
			continue
		}
		for _, m := range ctNamedOperand.FindAllStringSubmatch(text, -1) {
			name, _, _ := strings.Cut(m[1], "+")
			add(ctRef{name: name})
		}
		switch p.arch {
		case "amd64":
			for _, m := range ctIPOperand.FindAllStringSubmatch(text, -1) {
				d, _ := strconv.ParseInt(m[1], 0, 64)
				add(ctRef{addr: uint64(int64(in.addr) + int64(in.size) + d)})
			}
		case "arm":
			m := ctPoolLoad.FindStringSubmatch(text)
			if m == nil {
				continue
			}
			d, _ := strconv.ParseInt(m[1], 0, 64)
			w, ok := p.word(uint64(int64(in.addr) + 8 + d))
			if !ok {
				add(ctRef{bad: "a PC-relative load from outside the binary's sections"})
				continue
			}
			// A literal pool holds addresses and constants alike. In
			// compiled code, a word is an address if the register it is
			// loaded into (or one computed from it) then serves as a
			// memory operand's base or index. Go's disassembler cannot
			// decode the NEON WORDs of the assembly kernels, so there
			// every word that points into the binary counts.
			if asm || ctAddressUse(f.insns[i+1:], m[2]) {
				add(ctRef{addr: uint64(w)})
			}
		case "arm64":
			m := ctADRP.FindStringSubmatch(text)
			if m == nil {
				continue
			}
			d, _ := strconv.ParseInt(m[1], 10, 64)
			page := uint64(int64(in.addr&^0xfff) + d)
			lo, ok := ctLow12(f.insns, i+1, m[2])
			if !ok {
				add(ctRef{bad: "an ADRP whose next instruction does not add a low offset to " + m[2]})
				continue
			}
			add(ctRef{addr: page + lo})
		}
	}
	return rs
}

// ctAddressUse reports whether register r, as loaded before insns (32-bit
// arm), or a register computed from it, is used as the base or index of a
// memory operand before it is overwritten, before the next branch.
func ctAddressUse(insns []ctInsn, r string) bool {
	tracked := map[string]bool{r: true}
	for _, in := range insns {
		op, args, _ := strings.Cut(in.text, " ")
		if op == "RET" || op == "B" || op == "BL" || strings.HasPrefix(op, "B.") {
			return false
		}
		parts := strings.Split(args, ",")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		for _, a := range parts {
			if strings.Contains(a, "(") {
				for _, reg := range ctRegs.FindAllString(a, -1) {
					if tracked[reg] {
						return true
					}
				}
			}
		}
		dst := parts[len(parts)-1]
		if !ctRegs.MatchString(dst) || dst != ctRegs.FindString(dst) {
			continue
		}
		from := false
		for _, a := range parts[:len(parts)-1] {
			for _, reg := range ctRegs.FindAllString(a, -1) {
				from = from || tracked[reg]
			}
		}
		tracked[dst] = from
	}
	return false
}

var ctRegs = regexp.MustCompile(`\bR\d+\b`)

// ctLow12 finds the low 12 bits of an arm64 address that instruction i
// completes from the page in register r: ADD $lo, r, rd or a load or store
// at lo(r).
func ctLow12(insns []ctInsn, i int, r string) (uint64, bool) {
	if i >= len(insns) {
		return 0, false
	}
	text := insns[i].text
	if m := regexp.MustCompile(`^ADD\s+\$(\d+),\s*` + r + `,`).FindStringSubmatch(text); m != nil {
		v, _ := strconv.ParseUint(m[1], 10, 64)
		return v, true
	}
	if m := regexp.MustCompile(`(?:^|[\s,])(-?\d*)\(` + r + `\)`).FindStringSubmatch(text); m != nil {
		if m[1] == "" {
			return 0, true
		}
		v, _ := strconv.ParseInt(m[1], 10, 64)
		return uint64(v), true
	}
	return 0, false
}

// check follows every call from roots and returns one line per violation.
func (p *ctProg) check(roots []string) []string {
	var bad []string
	p.reached = map[string]bool{}
	queue := append([]string(nil), roots...)
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if p.reached[name] {
			continue
		}
		p.reached[name] = true
		f := p.funcs[name]
		if f == nil {
			bad = append(bad, fmt.Sprintf("%s: reached, but not disassembled (a function outside %v?)", name, ctPackages))
			continue
		}
		for _, r := range p.refs(f) {
			where := fmt.Sprintf("%s (%s: %s)", f.name, r.in.pos, r.in.text)
			switch {
			case r.bad != "":
				bad = append(bad, fmt.Sprintf("%s: %s", where, r.bad))
			case r.indirect:
				bad = append(bad, fmt.Sprintf("%s: an indirect call, which this check cannot follow", where))
			case r.call:
				target := r.name
				if target == "" {
					s, ok := p.symAt(r.addr)
					if !ok {
						bad = append(bad, fmt.Sprintf("%s: a call to %#x, in no symbol", where, r.addr))
						continue
					}
					target = s.name
				}
				target = strings.TrimSuffix(target, "-tramp0")
				if _, ok := ctNotFollowed[target]; ok {
					continue
				}
				if strings.HasPrefix(target, "runtime.") {
					if !ctRuntimeAllowed(target) {
						bad = append(bad, fmt.Sprintf("%s: calls %s, which is not a runtime helper this check allows", where, target))
					}
					continue
				}
				queue = append(queue, target)
			default:
				s, ok := ctSym{}, false
				if r.name != "" {
					s, ok = p.symNamed(r.name)
					if !ok {
						s, ok = ctSym{name: r.name, kind: 'D'}, true
					}
				} else {
					s, ok = p.symAt(r.addr)
				}
				if !ok || s.kind == 'T' || s.kind == 't' {
					continue // a constant that is no address, or code
				}
				if _, allowed := ctAllowedData[s.name]; !allowed {
					bad = append(bad, fmt.Sprintf("%s: data %s (at %#x)", where, s.name, r.addr))
				}
			}
		}
	}
	return bad
}

func ctRuntimeAllowed(name string) bool {
	for _, p := range ctAllowedRuntime {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
