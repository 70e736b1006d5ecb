// Package sha1ce describes the SHA-1 block function for CPUs with the
// SHA-1 instructions of the Arm Cryptographic Extension (SHA1C, SHA1P,
// SHA1M, SHA1H, SHA1SU0, SHA1SU1; Arm ARM, DDI 0487), once for arm64 and
// for 32-bit ARM code on Armv8 cores (the A32 forms as WORDs): the
// description (ce.go) is emitted through a machine for each instruction
// set (machine_a64.go, machine_a32.go), for one stream (the blockCE kernel
// of package sha1, gen/sha1_ce) or several interleaved (Options.Streams);
// emulate_test.go runs it on a model of the instructions, so it is checked
// on any machine. The knobs of Command:
//
//	-arch A       arm64 (the default) or arm
//	-ahead N      W+K registers: each group's W+K is added N groups before
//	              its rounds: 1, 2 (the default) or 4 (arm64 only; 16
//	              registers hold no more)
//	-copied LIST  the groups, 1-19, whose SHA1H reads a copy of a..d
//	              (see ce.go), or none; the default 4,8,16
//	-schedule     reorder the block loop for in-order cores (true), or
//	              keep the order of the description (false)
//
// and -gnu writes the block loop (two blocks) in GNU syntax, for llvm-mca
// (scripts/mca.sh).
package sha1ce

import (
	"flag"
	"fmt"

	"github.com/simdhash/simdhash/gen/internal/arm32"
	"github.com/simdhash/simdhash/gen/internal/arm64"
	"github.com/simdhash/simdhash/gen/internal/armemit"
	"github.com/simdhash/simdhash/gen/internal/knob"
	"github.com/simdhash/simdhash/gen/internal/sha1arm"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// Options are the generator's target and knobs (knobs.go), and the number
// of streams its kernel absorbs.
type Options struct {
	arch     sha1arm.Arch
	ahead    ahead
	copied   groupSet
	schedule schedule
	// Streams is the number of independent streams (1 to 2 on arm64):
	// one is blockCE, of the Blocks form; more take the Streams form.
	Streams int
	// Checked asks for package sha1dc's checking kernel instead
	// (check.go): one stream on arm64, the function CheckedName.
	Checked bool
	// Lanes makes the streams the lanes of a multi-lane kernel of
	// sha1.SumMany, manyCE<Streams>, of the Lanes form (lanes.go): arm64
	// only, 2 streams.
	Lanes bool
}

// knobs returns o's knobs, in the order of the schedule line.
func (o *Options) knobs() []knob.Knob { return []knob.Knob{&o.ahead, &o.copied, &o.schedule} }

// vregs is the size of each architecture's vector register file.
var vregs = map[sha1arm.Arch]int{sha1arm.ARM64: 32, sha1arm.ARM: 16}

func (o Options) check() error {
	if err := knob.Check(&o.ahead, &o.schedule); err != nil {
		return err
	}
	if o.Streams < 1 || o.Streams > sha1sched.MaxStreams {
		return fmt.Errorf("%d streams: want 1 to %d", o.Streams, sha1sched.MaxStreams)
	}
	if o.Lanes && (o.arch != sha1arm.ARM64 || o.Streams < 2) {
		return fmt.Errorf("a Lanes kernel is for arm64, with 2 streams or more")
	}
	if need := registers(int(o.ahead), o.Streams) + o.laneTemps(); need > vregs[o.arch] {
		return fmt.Errorf("-ahead %d needs %d vector registers%s; -arch %s has %d", o.ahead, need, o.streamsText(), o.arch, vregs[o.arch])
	}
	return nil
}

// streamsText names the streams in a message, if there are several.
func (o Options) streamsText() string {
	if o.Streams == 1 {
		return ""
	}
	return fmt.Sprintf(" for %d streams", o.Streams)
}

// contract is the kernel's: the Blocks form for one stream, else Streams.
func (o Options) contract() sha1sched.Contract {
	if o.Lanes {
		return sha1sched.Contract{Form: sha1sched.Lanes}
	}
	if o.Streams > 1 {
		return sha1sched.Contract{Form: sha1sched.Streams}
	}
	return sha1sched.Contract{}
}

// Defaults are the target and knobs when not given: blockCE of package
// sha1 for arm64.
var Defaults = Options{arch: sha1arm.ARM64, ahead: defaultAhead, copied: defaultCopied, schedule: true, Streams: 1}

// Generate builds the file of the kernel blockCE for o and returns it with
// the block loop in GNU syntax.
func Generate(o Options) (*armemit.File, string, error) {
	if o.Checked {
		return GenerateChecked(o)
	}
	if err := o.check(); err != nil {
		return nil, "", err
	}
	file := armemit.Must(armemit.NewFile(o.arch.String() + " && !purego"))
	k := sha1arm.KTable(file, "sha1CEConstants") // DATA before TEXT
	var (
		fn *armemit.Func
		m  machine
	)
	switch o.arch {
	case sha1arm.ARM64:
		af := armemit.Must((&arm64.File{File: file}).Func(o.name(), o.contract().Signature()))
		fn, m = af.Func, &a64{f: af, k: k, streams: o.Streams}
		if o.Lanes {
			m = &a64Lanes{a64: a64{f: af, k: k, streams: o.Streams}, temp: registers(int(o.ahead), o.Streams)}
		}
	case sha1arm.ARM:
		af := armemit.Must((&arm32.File{File: file}).Func("blockCE", o.contract().Signature()))
		fn, m = af.Func, &a32{f: af, k: k}
	default:
		return nil, "", fmt.Errorf("no architecture %d", int(o.arch))
	}
	if o.Lanes {
		fn.Comment(fmt.Sprintf("%s absorbs n blocks of each of %d lanes into h: %d streams of the SHA-1", o.name(), o.Streams, o.Streams),
			"instructions, interleaved group by group (gen/internal/sha1ce, lanes.go).",
			"Schedule: "+knob.Format(o.knobs()...)+".")
	} else {
		fn.Comment("blockCE absorbs len(p)/64 whole blocks of p into h with the SHA-1",
			"instructions, four rounds each (see gen/sha1_ce).",
			"Schedule: "+knob.Format(o.knobs()...)+".")
	}
	params{ahead: int(o.ahead), copied: o.copied, streams: o.Streams}.kernel(m)
	if o.schedule {
		fn.ScheduleFor(sha1arm.CortexA53) // the A55 is alike but faster; the out-of-order A57 depends little on the order
	}
	loop, err := fn.GNU("loop")
	if err != nil {
		return nil, "", err
	}
	return file, loop, nil
}

// Command is the command line of the generator gen/sha1_ce (gen/sha1dc_ce
// with o.Checked), with the knobs in o.
func Command(o *Options) armemit.Generator {
	name, fn := "sha1_ce", "blockCE"
	if o.Checked {
		name, fn = "sha1dc_ce", CheckedName
	}
	return armemit.Generator{
		Name:      name,
		Arch:      &o.arch,
		ArchUsage: "the architecture: arm64 or arm",
		GNUUsage:  "write the block loop in GNU syntax to `file` (for llvm-mca)",
		GNUAbout:  "The block loop of " + fn + " in GNU syntax (for llvm-mca):",
		Flags:     func(fs *flag.FlagSet) { knob.Register(fs, o.knobs()...) },
		Generate: func() (*armemit.File, string, error) {
			file, loop, err := Generate(*o)
			return file, fmt.Sprintf("// blocks %d\n", len(alternate)) + loop, err
		},
	}
}
