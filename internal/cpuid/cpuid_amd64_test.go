//go:build amd64 && !purego

package cpuid

import (
	"slices"
	"strings"
	"testing"
)

// TestCPUIDBits compares the CPUID bits with what Linux reports in
// /proc/cpuinfo ("sha_ni", "vpclmulqdq"), where that file exists: a wrong
// leaf, register or bit fails here even when the kernels would still pass
// their tests. Under qemu-user /proc/cpuinfo is the host's, not the
// emulated model's, so the test first checks that the file describes the
// CPU this process sees: the same vendor, family, model and stepping as
// CPUID leaves 0 and 1.
func TestCPUIDBits(t *testing.T) {
	fields, err := CPUInfo()
	if err != nil {
		t.Skipf("no /proc/cpuinfo: %v", err)
	}
	if fields["flags"] == "" {
		t.Skip("no flags line in /proc/cpuinfo")
	}
	id := Identity()
	if file := strings.Join([]string{fields["vendor_id"], fields["cpu family"], fields["model"], fields["stepping"]}, " "); file != id {
		t.Skipf("CPUID says %q, /proc/cpuinfo %q: an emulated CPU?", id, file)
	}
	flags := strings.Fields(fields["flags"])
	for _, c := range []struct {
		flag string
		bit  string
		got  bool
	}{
		{"sha_ni", "leaf 7 EBX bit 29", SHA()},
		{"vpclmulqdq", "leaf 7 ECX bit 10", VPCLMULQDQ()},
	} {
		if want := slices.Contains(flags, c.flag); c.got != want {
			t.Errorf("CPUID %s says %v, /proc/cpuinfo says %s = %v", c.bit, c.got, c.flag, want)
		}
	}
}
