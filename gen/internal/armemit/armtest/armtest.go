// Package armtest holds the checks that the tests of the ARM emitters
// (gen/internal/arm64, gen/internal/arm32) and of the generators built on
// them run alike: the encodings against GNU as, pinned words, refused
// operand shapes and command lines, and reproducible output.
package armtest

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/gen/internal/armemit"
	"github.com/simdhash/simdhash/gen/internal/gentest"
)

// Must returns v, or ends the test with err: for a test's steps that fail
// only if the package is wrong, as file := armtest.Must(NewFile(expr))(t).
func Must[T any](v T, err error) func(t *testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// Encodings prints file, which holds f, with Go's assembler and f in GNU
// syntax after prelude (the directives GNU as needs) with GNU as, and
// compares every instruction's machine words (gentest.CompareEncodings,
// prologue words before the first instruction).
func Encodings(t *testing.T, file *armemit.File, f *armemit.Func, goarch, prefix, prelude string, prologue int) {
	t.Helper()
	src := Must(file.Bytes([]string{"test"}))(t)
	var gnu strings.Builder
	gnu.WriteString(prelude)
	var insts []gentest.Encoding
	for _, n := range f.Nodes() {
		switch n := n.(type) {
		case armemit.Label:
			fmt.Fprintf(&gnu, "%s:\n", n)
		case *armemit.Inst:
			fmt.Fprintf(&gnu, "\t%s\n", n.GNU)
			insts = append(insts, gentest.Encoding{Go: n.Text(), GNU: n.GNU})
		}
	}
	gentest.CompareEncodings(t, goarch, prefix, src, []byte(gnu.String()), prologue, insts)
}

// Emitter is a function of an instruction-set package (its *Func).
type Emitter interface{ Insts() []*armemit.Inst }

// Words checks that each instruction, emitted first into a new
// function, prints as the text it is keyed by.
func Words[F Emitter](t *testing.T, newFunc func() F, cases map[string]func(f F)) {
	t.Helper()
	for want, emit := range cases {
		f := newFunc()
		emit(f)
		if got := f.Insts()[0].Text(); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

// Refused checks that each emission of bad panics, each into a new
// function: an operand shape the instruction lacks.
func Refused[F any](t *testing.T, newFunc func() F, bad map[string]func(f F)) {
	t.Helper()
	for name, emit := range bad {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: accepted", name)
				}
			}()
			emit(newFunc())
		}()
	}
}

// Outputs checks that every instruction but a branch declares what it
// writes, which the scheduler relies on.
func Outputs(t *testing.T, insts []*armemit.Inst) {
	t.Helper()
	for _, i := range insts {
		if !i.Branch && !i.Terminal && len(i.Out) == 0 {
			t.Errorf("%s declares no output", i.Text())
		}
	}
}

// Lines returns the line number of each line of text, without its
// surrounding space (a loop in GNU syntax, to compare where instructions
// went).
func Lines(text string) map[string]int {
	pos := map[string]int{}
	for k, l := range strings.Split(strings.TrimSpace(text), "\n") {
		pos[strings.TrimSpace(l)] = k
	}
	return pos
}

// Contains checks that b, with each run of spaces made one, holds every
// string of wants.
func Contains(t *testing.T, b []byte, wants ...string) {
	t.Helper()
	got := regexp.MustCompile(` +`).ReplaceAllString(string(b), " ")
	for _, want := range wants {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// Deterministic generates each of the named files twice: the bytes must
// not differ (make check-generated relies on it).
func Deterministic(t *testing.T, names []string, generate func(name string) (*armemit.File, error)) {
	t.Helper()
	for _, name := range names {
		var out [2][]byte
		for i := range out {
			file := Must(generate(name))(t)
			out[i] = Must(file.Bytes([]string{"test"}))(t)
		}
		if string(out[0]) != string(out[1]) {
			t.Errorf("%s: two runs gave different files", name)
		}
	}
}

// Refusal is a command line that a generator must refuse, and what its
// error must say ("" for any error).
type Refusal struct {
	Args []string
	Msg  string
}

// Refuses checks that run refuses each command line, with an error
// saying why, printing nothing to its stderr, and that out was not
// written.
func Refuses(t *testing.T, run func(args []string, stderr io.Writer) error, out string, cases []Refusal) {
	t.Helper()
	for _, c := range cases {
		var stderr strings.Builder
		err := run(c.Args, &stderr)
		if err == nil || !strings.Contains(err.Error(), c.Msg) {
			t.Errorf("%q: error %v, want one saying %q", c.Args, err, c.Msg)
		}
		if stderr.Len() > 0 {
			t.Errorf("%q: printed %q", c.Args, stderr.String())
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a rejected run wrote its output")
	}
}
