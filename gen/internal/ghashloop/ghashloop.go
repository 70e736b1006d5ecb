// Package ghashloop reads the main loops of the amd64 GHASH kernels from
// their generated Go assembly (gen/ghash_pclmul), for the tools that
// relate a loop's instructions to its speed: gen/tools/ghashspeed (the
// share of the multiplier) and gen/tools/ghashmca (llvm-mca's models).
package ghashloop

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/simdhash/simdhash/internal/asmtext"
)

// Kernel is one amd64 kernel: its name in package ghash's registry, the
// generated file and TEXT of its update function, and the width of its
// widest loop (whose label is loop<width>).
type Kernel struct {
	Name, File, Text string
	Width            int
}

// Kernels are the amd64 kernels, narrowest first.
var Kernels = []Kernel{
	{"pclmul-sse", "ghash_amd64.s", "ghashPCLMUL", 128},
	{"pclmul", "ghash_amd64.s", "ghashPCLMULAVX", 128},
	{"vpclmul256", "ghash_vpclmul256_amd64.s", "ghashVPCLMUL256", 256},
	{"vpclmul512", "ghash_vpclmul512_amd64.s", "ghashVPCLMUL512", 512},
}

// Named returns the kernel called name.
func Named(name string) (Kernel, bool) {
	for _, k := range Kernels {
		if k.Name == name {
			return k, true
		}
	}
	return Kernel{}, false
}

// Loop is one iteration of a kernel's widest loop, as generated.
type Loop struct {
	Body   []string // the instructions from the label to the jump back (left out), without comments
	Blocks int      // blocks absorbed per iteration (one group)
	Knobs  string   // the function's "Knobs:" comment, if any
}

// Bytes is the input one iteration absorbs.
func (l Loop) Bytes() int { return 16 * l.Blocks }

// Count returns the number of instructions of the body whose mnemonic is
// one of mnemonics.
func (l Loop) Count(mnemonics ...string) int {
	n := 0
	for _, line := range l.Body {
		if f := strings.Fields(line); len(f) > 0 && slices.Contains(mnemonics, f[0]) {
			n++
		}
	}
	return n
}

// Read returns kernel k's widest loop from the generated file in dir.
func Read(dir string, k Kernel) (Loop, error) {
	src, err := os.ReadFile(filepath.Join(dir, k.File))
	if err != nil {
		return Loop{}, err
	}
	return Parse(string(src), k)
}

// Parse returns kernel k's widest loop from the generated source src:
// the instructions from its label, loop<width>, to the JAE back to it
// (which a software-pipelined loop's prologue and epilogue are outside
// of), and the group size its "Groups of N blocks at W bits" comment
// names.
func Parse(src string, k Kernel) (Loop, error) {
	body, ok := asmtext.Body(src, k.Text)
	if !ok {
		return Loop{}, fmt.Errorf("%s: no TEXT ·%s(SB)", k.File, k.Text)
	}
	var l Loop
	label := fmt.Sprintf("loop%d", k.Width)
	blocksRe := regexp.MustCompile(fmt.Sprintf(`Groups of (\d+) blocks at %d bits`, k.Width))
	in, closed := false, false
	for _, line := range body {
		if m := blocksRe.FindStringSubmatch(line); m != nil {
			l.Blocks, _ = strconv.Atoi(m[1])
		}
		if _, knobs, found := strings.Cut(line, "// Knobs: "); found && l.Knobs == "" {
			l.Knobs = strings.TrimSpace(knobs)
		}
		code := strings.TrimSpace(asmtext.Code(line))
		f := strings.Fields(code)
		switch {
		case code == label+":":
			in = true
		case in && len(f) == 2 && f[0] == "JAE" && f[1] == label:
			in, closed = false, true
		case in && code != "" && !strings.HasSuffix(code, ":"):
			l.Body = append(l.Body, code)
		}
	}
	if !closed || l.Blocks == 0 {
		return Loop{}, fmt.Errorf("%s: no loop %s in ·%s, or no group size", k.File, label, k.Text)
	}
	return l, nil
}
