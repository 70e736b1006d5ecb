package cpuid

import "strings"

// A Feature is a CPU extension a kernel needs, and whether this process may
// use it: the CPU has it, the operating system saves its register state, and
// GODEBUG leaves it on.
type Feature struct {
	Name string // as the kernel's "Requires:" line or the CPU vendor names it
	OK   bool
}

// Need reports whether every one of features is OK and, when not, names
// those that are not ("AVX512F, AVX512BW"), for a message that says why a
// kernel cannot run.
func Need(features ...Feature) (ok bool, missing string) {
	var names []string
	for _, f := range features {
		if !f.OK {
			names = append(names, f.Name)
		}
	}
	return len(names) == 0, strings.Join(names, ", ")
}

// Names returns the names of features, in order.
func Names(features []Feature) []string {
	names := make([]string, len(features))
	for i, f := range features {
		names[i] = f.Name
	}
	return names
}
