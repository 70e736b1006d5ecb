package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/gen/internal/armemit"
	"github.com/simdhash/simdhash/gen/internal/armemit/armtest"
)

// TestKnobs generates every combination of the knobs for both
// architectures: none may run out of registers, fail, or put a 64-bit
// multiply into the neon kernel, and the -gnu text must hold both loops.
func TestKnobs(t *testing.T) {
	wide := map[string]*regexp.Regexp{
		"arm64": regexp.MustCompile(`VPMULL2? [^\n]*\.Q1`),
		"arm":   regexp.MustCompile(`vmull\.p64`),
	}
	for _, arch := range []string{"arm64", "arm"} {
		for _, o := range allOptions(arch) {
			file, loops, err := generate(o)
			if err != nil {
				t.Fatalf("%+v: %v", o, err)
			}
			b, err := file.Bytes([]string{"test"})
			if err != nil {
				t.Fatalf("%+v: %v", o, err)
			}
			_, neon, ok := strings.Cut(string(b), "TEXT ·ghashNEON(SB)")
			if !ok || !strings.Contains(string(b), "TEXT ·ghashPMULL(SB)") {
				t.Fatalf("%+v: a kernel is missing", o)
			}
			if wide[arch].MatchString(neon) {
				t.Errorf("%+v: the neon kernel uses the 64-bit multiply", o)
			}
			if !strings.Contains(loops, "// kernel pmull blocks "+strconv.Itoa(o.pmullBlocks)+"\n") ||
				!strings.Contains(loops, "// kernel neon blocks "+strconv.Itoa(o.neonBlocks)+"\n") {
				t.Errorf("%+v: -gnu text lacks a loop:\n%s", o, loops)
			}
		}
	}
}

// TestDeterministic generates each architecture's default file twice: the
// bytes must not differ (make check-generated relies on it).
func TestDeterministic(t *testing.T) {
	armtest.Deterministic(t, []string{"arm64", "arm"}, func(arch string) (*armemit.File, error) {
		file, _, err := generate(options{arch: arch, neonPrerotated: true, schedule: true})
		return file, err
	})
}

// TestBadKnobs checks that knob values the generator cannot honour are
// refused, and nothing is written.
func TestBadKnobs(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.s")
	armtest.Refuses(t, func(args []string, stderr io.Writer) error {
		var o options
		return command(&o).Run(args, stderr)
	}, out, []armtest.Refusal{
		{Args: []string{"-out", out, "-pmull-blocks", "3"}, Msg: "-pmull-blocks 3 is not supported: use one of [1 2 4 8]"},
		{Args: []string{"-out", out, "-pmull-blocks", "16"}},
		{Args: []string{"-out", out, "-neon-blocks", "4"}},
		{Args: []string{"-out", out, "-pmull-ways", "5"}},
		{Args: []string{"-out", out, "-arch", "arm", "-pmull-blocks", "8"}},
		{Args: []string{"-out", out, "-arch", "386"}},
	})
}

// TestLayoutMatchesGo checks the constants that ghash/kernel_neon.go (the
// Go side of both arm kernels) shares with this generator: the key layouts must
// agree, or the kernels read the wrong key material (which the kernel
// tests would also catch, but only on arm hardware or under qemu).
func TestLayoutMatchesGo(t *testing.T) {
	for _, name := range []string{"kernel_neon.go"} {
		src := armtest.Must(os.ReadFile(filepath.Join("..", "..", "ghash", name)))(t)
		for constant, want := range map[string]int{
			"asmKeyWords":    asmKeyWords,
			"pmullMaxBlocks": pmullMaxBlocks,
			"neonMaxBlocks":  neonMaxBlocks,
			"neonRotations":  keyRotations,
		} {
			m := regexp.MustCompile(`\b` + constant + `\s*=\s*(\d+)`).FindSubmatch(src)
			if m == nil {
				t.Errorf("%s does not define %s", name, constant)
				continue
			}
			if got, _ := strconv.Atoi(string(m[1])); got != want {
				t.Errorf("%s: %s = %d, the generator uses %d", name, constant, got, want)
			}
		}
	}
}
