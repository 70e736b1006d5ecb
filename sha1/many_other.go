//go:build !(amd64 || arm64) || purego

package sha1

// archManyKernels lists no multi-lane assembly kernels: this build has none.
func archManyKernels() []manyKernel { return nil }

// manyRule is SumMany's dispatch rule here: a loop of Sum, the one class.
func manyRule(func(manyID) bool) manyID {
	switch c := manyClassPlain; c {
	case manyClassPlain:
		return manySingle
	default:
		panic("sha1: SumMany's rule has no kernel for this CPU class")
	}
}

// manyClassPlain is the one class of CPU here: no multi-lane kernel.
const manyClassPlain manyClass = 0

// manyBlocks runs kernel k for n blocks on the lanes of s.
func manyBlocks(k *manyKernel, s *manyLanes, n int) { manyPortableOr(k, s, n) }

// singleCPB is only used with multi-lane assembly kernels, which this
// build has none of.
func singleCPB() float64 { return 1 }
