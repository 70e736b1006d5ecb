// Package knob makes the generators' tuning knobs typed values.
//
// A knob is a Go type (an int type whose values are named constants, or a
// number) that implements flag.Value and describes itself: its flag name,
// what it chooses, and each choice with its help text. A misspelt choice in
// a generator is then a compile error, a misspelt flag value is rejected
// with the list of choices, and a new knob is written in one place: its
// type, its constants and its Spec. A kernel lists the knobs it honours
// once; that list registers the flags (Register), prints the schedule into
// the generated file (Format) and drives the sweeps (Choices).
package knob

import (
	"flag"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// A Knob is one tuning choice of a generator, settable from its flag.
type Knob interface {
	flag.Value
	// Spec describes the knob: its flag, and the values Set accepts.
	Spec() *Spec
}

// Spec describes a knob.
type Spec struct {
	Flag string // the flag's name, without the dash
	What string // what the knob chooses, for the flag's help
	// Choices are the values Set accepts, in order: for an enumerated knob
	// of type T, Choices[i] is T(i).
	Choices []Choice
}

// Choice is one value of a knob: its name on the command line and what it
// generates.
type Choice struct{ Name, Help string }

// Usage is the flag's help text: what the knob chooses, then each choice
// with its help on a line of its own.
func (s *Spec) Usage() string {
	var b strings.Builder
	b.WriteString(s.What)
	for _, c := range s.Choices {
		if c.Help == "" {
			continue
		}
		fmt.Fprintf(&b, "\n  %s: %s", c.Name, c.Help)
	}
	return b.String()
}

// Names lists the names of the choices, in order.
func (s *Spec) Names() []string {
	var n []string
	for _, c := range s.Choices {
		n = append(n, c.Name)
	}
	return n
}

// Name returns the name of the i-th choice, for an enumerated knob's
// String method.
func (s *Spec) Name(i int) string {
	if i < 0 || i >= len(s.Choices) {
		return fmt.Sprintf("%s(%d)", s.Flag, i)
	}
	return s.Choices[i].Name
}

// SetEnum sets *p to the choice of s named name, for an enumerated knob's
// Set method, or reports the choices there are.
func SetEnum[T ~int](p *T, s *Spec, name string) error {
	for i, c := range s.Choices {
		if c.Name == name {
			*p = T(i)
			return nil
		}
	}
	return fmt.Errorf("%q is not a choice: want one of %s", name, strings.Join(s.Names(), ", "))
}

// Check reports the first knob whose value is not one of its choices
// (which only a generator's own code can set, as SetEnum accepts no other).
func Check(knobs ...Knob) error {
	for _, k := range knobs {
		s := k.Spec()
		if !slices.Contains(s.Names(), k.String()) {
			return fmt.Errorf("-%s=%s: want one of %s", s.Flag, k, strings.Join(s.Names(), ", "))
		}
	}
	return nil
}

// Register adds each knob to fs as a flag named by its Spec, whose default
// is the knob's current value. The help names the default on a line of its
// own after the choices, even when it is the type's zero value (the first
// choice), which package flag leaves out.
func Register(fs *flag.FlagSet, knobs ...Knob) {
	for _, k := range knobs {
		usage := k.Spec().Usage()
		if strings.Contains(usage, "\n") {
			usage += "\n"
		}
		if zero := reflect.New(reflect.TypeOf(k).Elem()).Interface().(Knob); zero.String() == k.String() {
			usage += fmt.Sprintf(" (default %s)", k)
		}
		fs.Var(k, k.Spec().Flag, usage)
	}
}

// Format returns the knobs' values as "flag=value" pairs separated by
// spaces, in the order given: the schedule line of a generated file.
func Format(knobs ...Knob) string {
	var s []string
	for _, k := range knobs {
		s = append(s, k.Spec().Flag+"="+k.String())
	}
	return strings.Join(s, " ")
}

// Variants returns base with each other choice of each of its knobs, one
// knob at a time, for the sweeps: knobs returns the knobs of a value
// (which Set changes), fit adjusts a value after the change (nil: none),
// and values that valid rejects are left out (nil: none is).
func Variants[P any](base P, knobs func(*P) []Knob, fit func(*P), valid func(P) error) []P {
	var out []P
	for i, kn := range knobs(&base) {
		for _, c := range kn.Spec().Names() {
			if c == kn.String() {
				continue
			}
			q := base
			if err := knobs(&q)[i].Set(c); err != nil {
				panic(err) // a choice its own Spec lists
			}
			if fit != nil {
				fit(&q)
			}
			if valid == nil || valid(q) == nil {
				out = append(out, q)
			}
		}
	}
	return out
}

// Random returns n values that valid accepts, each base with every knob
// set to a choice drawn with intn (such as math/rand's Intn).
func Random[P any](intn func(int) int, n int, base P, knobs func(*P) []Knob, valid func(P) error) []P {
	var out []P
	for len(out) < n {
		p := base
		for _, kn := range knobs(&p) {
			names := kn.Spec().Names()
			if err := kn.Set(names[intn(len(names))]); err != nil {
				panic(err)
			}
		}
		if valid(p) == nil {
			out = append(out, p)
		}
	}
	return out
}
