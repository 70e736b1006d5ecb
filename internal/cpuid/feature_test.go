package cpuid

import "testing"

// TestNeed checks that Need is true only when every feature is, and names
// the missing ones in order.
func TestNeed(t *testing.T) {
	for _, c := range []struct {
		fs      []Feature
		ok      bool
		missing string
	}{
		{nil, true, ""},
		{[]Feature{{"AVX2", true}}, true, ""},
		{[]Feature{{"AVX2", false}}, false, "AVX2"},
		{[]Feature{{"AVX512F", false}, {"AVX2", true}, {"AVX512BW", false}}, false, "AVX512F, AVX512BW"},
	} {
		ok, missing := Need(c.fs...)
		if ok != c.ok || missing != c.missing {
			t.Errorf("Need(%v) = %v, %q, want %v, %q", c.fs, ok, missing, c.ok, c.missing)
		}
	}
}
