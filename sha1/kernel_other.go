//go:build !(amd64 || arm64 || arm || 386 || loong64 || s390x || (riscv64 && go1.27)) || purego

package sha1

// archKernels lists no other kernel: on this GOARCH crypto/sha1 runs
// portable Go code too, slower than ours (docs/sha1.md), or the build is
// pure Go.
func archKernels() []kernel { return nil }

// block absorbs the whole blocks of p into h.
func block(h *[5]uint32, p []byte) {
	switch active.id {
	case kernelGeneric:
		blockGeneric(h, p)
	default:
		panic(unknownKernel(active))
	}
}
