package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
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
		pmullBlocks := []int{1, 2, 4, 8}
		if arch == "arm" {
			pmullBlocks = []int{1, 2, 4}
		}
		for _, pb := range pmullBlocks {
			for _, pw := range []int{1, 2, 3, 4} {
				for _, nb := range []int{1, 2} {
					for _, rot := range []bool{true, false} {
						for _, sched := range []bool{true, false} {
							o := options{arch: arch, pmullBlocks: pb, pmullWays: pw, neonBlocks: nb, neonPrerotated: rot, schedule: sched}
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
							if !strings.Contains(loops, "// kernel pmull blocks "+strconv.Itoa(pb)+"\n") ||
								!strings.Contains(loops, "// kernel neon blocks "+strconv.Itoa(nb)+"\n") {
								t.Errorf("%+v: -gnu text lacks a loop:\n%s", o, loops)
							}
						}
					}
				}
			}
		}
	}
}

// TestDeterministic generates each architecture's default file twice: the
// bytes must not differ (make check-generated relies on it).
func TestDeterministic(t *testing.T) {
	for _, arch := range []string{"arm64", "arm"} {
		var out [2][]byte
		for i := range out {
			file, _, err := generate(options{arch: arch, neonPrerotated: true, schedule: true})
			if err != nil {
				t.Fatal(err)
			}
			if out[i], err = file.Bytes([]string{"test"}); err != nil {
				t.Fatal(err)
			}
		}
		if string(out[0]) != string(out[1]) {
			t.Errorf("%s: two runs gave different files", arch)
		}
	}
}

func TestBadKnobs(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.s")
	for _, args := range [][]string{
		{"-out", out, "-pmull-blocks", "3"},
		{"-out", out, "-pmull-blocks", "16"},
		{"-out", out, "-neon-blocks", "4"},
		{"-out", out, "-pmull-ways", "5"},
		{"-out", out, "-arch", "arm", "-pmull-blocks", "8"},
		{"-out", out, "-arch", "386"},
	} {
		var o options
		if err := command(&o).Run(args, io.Discard); err == nil {
			t.Errorf("%q: accepted", args)
		}
	}
	var o options
	if err := command(&o).Run([]string{"-out", out, "-pmull-blocks", "3"}, io.Discard); err == nil ||
		!strings.Contains(err.Error(), "-pmull-blocks 3 is not supported: use one of [1 2 4 8]") {
		t.Errorf("unclear error for -pmull-blocks 3: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a rejected run wrote its output")
	}
}

// TestLayoutMatchesGo checks the constants that ghash/kernel_neon.go (the
// Go side of both arm kernels) shares with this generator: the key layouts must
// agree, or the kernels read the wrong key material (which the kernel
// tests would also catch, but only on arm hardware or under qemu).
func TestLayoutMatchesGo(t *testing.T) {
	for _, name := range []string{"kernel_neon.go"} {
		src, err := os.ReadFile(filepath.Join("..", "..", "ghash", name))
		if err != nil {
			t.Fatal(err)
		}
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
