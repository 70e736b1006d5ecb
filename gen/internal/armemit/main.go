package armemit

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// Generator is the command line of an ARM generator: the flags every one
// has (-arch, -out, -gnu) and what each brings of its own. Its Main is the
// generator's main function; the amd64 generators have avogen.Main.
type Generator struct {
	Name string // the command's name, which prefixes its errors

	// Arch is the -arch flag's value, holding the default. It is set
	// from the arguments before Flags is called, since the architecture
	// decides which knobs there are.
	Arch      flag.Value
	ArchUsage string // the help of -arch

	GNUUsage string // the help of -gnu, whose value is named `file`
	GNUAbout string // the line under the header of the -gnu file

	// Flags adds the generator's own flags (its knobs) to fs, for the
	// architecture in Arch.
	Flags func(fs *flag.FlagSet)
	// Generate makes the file for -out and the text (loops in GNU syntax)
	// for -gnu, from the flags' values.
	Generate func() (*File, string, error)
}

// Main runs g on the program's arguments. On an error it prints
// "<name>: <error>" on one line and exits with status 2; on -help it
// prints the flags and exits with status 2, as package flag does.
func (g Generator) Main() {
	if err := g.Run(os.Args[1:], os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, g.Name+":", err)
		}
		os.Exit(2)
	}
}

// Run parses args, generates, and writes -out and -gnu (armemit.WriteOutputs)
// with the command that reproduces the run in their headers. It writes
// nothing if any flag is wrong or the generator fails. A bad flag is
// returned, not printed; -help prints the flags with their defaults to
// stderr and returns flag.ErrHelp.
func (g Generator) Run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet(g.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)            // a bad flag is reported in one line, by Main
	fs.Var(g.Arch, "arch", g.ArchUsage) // its default as it was
	if v, ok := archArg(args); ok {
		if err := g.Arch.Set(v); err != nil {
			return fmt.Errorf("invalid value %q for flag -arch: %w", v, err)
		}
	}
	out := fs.String("out", "", "write the Go assembly to `file`")
	gnu := fs.String("gnu", "", g.GNUUsage)
	g.Flags(fs)
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
	file, text, err := g.Generate()
	if err != nil {
		return err
	}
	return WriteOutputs(file, args, *out, *gnu, g.GNUAbout, text)
}

// archArg returns the value of the last -arch in args, before the flags
// are parsed; ok is false if there is none, or it lacks its value (which
// the flag package then reports).
func archArg(args []string) (v string, ok bool) {
	for i, arg := range args {
		if arg == "--" {
			break
		}
		if !strings.HasPrefix(arg, "-") {
			continue
		}
		name, value, eq := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if name != "arch" {
			continue
		}
		if !eq {
			if i+1 == len(args) {
				break
			}
			value = args[i+1]
		}
		v, ok = value, true
	}
	return v, ok
}
