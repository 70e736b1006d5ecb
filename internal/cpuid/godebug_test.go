package cpuid

import "testing"

// TestGodebugOff checks the GODEBUG reading that gates the SHA-NI and
// VPCLMULQDQ kernels against the rules of the Go runtime's parser:
// comma-separated fields, cpu.<feature> or cpu.all with on or off, the last
// one winning, anything else ignored.
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
		{"cpu.vpclmulqdq=off", false},      // another feature's key
	} {
		if got := GodebugOff(c.env, "sha"); got != c.off {
			t.Errorf("GodebugOff(%q, \"sha\") = %v, want %v", c.env, got, c.off)
		}
	}
	for _, c := range []struct {
		env string
		off bool
	}{
		{"cpu.vpclmulqdq=off", true},
		{"cpu.avx512vpclmulqdq=off", false}, // x/sys/cpu's key for the AVX-512 bit alone
		{"cpu.pclmulqdq=off", false},
		{"cpu.avx512=off,cpu.vpclmulqdq=off", true},
	} {
		if got := GodebugOff(c.env, "vpclmulqdq"); got != c.off {
			t.Errorf("GodebugOff(%q, \"vpclmulqdq\") = %v, want %v", c.env, got, c.off)
		}
	}
}
