//go:build !amd64 || purego

package sha1

// archManyKernels lists no multi-lane assembly kernels: this build has none.
func archManyKernels() []manyKernel { return nil }

// manyBlocks runs kernel k for n blocks on the lanes of s.
func manyBlocks(k *manyKernel, s *manyLanes, n int) {
	switch k.id {
	case manyPortable:
		manyPortableBlocks(s, k.lanes, n)
	case manySingle:
		panic("sha1: the single kernel has no lanes")
	default:
		panic("sha1: no multi-lane kernel " + k.name + " in this build")
	}
}

// singleCPB is only used with multi-lane assembly kernels, which this
// build has none of.
func singleCPB() float64 { return 1 }
