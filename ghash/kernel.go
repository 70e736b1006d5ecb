package ghash

// A kernel is one implementation of the GHASH block loop.
//
// The accumulator y and the key material are kept in the byte order of
// SP 800-38D (y[0] holds the coefficients of x^0..x^7, most significant bit
// first). Each kernel expands H once per key into an expandedKey, in a layout
// of its own, so that its loop does no per-call key work.
type kernel struct {
	name      string   // reported by Kernel
	id        kernelID // which direct calls expandWith and updateWith make
	available bool     // the CPU supports every extension it uses

	// expand and update are the kernel's functions, for tests that call
	// them directly; the package calls them through expandWith and
	// updateWith, which switch on id. (A call through a func value makes
	// escape analysis move every argument to the heap: Sum would allocate.)

	// expand fills k from the hash key H.
	expand func(k *expandedKey, h *[16]byte)

	// update absorbs len(p)/16 whole blocks of p into y:
	// y = (y ^ X1)·H, then (y ^ X2)·H, and so on. It never reads outside p.
	update func(y *[16]byte, k *expandedKey, p []byte)
}

// kernels lists every implementation built into this binary, preferred
// first. The last entry is always the portable constant-time Go code.
// Tests walk this list so that every kernel runs on one machine.
var kernels = append(archKernels(), kernel{name: "generic", id: kernelGeneric, available: true, expand: expandGeneric, update: updateGeneric})

// active is the kernel chosen once at init: the first available one.
var active = firstAvailable()

func firstAvailable() *kernel {
	for i := range kernels {
		if kernels[i].available {
			return &kernels[i]
		}
	}
	panic("ghash: no kernel available") // unreachable: generic is always available
}

// Kernel reports the name of the implementation chosen at init for this
// CPU: "pmull" or "neon" on arm64 and 32-bit arm; "pclmul" (VEX encodings,
// on CPUs with AVX) or "pclmul-sse" (the same code in SSE encodings, for
// CPUs without AVX) on amd64; or "generic". The choice follows
// golang.org/x/sys/cpu, so GODEBUG=cpu.pmull=off forces "neon" on arm64,
// and on amd64 GODEBUG=cpu.avx=off forces "pclmul-sse" and
// GODEBUG=cpu.pclmulqdq=off "generic".
func Kernel() string { return active.name }

// expandedKey holds what the kernels precompute from H. Each kernel fills
// and reads only its own part.
type expandedKey struct {
	generic genericKey          // the generic kernel's (generic.go)
	asm     [asmKeyWords]uint64 // the assembly kernels', in the layout their generator documents
}

// kernelID names a kernel for the switches in expandWith and updateWith.
type kernelID uint8

const (
	kernelGeneric kernelID = iota
	kernelPCLMUL
	kernelPCLMULSSE
	kernelPMULL
	kernelNEON
)
