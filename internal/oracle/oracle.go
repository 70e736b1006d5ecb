// Package oracle says which kernel each dispatcher of this module must
// choose on an x86 CPU, and which GODEBUG settings make a host run each of
// the x86 kernels it can execute. It works from the feature flags Linux
// reports in /proc/cpuinfo and from GODEBUG's cpu.<feature>=off keys, a
// source independent of golang.org/x/sys/cpu and of internal/cpuid's CPUID
// code, which the dispatchers use.
//
// It is the one statement of the rule for the tests and for make test:
// the packages' dispatch tests compare their choice with X86, and
// scripts/ci/test-emulated.sh runs the native suite once per entry of
// NativeRuns (through gen/tools/nativeruns), each checked with the
// expected-kernel variables.
package oracle

import (
	"slices"
	"strings"

	"github.com/simdhash/simdhash/internal/cpuid"
)

// Flags is a set of feature flags as the "flags" line of /proc/cpuinfo
// names them ("avx2", "sha_ni", "sse4_1", ...).
type Flags map[string]bool

// ParseFlags returns the set of the space-separated words of line.
func ParseFlags(line string) Flags {
	f := Flags{}
	for _, w := range strings.Fields(line) {
		f[w] = true
	}
	return f
}

// godebugKey maps a /proc/cpuinfo flag to the GODEBUG cpu.<key> that turns
// it off, where the two names differ: the Go runtime's and
// golang.org/x/sys/cpu's names for SHA-NI and SSE4.1, which
// internal/cpuid reads too.
var godebugKey = map[string]string{
	"sha_ni": "sha",
	"sse4_1": "sse41",
}

// required lists the flags that GODEBUG cannot turn off: every amd64 CPU
// has SSE2, and golang.org/x/sys/cpu refuses to clear it.
var required = map[string]bool{"sse2": true}

// Choice is the kernel each dispatcher must choose, by the name its
// package reports: sha1.Kernel, sha1.ManyKernel, ghash.Kernel,
// sha1dc.Kernel and sha1dc.ManyKernel.
type Choice struct {
	SHA1, SHA1Many, GHASH string
	SHA1DC, SHA1DCMany    string
}

// The rules of the dispatchers: each kernel, in the order a dispatcher
// tries them, with the flags it needs; the last needs nothing. Each list
// holds every extension on the "Requires:" line of the kernel's TEXT
// (sha1/kernel_amd64.go, sha1/many_amd64.go, ghash/kernel_amd64.go,
// sha1dc/kernel_amd64.go and sha1dc/many_amd64.go state the same
// conditions through golang.org/x/sys/cpu). sha1dc's kernels are sha1's
// with the collision check, under sha1's conditions, and shani512 and
// shani-avx before them: SHA-NI with the check on AVX-512, and with its
// Kills as AVX blends. Two names are
// not flags of the file: "avx512" is AVX-512 as golang.org/x/sys/cpu
// takes it (avx512f, avx512vl and avx512bw, and its GODEBUG key
// cpu.avx512 for the whole), and "avx512vpclmulqdq" is only its GODEBUG
// key for VPCLMULQDQ with AVX-512, which leaves the 256-bit form
// (cpu.vpclmulqdq) on.
var (
	sha1Rule = []option{
		{"shani", "sha_ni sse2 sse4_1 ssse3"},
		{"avx2", "avx avx2 bmi1 bmi2"},
		{"avx", "avx"},
		{"ssse3", "sse2 ssse3"},
		{"generic", ""},
	}
	sha1ManyRule = []option{
		{"avx512x16", "avx512 avx avx2"},
		{"avx2x8", "avx avx2"},
		{"shanix3", "sha_ni sse2 sse4_1 ssse3"},
		{"single", ""},
	}
	sha1dcRule = append([]option{
		{"shani512", "sha_ni sse2 sse4_1 ssse3 avx512 avx avx2"},
		{"shani-avx", "sha_ni sse2 sse4_1 ssse3 avx"},
	}, sha1Rule...)
	// sha1dc's SumMany has sha1's vector lane kernels, with the check,
	// and no interleaved SHA-NI streams.
	sha1dcManyRule = []option{
		{"avx512x16", "avx512 avx avx2"},
		{"avx2x8", "avx avx2"},
		{"single", ""},
	}
	ghashRule = []option{
		{"vpclmul512", "avx512 avx512vpclmulqdq vpclmulqdq avx2 avx pclmulqdq sse2"},
		{"vpclmul256", "vpclmulqdq avx2 avx pclmulqdq sse2"},
		{"pclmul", "avx pclmulqdq sse2"},
		{"pclmul-sse", "pclmulqdq sse2 ssse3"},
		{"generic", ""},
	}
)

