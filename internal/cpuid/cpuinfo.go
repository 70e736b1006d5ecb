package cpuid

import (
	"errors"
	"fmt"
	"os"
	"strconv"
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

// Describe names this machine's CPU for a measurement's caption:
// /proc/cpuinfo's model name, its family and model numbers with the
// microarchitecture they stand for where this package knows it, and the
// number of logical CPUs, e.g. "AMD EPYC (family 26, model 2: Zen 5), 2
// logical CPUs". A virtual machine's model name is often only the brand,
// which is why the numbers are there.
func Describe(logicalCPUs int) string {
	fields, err := CPUInfo()
	if err != nil || fields["model name"] == "" {
		return fmt.Sprintf("unknown CPU, %d logical CPUs", logicalCPUs)
	}
	name := fields["model name"]
	family, errF := strconv.Atoi(fields["cpu family"])
	model, errM := strconv.Atoi(fields["model"])
	if errF != nil || errM != nil {
		return fmt.Sprintf("%s, %d logical CPUs", name, logicalCPUs)
	}
	arch := ""
	if a := Microarchitecture(fields["vendor_id"], family, model); a != "" {
		arch = ": " + a
	}
	return fmt.Sprintf("%s (family %d, model %d%s), %d logical CPUs", name, family, model, arch, logicalCPUs)
}

// Microarchitecture returns the name of the x86 core that a vendor's
// family and model numbers stand for, for the server parts this project
// has run on or names in its tests (from the vendors' published CPUID
// numbers), or "".
func Microarchitecture(vendor string, family, model int) string {
	switch vendor {
	case "AuthenticAMD":
		switch {
		case family == 0x17 && model >= 0x30 && model < 0x40:
			return "Zen 2"
		case family == 0x19 && (model < 0x10 || (model >= 0x20 && model < 0x60)):
			return "Zen 3"
		case family == 0x19:
			return "Zen 4"
		case family == 0x1a:
			return "Zen 5"
		}
	case "GenuineIntel":
		if family != 6 {
			return ""
		}
		switch model {
		case 44:
			return "Westmere-EP"
		case 63:
			return "Haswell-EP"
		case 79:
			return "Broadwell-EP"
		case 85:
			return "Skylake-SP or Cascade Lake"
		case 106:
			return "Ice Lake-SP"
		case 143:
			return "Sapphire Rapids"
		case 207:
			return "Emerald Rapids"
		}
	}
	return ""
}
