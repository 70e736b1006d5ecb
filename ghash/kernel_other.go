//go:build (!arm64 && !amd64 && !arm) || purego

package ghash

// archKernels lists no assembly kernels: this build is pure Go.
func archKernels() []kernel { return nil }

// asmKeyWords is the size of expandedKey.asm: no assembly kernel uses it here.
const asmKeyWords = 0

// expandWith fills ek from H: only the generic kernel exists here.
func expandWith(_ *kernel, ek *expandedKey, h *[16]byte) { expandGeneric(ek, h) }

// updateWith absorbs the whole blocks of p into y with the generic kernel.
func updateWith(_ *kernel, y *[16]byte, ek *expandedKey, p []byte) { updateGeneric(y, ek, p) }
