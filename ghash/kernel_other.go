//go:build (!arm64 && !amd64 && !arm) || purego

package ghash

// archKernels lists no assembly kernels: this build is pure Go.
func archKernels() []kernel { return nil }

// asmKeyWords is the size of expandedKey.asm: no assembly kernel uses it here.
const asmKeyWords = 0
