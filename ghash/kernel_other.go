//go:build (!arm64 && !amd64 && !arm) || purego

package ghash

// archKernels lists no assembly kernels: this build is pure Go.
func archKernels() []kernel { return nil }

// asmKeyWords is the size of expandedKey.asm: no assembly kernel uses it here.
const asmKeyWords = 0

// expandWith fills ek from H with kernel k's expansion (generic's holds H
// alone, whatever powers asks for).
func expandWith(k *kernel, ek *expandedKey, h *[16]byte, powers int) {
	switch k.id {
	case kernelGeneric:
		expandGeneric(ek, h)
	default:
		noCase(k)
	}
}

// updateWith absorbs the whole blocks of p into y with kernel k.
func updateWith(k *kernel, y *[16]byte, ek *expandedKey, p []byte) {
	switch k.id {
	case kernelGeneric:
		updateGeneric(y, ek, p)
	default:
		noCase(k)
	}
}
