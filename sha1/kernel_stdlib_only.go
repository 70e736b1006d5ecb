//go:build (loong64 || s390x || (riscv64 && go1.27)) && !purego

package sha1

// On these GOARCHes stdlib is the kernel (kernel_stdlib.go); the portable
// code is there for tests and purego.

func archKernels() []kernel { return []kernel{stdlibKernel} }

// block absorbs the whole blocks of p into h with the active kernel.
func block(h *[5]uint32, p []byte) { stdlibBlock(h, p) }
