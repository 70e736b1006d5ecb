//go:build !amd64 || purego

package sha1

// archKernels lists no assembly kernels: this build is pure Go.
func archKernels() []kernel { return nil }

// block absorbs the whole blocks of p into h.
func block(h *[5]uint32, p []byte) { blockGeneric(h, p) }
