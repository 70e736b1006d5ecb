package ghashloop

import "testing"

// Every kernel's loop is found in the checked-in files, with its group
// size and the clmul count a group of its shape has.
func TestCheckedIn(t *testing.T) {
	for _, k := range Kernels {
		l, err := Read("../../../ghash", k)
		if err != nil {
			t.Fatal(err)
		}
		clmuls := l.Count("PCLMULQDQ", "VPCLMULQDQ")
		if l.Blocks == 0 || clmuls == 0 || len(l.Body) < clmuls {
			t.Errorf("%s: %d blocks, %d clmuls in %d instructions", k.Name, l.Blocks, clmuls, len(l.Body))
		}
		t.Logf("%s: %d blocks per group, %d instructions, %d clmuls, knobs %q", k.Name, l.Blocks, len(l.Body), clmuls, l.Knobs)
	}
}
