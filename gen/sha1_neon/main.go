// Command sha1_neon generates the "neon" SHA-1 kernel of package sha1 for
// ARM cores without the SHA-1 instructions: the vectorised message
// schedule of gen/internal/sha1sched on NEON, with the rounds in general
// registers, through its ARM backend gen/internal/sha1arm. For arm64
// (sha1block_neon_arm64.s) and 32-bit ARM (-arch arm,
// sha1block_neon_arm.s, NEON as WORDs). Usage, from the sha1 package
// directory:
//
//	go -C ../gen run ./sha1_neon [-arch arm] -out ../sha1/sha1block_neon_arm64.s [-gnu loop.s] [knobs]
//
// -gnu writes the block loop (one block) in GNU syntax, for llvm-mca
// (scripts/mca.sh). The knobs are the schedule's (-lookahead, -placement,
// -ch, -maj) and the ARM backend's own; -help lists those of the -arch
// given, with their choices and defaults.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/simdhash/simdhash/gen/internal/emit"
	"github.com/simdhash/simdhash/gen/internal/knob"
	"github.com/simdhash/simdhash/gen/internal/sha1arm"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "sha1_neon:", err)
		}
		os.Exit(2)
	}
}

// archOf returns the -arch of args, which decides which knobs the
// generator has, before the flags are parsed.
func archOf(args []string) (sha1arm.Arch, error) {
	a := sha1arm.ARM64
	for i, arg := range args {
		if arg == "--" {
			break
		}
		if !strings.HasPrefix(arg, "-") {
			continue
		}
		name, v, eq := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if name != "arch" {
			continue
		}
		if !eq {
			if i+1 == len(args) {
				break // the flag package reports it
			}
			v = args[i+1]
		}
		return a, a.Set(v)
	}
	return a, nil
}

func run(args []string, stderr io.Writer) error {
	arch, err := archOf(args)
	if err != nil {
		return fmt.Errorf("-arch: %w", err)
	}
	p := arch.Defaults()
	fs := flag.NewFlagSet("sha1_neon", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // a bad flag is reported in one line, by main
	fs.Var(&arch, "arch", "the target: arm64 or arm (32-bit, NEON as WORDs)")
	out := fs.String("out", "", "write the Go assembly to `file`")
	gnu := fs.String("gnu", "", "write the block loop in GNU syntax to `file` (for llvm-mca)")
	knob.Register(fs, arch.Knobs(&p)...)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stderr)
			fs.PrintDefaults()
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *out == "" && *gnu == "" {
		return errors.New("nothing to do: give -out and/or -gnu")
	}
	file, loop, err := arch.Generate(p, "", arch.String()+" && !purego")
	if err != nil {
		return err
	}
	return emit.WriteOutputs(file, args, *out, *gnu, "The block loop of "+sha1arm.Function+" in GNU syntax (for llvm-mca):",
		"// blocks 1\n"+loop)
}
