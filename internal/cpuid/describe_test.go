package cpuid

import "testing"

func TestMicroarchitecture(t *testing.T) {
	for _, c := range []struct {
		vendor        string
		family, model int
		want          string
	}{
		{"AuthenticAMD", 0x19, 0x01, "Zen 3"},
		{"AuthenticAMD", 0x19, 0x11, "Zen 4"},
		{"AuthenticAMD", 0x1a, 2, "Zen 5"},
		{"GenuineIntel", 6, 207, "Emerald Rapids"},
		{"GenuineIntel", 6, 85, "Skylake-SP or Cascade Lake"},
		{"GenuineIntel", 6, 1, ""},
		{"GenuineIntel", 15, 207, ""},
		{"HygonGenuine", 0x18, 0, ""},
	} {
		if got := Microarchitecture(c.vendor, c.family, c.model); got != c.want {
			t.Errorf("Microarchitecture(%q, %d, %d) = %q, want %q", c.vendor, c.family, c.model, got, c.want)
		}
	}
	t.Log(Describe(2))
}
