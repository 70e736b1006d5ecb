package sha1

// A kernel is one implementation of the SHA-1 block function. The block
// function absorbs len(p)/BlockSize whole blocks of p into h; it never reads
// p[len(p)&^(BlockSize-1):] or anything outside p.
type kernel struct {
	name      string                       // reported by Kernel
	id        kernelID                     // which direct call block makes for it
	available bool                         // the CPU (and OS) support every extension it uses
	block     func(h *[5]uint32, p []byte) // the block function, for tests that call it directly
}

// kernelID names a kernel for the switch in block. The package calls kernels
// directly, never through the func value in the registry: escape analysis
// must assume an indirect call keeps its arguments, which would move every
// state and buffer handed to it (even a caller's stack array given to Sum)
// to the heap.
type kernelID uint8

const (
	kernelGeneric kernelID = iota
	kernelSSSE3            // amd64 and 386
	kernelAVX              // amd64 and 386
	kernelAVX2             // amd64
	kernelSHANI            // amd64
	kernelCE               // arm64 and arm: the SHA1 instructions
	kernelNEON             // arm64 and arm: the vectorised schedule on NEON
	kernelStdlib           // 386 without SSSE3, loong64, s390x: crypto/sha1 itself
)

// unknownKernel is the panic of a dispatch switch that meets a kernel it
// has no case for: a kernel added to the registry but not to the switch.
func unknownKernel(k *kernel) string {
	return "sha1: no case for kernel " + k.name + " in this GOARCH's dispatch"
}

// kernels lists every implementation built into this binary, preferred
// first. The last entry is always the portable Go code, which is always
// available. Tests walk this list so that every kernel runs on one machine.
var kernels = append(archKernels(), kernel{name: "generic", id: kernelGeneric, available: true, block: blockGeneric})

// active is the kernel chosen once at init: the first available one.
var active = firstAvailable()

func firstAvailable() *kernel {
	for i := range kernels {
		if kernels[i].available {
			return &kernels[i]
		}
	}
	panic("sha1: no kernel available") // unreachable: generic is always available
}

// Kernel reports the name of the block function chosen at init for this CPU:
// "shani", "avx2", "avx" or "ssse3" on amd64, "avx", "ssse3" or "stdlib" on
// 386, "ce" or "neon" on arm64 and arm, "stdlib" (crypto/sha1's own code) on
// loong64 and s390x, or "generic". The choice follows golang.org/x/sys/cpu
// and, for the amd64 SHA extensions, which that package does not report,
// CPUID and GODEBUG's cpu.sha key as the Go runtime reads them; so a
// GODEBUG setting such as GODEBUG=cpu.sha=off, cpu.avx=off, (386)
// cpu.ssse3=off or (arm64, arm) cpu.sha1=off forces a slower kernel.
func Kernel() string { return active.name }
