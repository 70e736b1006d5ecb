// Nativeruns prints the native test runs that make test gives this
// machine's CPU: for each package family, one run per GODEBUG setting
// that selects a kernel no earlier run selected, until every x86 kernel
// the CPU can execute has run (internal/oracle's NativeRuns, from the
// flags of /proc/cpuinfo). Each line has three fields separated by "|"
// (not white space, so that an empty field stays a field): the packages,
// the GODEBUG value (empty for none) and the expected-kernel variables
// (NAME=VALUE, space-separated), for scripts/ci/test-emulated.sh.
// It prints nothing on a host that is not amd64 or has no /proc/cpuinfo,
// saying why on standard error, and with -summary one line per family
// naming the kernels the runs select.
//
//	go -C gen run ./tools/nativeruns [-summary]
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/simdhash/simdhash/internal/cpuid"
	"github.com/simdhash/simdhash/internal/oracle"
)

func main() {
	summary := flag.Bool("summary", false, "print the kernels the runs select, one line per family of packages")
	flag.Parse()
	if runtime.GOARCH != "amd64" {
		fmt.Fprintf(os.Stderr, "nativeruns: the host is %s: the native runs are for amd64's kernels\n", runtime.GOARCH)
		return
	}
	flags, err := cpuid.CPUInfoFlags()
	if err != nil {
		fmt.Fprintln(os.Stderr, "nativeruns:", err)
		return
	}
	runs := oracle.NativeRuns(flags)
	if *summary {
		printSummary(runs)
		return
	}
	for _, r := range runs {
		fmt.Printf("%s|%s|%s\n", strings.Join(r.Packages, " "), r.GODEBUG, strings.Join(r.Expect, " "))
	}
}

// printSummary prints, for each family of packages, each expected-kernel
// variable with the kernels the runs give it, in order, each once:
// "./ghash: SIMDHASH_GHASH_KERNEL vpclmul512 vpclmul256 ...".
func printSummary(runs []oracle.Run) {
	var families []string
	vars := map[string][]string{}   // family: its variables, in order
	values := map[string][]string{} // family and variable: the kernels
	for _, r := range runs {
		fam := strings.Join(r.Packages, " ")
		if vars[fam] == nil {
			families = append(families, fam)
		}
		for _, e := range r.Expect {
			name, value, _ := strings.Cut(e, "=")
			key := fam + "\x00" + name
			if values[key] == nil {
				vars[fam] = append(vars[fam], name)
			}
			if !slices.Contains(values[key], value) {
				values[key] = append(values[key], value)
			}
		}
	}
	for _, fam := range families {
		var parts []string
		for _, name := range vars[fam] {
			parts = append(parts, name+" "+strings.Join(values[fam+"\x00"+name], " "))
		}
		fmt.Printf("%s: %s\n", fam, strings.Join(parts, "; "))
	}
}