// An option is a kernel and the space-separated flags it needs.
type option struct {
	kernel, needs string
}

// X86 returns the kernels that the flags of an amd64 CPU call for under
// the GODEBUG value godebug.
func X86(f Flags, godebug string) Choice {
	var has func(flag string) bool
	has = func(flag string) bool {
		switch flag {
		case "avx512":
			return !cpuid.GodebugOff(godebug, flag) && has("avx512f") && has("avx512vl") && has("avx512bw")
		case "avx512vpclmulqdq":
			return !cpuid.GodebugOff(godebug, flag)
		}
		key := flag
		if k, ok := godebugKey[flag]; ok {
			key = k
		}
		return f[flag] && (required[flag] || !cpuid.GodebugOff(godebug, key))
	}
	choose := func(rule []option) string {
		for _, o := range rule {
			if !slices.ContainsFunc(strings.Fields(o.needs), func(flag string) bool { return !has(flag) }) {
				return o.kernel
			}
		}
		panic("oracle: a rule without a last kernel that needs nothing")
	}
	return Choice{SHA1: choose(sha1Rule), SHA1Many: choose(sha1ManyRule), GHASH: choose(ghashRule),
		SHA1DC: choose(sha1dcRule), SHA1DCMany: choose(sha1dcManyRule)}
}

// A Run is one native run of a family's packages: their tests with GODEBUG
// set, each checking that the kernels named by Expect were chosen.
type Run struct {
	Packages []string // ./sha1, ./ghash and ./gcm, ...
	GODEBUG  string   // "" for none
	Expect   []string // NAME=VALUE for the packages' TestDispatch and TestManyDispatch
}

// A family is a set of packages that dispatch the same way, the GODEBUG
// settings that can move their choice, most capable first, and the
// expected-kernel variables of a choice.
type family struct {
	packages []string
	godebugs []string
	expect   func(Choice) []string
}

var families = []family{
	{
		packages: []string{"./sha1"},
		godebugs: []string{
			"",
			"cpu.sha=off",
			"cpu.avx512=off",
			"cpu.sha=off,cpu.avx2=off",
			"cpu.avx2=off", // on a CPU with SHA-NI: the interleaved SHA-NI streams
			"cpu.sha=off,cpu.avx=off",
			"cpu.sha=off,cpu.avx=off,cpu.ssse3=off",
		},
		expect: func(c Choice) []string {
			return []string{"SIMDHASH_SHA1_KERNEL=" + c.SHA1, "SIMDHASH_SHA1_MANY_KERNEL=" + c.SHA1Many}
		},
	},
	{
		packages: []string{"./ghash", "./gcm"}, // gcm hashes with ghash's kernel
		godebugs: []string{
			"",
			"cpu.avx512=off",
			"cpu.vpclmulqdq=off",
			"cpu.vpclmulqdq=off,cpu.avx=off",
			"cpu.pclmulqdq=off",
		},
		expect: func(c Choice) []string { return []string{"SIMDHASH_GHASH_KERNEL=" + c.GHASH} },
	},
	{
		packages: []string{"./sha1dc"},
		godebugs: []string{
			"",
			"cpu.avx512=off",
			"cpu.sha=off",
			"cpu.sha=off,cpu.avx2=off",
			"cpu.sha=off,cpu.avx=off",
			"cpu.sha=off,cpu.avx=off,cpu.ssse3=off",
			"cpu.avx=off", // on a CPU with SHA-NI: shani, the check on SSE alone
		},
		expect: func(c Choice) []string {
			return []string{"SIMDHASH_SHA1DC_KERNEL=" + c.SHA1DC, "SIMDHASH_SHA1DC_MANY_KERNEL=" + c.SHA1DCMany}
		},
	},
}

// NativeRuns returns the native runs that, on a host with flags f, select
// every kernel the host can execute at least once: for each family, the
// first of its GODEBUG settings that gives a kernel no earlier run gave,
// with the kernels X86 expects under it.
func NativeRuns(f Flags) []Run {
	var runs []Run
	for _, fam := range families {
		seen := map[string]bool{}
		for _, g := range fam.godebugs {
			expect := fam.expect(X86(f, g))
			fresh := false
			for _, e := range expect {
				if !seen[e] {
					seen[e], fresh = true, true
				}
			}
			if fresh {
				runs = append(runs, Run{Packages: fam.packages, GODEBUG: g, Expect: expect})
			}
		}
	}
	return runs
}
