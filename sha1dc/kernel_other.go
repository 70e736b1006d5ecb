//go:build (!amd64 && !arm64) || purego

package sha1dc

// archKernels lists no assembly kernels: this build has none, and every
// block goes through the portable code.
func archKernels() []kernel { return nil }

// runKernel is never called: block runs the portable code for generic,
// the only kernel here.
func runKernel(k *kernel, h *[5]uint32, p []byte) (n, mask uint32) {
	panic(unknownKernel(k))
}
