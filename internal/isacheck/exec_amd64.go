//go:build amd64 && !purego

package isacheck

// execForm executes instruction form number form (exec_amd64.s names
// each in a "// form N (registers): TEXT" comment) on the operands in
// in, in Go's operand order, the destination last and loaded from its
// entry too, and stores the destination's whole register, or the memory
// it writes, in out (gen/isacheck). It reports whether there is such a
// form.
//
//go:noescape
func execForm(form int, in *[4][64]byte, out *[64]byte) bool
