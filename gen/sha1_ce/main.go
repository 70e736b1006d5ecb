// Command sha1_ce generates the SHA-1 block function of package sha1 for
// CPUs with the SHA-1 instructions of the Arm Cryptographic Extension
// (SHA1C, SHA1P, SHA1M, SHA1H, SHA1SU0, SHA1SU1; Arm ARM, DDI 0487): for
// arm64 (sha1block_ce_arm64.s) and for 32-bit ARM code on Armv8 cores
// (sha1block_ce_arm.s, the A32 forms as WORDs). Both come from one
// description (ce.go), emitted through a machine for each instruction set
// (machine_a64.go, machine_a32.go); emulate_test.go runs the description
// on a model of the instructions, so it is checked on any machine. Usage,
// from the sha1 package directory:
//
//	go -C ../gen run ./sha1_ce [-arch arm] -out ../sha1/sha1block_ce_arm64.s [-gnu loop.s] [knobs]
//
// -gnu writes the block loop (two blocks) in GNU syntax, for llvm-mca
// (scripts/mca.sh). The knobs:
//
//	-arch A       arm64 (the default) or arm
//	-ahead N      W+K registers: each group's W+K is added N groups before
//	              its rounds: 1, 2 (the default) or 4 (arm64 only; 16
//	              registers hold no more)
//	-copied LIST  the groups, 1-19, whose SHA1H reads a copy of a..d
//	              (see ce.go), or none; the default 4,8,16
//	-schedule     reorder the block loop for in-order cores (true), or
//	              keep the order of the description (false)
package main

import (
	"flag"
	"fmt"

	"github.com/simdhash/simdhash/gen/internal/arm32"
	"github.com/simdhash/simdhash/gen/internal/arm64"
	"github.com/simdhash/simdhash/gen/internal/emit"
	"github.com/simdhash/simdhash/gen/internal/knob"
	"github.com/simdhash/simdhash/gen/internal/sha1arm"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
)

// options are the generator's target and knobs (knobs.go).
type options struct {
	arch     sha1arm.Arch
	ahead    ahead
	copied   groupSet
	schedule schedule
}

// knobs returns o's knobs, in the order of the schedule line.
func (o *options) knobs() []knob.Knob { return []knob.Knob{&o.ahead, &o.copied, &o.schedule} }

// vregs is the size of each architecture's vector register file.
var vregs = map[sha1arm.Arch]int{sha1arm.ARM64: 32, sha1arm.ARM: 16}

func (o options) check() error {
	if err := knob.Check(&o.ahead, &o.schedule); err != nil {
		return err
	}
	if need := registers(int(o.ahead)); need > vregs[o.arch] {
		return fmt.Errorf("-ahead %d needs %d vector registers; -arch %s has %d", o.ahead, need, o.arch, vregs[o.arch])
	}
	return nil
}

// inOrderCore is the processor the block loop is scheduled for: the
// Cortex-A53 as LLVM 14 models it, in which every Advanced SIMD and SHA-1
// instruction has its result after 6 cycles, a load after 4 and an integer
// instruction after 3, and instructions complete in order. (The A55 model
// has shorter latencies of the same shape; the out-of-order A57 depends
// little on the order.)
var inOrderCore = emit.Core{
	InOrderCompletion: true,
	Latency: func(i *emit.Inst) int {
		vector, load := false, false
		for _, r := range i.Out {
			vector = vector || r[0] == 'V' || r[0] == 'D'
		}
		for _, r := range i.In {
			load = load || r == "mem"
		}
		switch {
		case vector && load:
			return 4
		case vector:
			return 6
		}
		return 3
	},
}

// signature is the block function's, of the Blocks form.
var signature = sha1sched.Contract{}.Signature()

// must returns v, and panics if err is not nil: for the emitters' checks
// of constant arguments (the build constraint, the signature), which fail
// only if this program is wrong.
func must[T any](v T, err error) T {
	if err != nil {
		panic("sha1_ce: " + err.Error())
	}
	return v
}

// defaults are the target and knobs when not given.
var defaults = options{arch: sha1arm.ARM64, ahead: defaultAhead, copied: defaultCopied, schedule: true}

// generate builds the file and returns it with the block loop in GNU syntax.
func generate(o options) (*emit.File, string, error) {
	if err := o.check(); err != nil {
		return nil, "", err
	}
	var (
		file *emit.File
		fn   *emit.Func
		m    machine
	)
	switch constraint := o.arch.String() + " && !purego"; o.arch {
	case sha1arm.ARM64:
		f := must(arm64.NewFile(constraint))
		k := sha1arm.KTable(f.File, "sha1CEConstants") // DATA before TEXT
		af := must(f.Func("blockCE", signature))
		file, fn, m = f.File, af.Func, &a64{f: af, k: k}
	case sha1arm.ARM:
		f := must(arm32.NewFile(constraint))
		k := sha1arm.KTable(f.File, "sha1CEConstants")
		af := must(f.Func("blockCE", signature))
		file, fn, m = f.File, af.Func, &a32{f: af, k: k}
	default:
		return nil, "", fmt.Errorf("no architecture %d", int(o.arch))
	}
	fn.Comment("blockCE absorbs len(p)/64 whole blocks of p into h with the SHA-1",
		"instructions, four rounds each (see gen/sha1_ce).",
		"Schedule: "+knob.Format(o.knobs()...)+".")
	params{ahead: int(o.ahead), copied: o.copied}.kernel(m)
	if o.schedule {
		fn.ScheduleFor(inOrderCore)
	}
	loop, err := fn.GNU("loop")
	if err != nil {
		return nil, "", err
	}
	return file, loop, nil
}

// command is the generator's command line, with the knobs in o.
func command(o *options) emit.Generator {
	return emit.Generator{
		Name:      "sha1_ce",
		Arch:      &o.arch,
		ArchUsage: "the architecture: arm64 or arm",
		GNUUsage:  "write the block loop in GNU syntax to `file` (for llvm-mca)",
		GNUAbout:  "The block loop of blockCE in GNU syntax (for llvm-mca):",
		Flags:     func(fs *flag.FlagSet) { knob.Register(fs, o.knobs()...) },
		Generate: func() (*emit.File, string, error) {
			file, loop, err := generate(*o)
			return file, fmt.Sprintf("// blocks %d\n", len(alternate)) + loop, err
		},
	}
}

func main() {
	o := defaults
	command(&o).Main()
}
