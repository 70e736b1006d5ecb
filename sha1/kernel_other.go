//go:build !amd64 || purego

package sha1

// archKernels lists no assembly kernels: this build is pure Go.
func archKernels() []kernel { return nil }
