//go:build !amd64 || purego

package sha1dc

import "github.com/simdhash/simdhash/internal/lanes"

// archManyKernels lists no multi-lane kernels: this build has none.
func archManyKernels() []manyKernel { return nil }

// manyBlocks is never called without multi-lane kernels.
func manyBlocks(k *manyKernel, s *lanes.State, n int, rec *records) int {
	panic("sha1dc: no multi-lane kernel " + k.name + " in this build")
}
