//go:build !amd64 || purego

package sha1dc

// archKernels lists no assembly kernels: this build has none, and every
// block goes through the portable code.
func archKernels() []kernel { return nil }

// runKernel is never called: block runs the portable code for generic,
// the only kernel here.
func runKernel(k *kernel, h *[5]uint32, p []byte) (n, mask uint32) {
	panic(unknownKernel(k))
}

// block absorbs the whole blocks of p into h with the portable code and
// reports whether any was half of a collision.
func block(h *[5]uint32, p []byte) bool {
	if active.id != kernelGeneric {
		panic(unknownKernel(active))
	}
	return blockGeneric(h, p)
}
