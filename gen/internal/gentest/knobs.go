package gentest

import (
	"strings"
	"testing"

	"github.com/simdhash/simdhash/gen/internal/knob"
)

// KnobsChangeCode checks that every variant of a kernel generates other code
// than base (its knobs are honest) and that the generated file names each
// variant's schedule in a "// Schedule: ... ." line, which the comparison
// leaves out. name labels the kernel in messages; generate returns the file
// generated for p.
func KnobsChangeCode[P any](t *testing.T, name string, base P, variants []P, schedule func(P) string, generate func(P) string) {
	t.Helper()
	strip := func(s string, p P) string {
		line := "// Schedule: " + schedule(p) + "."
		if !strings.Contains(s, line) {
			t.Fatalf("%s: the generated file lacks the schedule line %q", name, line)
		}
		return strings.ReplaceAll(s, line, "")
	}
	want := strip(generate(base), base)
	if len(variants) == 0 {
		t.Fatalf("%s: no variants", name)
	}
	for _, p := range variants {
		if strip(generate(p), p) == want {
			t.Errorf("%s %s generates the same code as %s", name, schedule(p), schedule(base))
		}
	}
}

// KnobFlags lists the flags of knobs, in order, separated by spaces: what a
// kernel registers, for the tests that pin each kernel's list.
func KnobFlags(knobs []knob.Knob) string {
	var flags []string
	for _, k := range knobs {
		flags = append(flags, k.Spec().Flag)
	}
	return strings.Join(flags, " ")
}
