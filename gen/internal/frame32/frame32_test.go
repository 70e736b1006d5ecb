package frame32

import (
	"maps"
	"strings"
	"testing"
)

// The layouts of gc on 386 and arm, as go vet's asmdecl checks them (the
// typed ARM emitter's TestAsmdecl and sha1x86's 386 kernels run it).
func TestLayout(t *testing.T) {
	for _, c := range []struct {
		goarch, sig string
		want        map[string]int
		size        int
	}{
		{"386", "func(h *[5]uint32, p []byte)", map[string]int{"h": 0, "p_base": 4, "p_len": 8, "p_cap": 12}, 16},
		{"386", "func(h *[5]uint32, p []byte, w *[80]uint32, s *[2][5]uint32) uint32",
			map[string]int{"h": 0, "p_base": 4, "p_len": 8, "p_cap": 12, "w": 16, "s": 20, "ret": 24}, 28},
		{"arm", "func(s string, n uint32) (r int, ok uintptr)", map[string]int{"s_base": 0, "s_len": 4, "n": 8, "r": 12, "ok": 16}, 20},
		{"386", "func(uint32, *byte) uint32", map[string]int{"arg": 0, "arg1": 4, "ret": 8}, 12},
		{"386", "func()", map[string]int{}, 0},
	} {
		f, err := Layout(c.goarch, c.sig)
		if err != nil {
			t.Errorf("%s %s: %v", c.goarch, c.sig, err)
			continue
		}
		if !maps.Equal(f.Offsets, c.want) || f.Size != c.size {
			t.Errorf("%s %s: offsets %v size %d, want %v size %d", c.goarch, c.sig, f.Offsets, f.Size, c.want, c.size)
		}
	}
}

// What cannot be laid out is refused with the reason.
func TestLayoutErrors(t *testing.T) {
	for _, c := range []struct{ goarch, sig, want string }{
		{"amd64", "func(p []byte)", "not a 32-bit GOARCH"},
		{"386", "func(n uint64)", "not a 4-byte value"},
		{"386", "func(m map[int]int)", "not supported"},
		{"386", "func(p []byte", "signature"},
		{"386", "[]byte", "not a function type"},
	} {
		if _, err := Layout(c.goarch, c.sig); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: error %v, want one saying %q", c.goarch, c.sig, err, c.want)
		}
	}
}
