// Package gencmd names the command that reproduces a run of a generator,
// for the header of the files it writes: what the avo generators
// (gen/internal/avogen) and the ARM ones (gen/internal/armemit) share.
package gencmd

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// Command returns the command that reproduces this run of a generator,
// as go generate runs it from the directory of the file it writes:
//
//	go -C ../gen run ./sha1_avx -out ../sha1/sha1block_avx_amd64.s
//
// The generators live in a module of their own (gen/go.mod), so that the
// library's go.mod requires nothing but golang.org/x/sys; "-C" names that
// module's directory relative to the output's, and the main package is
// named relative to the module. args are the generator's arguments as
// given, with the paths in them relative to the generator's working
// directory, which must be the module's directory (as "go -C" makes it).
// The output is the -out argument's directory, or the working directory
// when there is none.
func Command(args []string) []string {
	pkg := "<generator>"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Path != "" {
		pkg = bi.Path
		if rel, ok := strings.CutPrefix(bi.Path, bi.Main.Path+"/"); ok && bi.Main.Path != "" {
			pkg = "./" + rel
		}
	}
	cmd := []string{"go"}
	out := ""
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "-out="); ok {
			out = v
		} else if a == "-out" && i+1 < len(args) {
			out = args[i+1]
		}
	}
	if out != "" {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(filepath.Join(wd, filepath.Dir(out)), wd); err == nil && rel != "." {
				cmd = append(cmd, "-C", filepath.ToSlash(rel))
			}
		}
	}
	return append(append(cmd, "run", pkg), args...)
}
