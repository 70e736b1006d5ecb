package cpuid

import (
	"errors"
	"os"
	"strings"
)

// CPUInfo returns the fields of the first processor's entry in Linux's
// /proc/cpuinfo ("vendor_id", "flags", ...), their values trimmed. The
// tests use it as an oracle for the dispatchers that does not go through
// golang.org/x/sys/cpu or this package's CPUID code. Under qemu-user the
// file describes the host, not the emulated CPU.
func CPUInfo() (map[string]string, error) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return nil, err
	}
	fields := map[string]string{}
	for line := range strings.Lines(string(b)) {
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			if len(fields) > 0 {
				break // the end of the first processor's entry
			}
			continue
		}
		fields[strings.TrimSpace(name)] = strings.TrimSpace(value)
	}
	return fields, nil
}

// CPUInfoFlags returns the set of words on the "flags" line of CPUInfo's
// first processor ("avx2", "sha_ni", ...), or an error if the file cannot
// be read or has no such line.
func CPUInfoFlags() (map[string]bool, error) {
	fields, err := CPUInfo()
	if err != nil {
		return nil, err
	}
	if fields["flags"] == "" {
		return nil, errors.New("no flags line in /proc/cpuinfo")
	}
	flags := map[string]bool{}
	for _, f := range strings.Fields(fields["flags"]) {
		flags[f] = true
	}
	return flags, nil
}
