package sha1ce

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/simdhash/simdhash/gen/internal/knob"
)

// The knobs' defaults: of the -ahead and -copied values tried
// (docs/sha1.md), the ones whose loop llvm-mca models fastest on the
// Cortex-A53, A55 and A57 at once. Three copied groups are the fewest that
// bring the A57 to Go's figure; more cost the in-order cores too much.
const (
	defaultAhead  ahead    = 2
	defaultCopied groupSet = 1<<4 | 1<<8 | 1<<16
)

// ahead is the number of W+K registers: group g's W+K is added right
// after the rounds of group g-ahead, into the register those rounds read.
type ahead int

// aheads are the values -ahead takes: divisors of the 20 groups, so that
// the ring of W+K registers lines up again at the next block.
var aheads = []ahead{1, 2, 4}

const maxAhead = 4

var aheadSpec = func() *knob.Spec {
	s := &knob.Spec{Flag: "ahead", What: "W+K registers: each group's W+K is added that many groups before its rounds (arm: at most 2, for want of registers)"}
	for _, a := range aheads {
		s.Choices = append(s.Choices, knob.Choice{Name: strconv.Itoa(int(a))})
	}
	return s
}()

func (a ahead) String() string { return strconv.Itoa(int(a)) }

func (a *ahead) Set(s string) error {
	if !strings.Contains(","+strings.Join(aheadSpec.Names(), ",")+",", ","+s+",") {
		return fmt.Errorf("%q is not supported: use one of %v", s, aheads)
	}
	n, _ := strconv.Atoi(s)
	*a = ahead(n)
	return nil
}

func (*ahead) Spec() *knob.Spec { return aheadSpec }

// String lists the groups, as -copied takes them.
func (s groupSet) String() string {
	var gs []string
	for g := 0; g < groups; g++ {
		if s.has(g) {
			gs = append(gs, strconv.Itoa(g))
		}
	}
	if len(gs) == 0 {
		return "none"
	}
	return strings.Join(gs, ",")
}

// Set reads a comma-separated list of groups 1-19, or "none". (Group 0
// always takes its e from a copy: the one the previous block's last
// addition makes.)
func (s *groupSet) Set(v string) error {
	var set groupSet
	if v != "none" {
		for _, f := range strings.Split(v, ",") {
			g, err := strconv.Atoi(f)
			if err != nil || g < 1 || g >= groups {
				return fmt.Errorf("%q is not a group 1-%d (give a comma-separated list, or none)", f, groups-1)
			}
			set |= 1 << g
		}
	}
	*s = set
	return nil
}

// copiedSpec lists a few sets as examples; any set of groups 1-19 is a
// value (knob.Check does not apply).
var copiedSpec = &knob.Spec{Flag: "copied", What: "the groups, 1-19 comma-separated or none, whose SHA1H reads a copy of a..d taken before the rounds (see ce.go), e.g.",
	Choices: []knob.Choice{
		{Name: "none", Help: "SHA1H reads a..d: fastest on in-order cores"},
		{Name: defaultCopied.String(), Help: "the default"},
		{Name: (groupSet(1<<groups-1) &^ 1).String(), Help: "every group, as Go's crypto/sha1 does: fastest on the A57 model"},
	}}

func (*groupSet) Spec() *knob.Spec { return copiedSpec }

// schedule says whether the block loop is reordered for an in-order core.
type schedule bool

var scheduleSpec = &knob.Spec{Flag: "schedule", What: "reorder the block loop for in-order cores:",
	Choices: []knob.Choice{
		{Name: "false", Help: "keep the order of the description"},
		{Name: "true", Help: "the list scheduler's order, for the Cortex-A53 as LLVM models it"},
	}}

func (s schedule) String() string { return strconv.FormatBool(bool(s)) }

func (s *schedule) Set(v string) error {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return fmt.Errorf("%q is not true or false", v)
	}
	*s = schedule(b)
	return nil
}

// IsBoolFlag lets -schedule stand alone for -schedule=true.
func (*schedule) IsBoolFlag() bool { return true }

func (*schedule) Spec() *knob.Spec { return scheduleSpec }
