package sha1dc

// A kernel is one implementation of the collision-detecting block function:
// it absorbs len(p)/BlockSize whole blocks of p into h, reports whether any
// was half of a collision (absorbing such a block three times), and never
// reads p[len(p)&^(BlockSize-1):] or anything outside p.
//
// Every kernel but generic is an assembly kernel of the Checked contract
// (gen/internal/sha1sched): it computes SHA-1 as package sha1's kernel of
// the same name does and evaluates the unavoidable-bit-condition check of
// each block beside the rounds, in vector registers, and it stops before
// the first block whose mask is not zero, returning the blocks it absorbed
// and that mask. blockChecked then finishes that block in Go (flagged) and
// calls the kernel again on the rest.
type kernel struct {
	name      string                            // reported by Kernel
	id        kernelID                          // which direct call block makes for it
	available bool                              // the CPU (and OS) support every extension it uses
	block     func(h *[5]uint32, p []byte) bool // the block function, for tests that call it directly
	// check is the assembly kernel itself (nil for generic), for the
	// tests that compare its mask with the portable check's.
	check func(h *[5]uint32, p []byte) (n, mask uint32)
}

// kernelID names a kernel for the switches in block and runKernel, which
// call kernels directly rather than through the func values in the
// registry: escape analysis must assume an indirect call keeps its
// arguments, which would move every state and buffer handed to it to the
// heap.
type kernelID uint8

const (
	kernelGeneric  kernelID = iota // portable Go, everywhere
	kernelSSSE3                    // amd64
	kernelAVX                      // amd64
	kernelAVX2                     // amd64
	kernelSHANI                    // amd64
	kernelSHANI512                 // amd64: SHA-NI with the check on AVX-512
	kernelSHANIAVX                 // amd64: SHA-NI with the check's Kills as AVX blends
	kernelCE                       // arm64: the SHA1 instructions
	kernelNEON                     // arm64: the vectorised schedule on NEON
)

// unknownKernel is the panic of a dispatch switch that meets a kernel it
// has no case for: a kernel added to the registry but not to the switch.
func unknownKernel(k *kernel) string {
	return "sha1dc: no case for kernel " + k.name + " in block's dispatch"
}

// kernels lists every implementation built into this binary, preferred
// first; the last is the portable Go code, which is always available.
// Tests walk this list so that every kernel runs on one machine.
var kernels = append(archKernels(), kernel{name: "generic", id: kernelGeneric, available: true, block: blockGeneric})

// active is the kernel chosen once at init: the first available one.
var active = firstAvailable()

func firstAvailable() *kernel {
	for i := range kernels {
		if kernels[i].available {
			return &kernels[i]
		}
	}
	panic("sha1dc: no kernel available") // unreachable: generic is always available
}

// Kernel reports the name of the block function chosen at init for this
// CPU, with the same names and the same conditions as package sha1's
// kernels (sha1.Kernel): "shani", "avx2", "avx" or "ssse3" on amd64, "ce"
// or "neon" on arm64, or "generic" (portable Go, as on every other
// GOARCH and with the purego tag); before them on amd64 "shani512", the
// SHA-NI kernel with the check in AVX-512 registers (with AVX-512 F, VL
// and BW and AVX2), and "shani-avx", with the check's Kills as AVX
// blends (with AVX). GODEBUG turns kernels off as it does for sha1:
// cpu.avx512=off (shani-avx), cpu.avx=off (shani), cpu.sha=off,
// cpu.avx2=off on amd64, cpu.sha1=off on arm64.
func Kernel() string { return active.name }

// block absorbs the whole blocks of p into h with the active kernel and
// reports whether any was half of a collision. The first call of a
// checking kernel is here: most inputs have no flagged block.
func block(h *[5]uint32, p []byte) bool {
	if active.id == kernelGeneric {
		return blockGeneric(h, p)
	}
	n, mask := runKernel(active, h, p)
	if mask == 0 {
		return false
	}
	return blockFrom(active, h, p, n, mask)
}

// blockChecked absorbs the whole blocks of p into h with the checking
// kernel k and reports whether any was half of a collision.
func blockChecked(k *kernel, h *[5]uint32, p []byte) bool {
	n, mask := runKernel(k, h, p)
	if mask == 0 {
		return false
	}
	return blockFrom(k, h, p, n, mask)
}

// blockFrom goes on after a call of kernel k on p that absorbed n blocks
// and stopped at one with mask (not zero): flagged finishes that block,
// and the kernel runs again from the next, up to its next stop.
func blockFrom(k *kernel, h *[5]uint32, p []byte, n, mask uint32) bool {
	col := false
	for {
		p = p[int(n)*BlockSize:]
		col = flagged(h, (*[BlockSize]byte)(p), mask) || col
		p = p[BlockSize:]
		if n, mask = runKernel(k, h, p); mask == 0 {
			return col
		}
	}
}

// flagged absorbs the block q, whose UBC mask is mask (not zero), into h,
// and reports whether it is half of a collision; such a block is absorbed
// twice more (the safe hash).
func flagged(h *[5]uint32, q *[BlockSize]byte, mask uint32) bool {
	var w [80]uint32
	var s [len(testSteps)][5]uint32
	compressW(h, q, &w, &s)
	if !nearCollision(mask, &w, &s, h) {
		return false
	}
	compressW(h, q, &w, &s)
	compressW(h, q, &w, &s)
	return true
}
