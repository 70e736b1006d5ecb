//go:build amd64 && !purego

package sha1

import (
	"encoding/binary"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestGodebugOff checks the GODEBUG reading that gates the SHA-NI kernel
// against the rules of the Go runtime's parser: comma-separated fields,
// cpu.sha or cpu.all with on or off, the last one winning, anything else
// ignored.
func TestGodebugOff(t *testing.T) {
	for _, c := range []struct {
		env string
		off bool
	}{
		{"", false},
		{"cpu.sha=off", true},
		{"cpu.sha=on", false},
		{"cpu.all=off", true},
		{"cpu.all=on", false},
		{"cpu.avx=off", false},
		{"cpu.sha256=off", false},
		{"cpu.shani=off", false},
		{"xcpu.sha=off", false},
		{"cpu.SHA=off", false},            // names are case-sensitive
		{"cpu.sha=OFF", false},            // so are values
		{"cpu.sha=0", false},              // only on and off count
		{"cpu.sha", false},                // no value
		{"cpu.sha=off,cpu.sha=on", false}, // the last one wins
		{"cpu.sha=on,cpu.sha=off", true},
		{"cpu.all=off,cpu.sha=on", false},
		{"cpu.sha=off,cpu.all=on", false},
		{"cpu.sha=on,cpu.all=off", true},
		{"cpu.sha=off,cpu.sha=bogus", true}, // an unknown value changes nothing
		{"gctrace=1,cpu.sha=off,madvdontneed=1", true},
		{",,cpu.sha=off,", true},
		{"cpu.sha=off cpu.avx=off", false}, // one field, value "off cpu.avx=off"
	} {
		if got := godebugOff(c.env, "sha"); got != c.off {
			t.Errorf("godebugOff(%q, \"sha\") = %v, want %v", c.env, got, c.off)
		}
	}
}

// TestCPUIDSHA compares the CPUID bit with what Linux reports in
// /proc/cpuinfo ("sha_ni"), where that file exists: a wrong leaf, register
// or bit fails here even when the kernel would still pass its tests. Under
// qemu-user /proc/cpuinfo is the host's, not the emulated model's, so the
// test first checks that the file describes the CPU this process sees: the
// same vendor, family, model and stepping as CPUID leaves 0 and 1.
func TestCPUIDSHA(t *testing.T) {
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("no /proc/cpuinfo: %v", err)
	}
	fields := map[string]string{}
	for line := range strings.Lines(string(info)) {
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			if len(fields) > 0 {
				break // the end of the first processor's entry
			}
			continue
		}
		fields[strings.TrimSpace(name)] = strings.TrimSpace(value)
	}
	if fields["flags"] == "" {
		t.Skip("no flags line in /proc/cpuinfo")
	}
	id := cpuIdentity()
	if file := fmt.Sprintf("%s %s %s %s", fields["vendor_id"], fields["cpu family"], fields["model"], fields["stepping"]); file != id {
		t.Skipf("CPUID says %q, /proc/cpuinfo %q: an emulated CPU?", id, file)
	}
	want := slices.Contains(strings.Fields(fields["flags"]), "sha_ni")
	if got := cpuHasSHA(); got != want {
		t.Errorf("CPUID leaf 7 EBX bit 29 says SHA = %v, /proc/cpuinfo says sha_ni = %v", got, want)
	}
}

// cpuIdentity returns "vendor family model stepping" from CPUID leaves 0
// and 1, decoded as Linux does for /proc/cpuinfo (the extended family and
// model fields count for base families 0xf and 6).
func cpuIdentity() string {
	_, b, c, d := cpuid(0, 0)
	var vendor []byte
	for _, r := range []uint32{b, d, c} {
		vendor = binary.LittleEndian.AppendUint32(vendor, r)
	}
	a, _, _, _ := cpuid(1, 0)
	family, model, stepping := a>>8&0xf, a>>4&0xf, a&0xf
	if family == 0xf {
		family += a >> 20 & 0xff
	}
	if family >= 6 {
		model += (a >> 16 & 0xf) << 4
	}
	return fmt.Sprintf("%s %d %d %d", vendor, family, model, stepping)
}
