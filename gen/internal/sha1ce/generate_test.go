package sha1ce

import (
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/gen/internal/armemit"
	"github.com/simdhash/simdhash/gen/internal/armemit/armtest"
	"github.com/simdhash/simdhash/gen/internal/gentest"
	"github.com/simdhash/simdhash/gen/internal/sha1arm"
)

// knobValues are the values of the knobs on arch: every -ahead that fits,
// and for -copied none, the default, every group and a few random sets.
func knobValues(arch sha1arm.Arch) (aheads_ []ahead, copied []groupSet) {
	for _, a := range aheads {
		if registers(int(a), 1) <= vregs[arch] {
			aheads_ = append(aheads_, a)
		}
	}
	return aheads_, []groupSet{0, defaultCopied, allGroups, 1<<1 | 1<<19, 1<<2 | 1<<7 | 1<<11 | 1<<13}
}

// allGroups is -copied 1,2,...,19.
const allGroups groupSet = (1<<groups - 1) &^ 1

// TestKnobs generates every combination of the knobs' values for both
// architectures: none may fail, and the -gnu text must hold the loop of
// two blocks, each with its 20 four-round instructions.
func TestKnobs(t *testing.T) {
	rounds := map[sha1arm.Arch]string{sha1arm.ARM64: "\tsha1c q", sha1arm.ARM: "sha1c.32 q"}
	for _, a := range sha1arm.Arches {
		as, cs := knobValues(a)
		for _, ah := range as {
			for _, c := range cs {
				for _, sched := range []schedule{true, false} {
					o := Options{arch: a, ahead: ah, copied: c, schedule: sched, Streams: 1}
					file, loop, err := Generate(o)
					if err != nil {
						t.Fatalf("%s: %v", o.flags(), err)
					}
					if _, err := file.Bytes([]string{"test"}); err != nil {
						t.Fatalf("%s: %v", o.flags(), err)
					}
					// sha1c, sha1p and sha1m alike: 5+10+5 per block.
					n := 0
					for _, f := range []string{"sha1c", "sha1p", "sha1m"} {
						n += strings.Count(loop, strings.Replace(rounds[a], "sha1c", f, 1))
					}
					if n != 2*groups {
						t.Errorf("%s: the loop has %d four-round instructions, want %d", o.flags(), n, 2*groups)
					}
				}
			}
		}
	}
}

// TestBadKnobs checks that knob values the generator cannot honour are
// refused with a message, and nothing is written. (What every ARM
// generator's command line does is tested with armemit.Generator.)
func TestBadKnobs(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.s")
	armtest.Refuses(t, func(args []string, stderr io.Writer) error {
		o := Defaults
		return Command(&o).Run(args, stderr)
	}, out, []armtest.Refusal{
		{Args: []string{"-out", out, "-ahead", "3"}, Msg: `"3" is not supported: use one of [1 2 4]`},
		{Args: []string{"-out", out, "-arch", "arm", "-ahead", "4"}, Msg: "-ahead 4 needs 17 vector registers; -arch arm has 16"},
		{Args: []string{"-out", out, "-copied", "0"}, Msg: `"0" is not a group 1-19`},
		{Args: []string{"-out", out, "-copied", "20"}, Msg: `"20" is not a group 1-19`},
		{Args: []string{"-out", out, "-copied", "3,,4"}, Msg: `"" is not a group 1-19`},
		{Args: []string{"-out", out, "-arch", "386"}, Msg: `invalid value "386" for flag -arch: "386" is not supported: use arm64 or arm`},
	})
}

// TestDeterministic generates each architecture's default file twice: the
// bytes must not differ (make check-generated relies on it).
func TestDeterministic(t *testing.T) {
	var arches []string
	for _, a := range sha1arm.Arches {
		arches = append(arches, a.String())
	}
	armtest.Deterministic(t, arches, func(arch string) (*armemit.File, error) {
		o := Defaults
		if err := o.arch.Set(arch); err != nil {
			return nil, err
		}
		file, _, err := Generate(o)
		return file, err
	})
}

// flags is o as the generator's command-line flags, to reproduce a variant.
func (o Options) flags() string {
	return fmt.Sprintf("-arch %s -ahead %v -copied %v -schedule=%v%s", o.arch, o.ahead, o.copied, o.schedule, o.streamsText())
}

// sweepVariants are the variants the sweep runs on arch: the defaults,
// each other value of each knob alone, and two random combinations.
func sweepVariants(a sha1arm.Arch) []Options {
	def := Defaults
	def.arch = a
	out := []Options{def}
	as, cs := knobValues(a)
	for _, ah := range as {
		if ah != def.ahead {
			o := def
			o.ahead = ah
			out = append(out, o)
		}
	}
	for _, c := range cs {
		if c != def.copied {
			o := def
			o.copied = c
			out = append(out, o)
		}
	}
	o := def
	o.schedule = false
	out = append(out, o)
	rng := rand.New(rand.NewPCG(7, uint64(len(a.String()))))
	for range 2 {
		out = append(out, Options{arch: a, ahead: as[rng.IntN(len(as))],
			copied: groupSet(rng.Uint32()) & allGroups, schedule: schedule(rng.IntN(2) == 0), Streams: 1})
	}
	return out
}

// TestSweep generates the variants of sweepVariants for both architectures
// into a scratch package under testdata/ and runs each, under qemu-aarch64
// and qemu-arm with QEMU_CPU=max (which has the SHA-1 instructions),
// against internal/ref's block function, and around a guard page
// (gentest.SHA1Tests); and on arm64 the defaults with two streams
// (gentest.StreamTests). Without qemu it is skipped (under CI it fails:
// make deps installs qemu-user).
func TestSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the sweep cross-compiles the knobs' variants and runs them under qemu; run it without -short (make test)")
	}
	gentest.NeedQemu(t)
	files := gentest.SHA1Tests("arm64 || arm", "hasSHA1")
	sw := gentest.NewSweep(t, files["sweep_test.go"])
	sw.File("guard_linux_test.go", files["guard_linux_test.go"])
	sw.File("streams_linux_test.go", gentest.StreamTests("arm64", "hasSHA1")["streams_linux_test.go"])
	for _, a := range gentest.QemuArches {
		sw.Head(a.GOARCH, fmt.Sprintf("import \"golang.org/x/sys/cpu\"\n\nvar hasSHA1 = cpu.%s.HasSHA1\n\n",
			map[string]string{"arm64": "ARM64", "arm": "ARM"}[a.GOARCH]))
		var arch sha1arm.Arch
		if err := arch.Set(a.GOARCH); err != nil {
			t.Fatal(err)
		}
		for _, o := range sweepVariants(arch) {
			file, _, err := Generate(o)
			if err != nil {
				t.Fatalf("%s: %v", o.flags(), err)
			}
			sw.Add(a.GOARCH, file, o.flags(), []string{"blockCE"}, o.contract().Signature(), func(names []string) string {
				return fmt.Sprintf("\t{%q, %s},\n", o.flags(), names[0])
			})
		}
		if arch == sha1arm.ARM64 {
			o := Defaults
			o.Streams = 2
			file, _, err := Generate(o)
			if err != nil {
				t.Fatalf("%s: %v", o.flags(), err)
			}
			sw.AddStreams(a.GOARCH, file, o.flags(), "blockCE", o.contract().Signature(), o.Streams)
		}
	}
	n := sw.Run()
	t.Logf("%d variants passed", n)
}
