package ghash

import "github.com/simdhash/simdhash/internal/cpuid"

// A kernel is one implementation of the GHASH block loop.
//
// The accumulator y and the blocks are kept in the byte order of
// SP 800-38D (y[0] holds the coefficients of x^0..x^7, most significant bit
// first). Each kernel expands H into an expandedKey, in a layout of its
// own, so that its loop does no per-call key work. The package calls a
// kernel's functions through expandWith and updateWith, which switch on
// its id: a call through a func value would make escape analysis move
// every argument to the heap, and Key.SumGCM would allocate. Each switch
// has a case per kernel of its build and a default that panics (noCase),
// so a kernel registered without one fails every test that runs it.
type kernel struct {
	name      string   // reported by Kernel
	id        kernelID // which functions expandWith and updateWith call
	available bool     // the CPU supports every extension it uses
	missing   string   // if not available and known: the extensions it lacks, or GODEBUG hides
	features  []string // the names of the extensions its availability tests, set by needs

	// powers is how many powers of H, H^1..H^powers, a full key of this
	// kernel holds: the most blocks it absorbs with one reduction.
	powers int

	// gcm is, on amd64, the number of the assembly function that hashes a
	// short message for Key.SumGCM (gcmShort's form), or 0 for a kernel
	// without one, whose short messages go to sumShort.
	gcm uint8
}

// powersFor returns how many powers of H, H^1..H^n, a key of kernel k must
// hold for an update of the given number of whole blocks. It is the one
// rule that ties key expansion to input length: every kernel absorbs m
// blocks with one reduction using H^m..H^1, for m no more than the blocks
// it is given and no more than k.powers, and otherwise takes blocks one at
// a time with H. So an update of n blocks uses at most
// H^1..H^min(n, k.powers), and never a power beyond what this returns
// (the arm64 pmull kernel loads its whole key into registers, but
// multiplies by those alone). TestPartialKeys fills the rest of the key
// with garbage to check it.
func powersFor(k *kernel, blocks int) int { return max(1, min(blocks, k.powers)) }

// kernels lists every implementation built into this binary, preferred
// first. The last entry is always the portable constant-time Go code.
// Tests walk this list so that every kernel runs on one machine.
var kernels = append(archKernels(), kernel{name: genericName, id: kernelGeneric, available: true, powers: 1})

// genericName is the name of the always-available kernel, kernels[len-1].
const genericName = "generic"

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
// CPU: "pmull" or "neon" on arm64 and 32-bit arm; on amd64 "vpclmul512"
// (VPCLMULQDQ on ZMM registers, on CPUs with AVX-512 F, VL and BW and
// VPCLMULQDQ), "vpclmul256" (on YMM registers, on CPUs with AVX2 and
// VPCLMULQDQ), "pclmul" (PCLMULQDQ in VEX encodings, on CPUs with AVX) or
// "pclmul-sse" (the same code in SSE encodings, for CPUs without AVX); or
// "generic". The choice follows golang.org/x/sys/cpu, so
// GODEBUG=cpu.pmull=off forces "neon" on arm64, and on amd64
// GODEBUG=cpu.avx512=off forces "vpclmul256", cpu.vpclmulqdq=off "pclmul",
// cpu.avx=off "pclmul-sse" and cpu.pclmulqdq=off "generic".
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
	kernelVPCLMUL256
	kernelVPCLMUL512
	kernelPMULL
	kernelNEON
)

// needs returns k, available if every one of features is, and otherwise
// naming those that are not; it records their names for TestRequires.
func needs(k kernel, features ...cpuid.Feature) kernel {
	k.available, k.missing = cpuid.Need(features...)
	k.features = cpuid.Names(features)
	return k
}

// noCase panics: kernel k reached a switch over kernel ids that has no case
// for it. It is out of line, and builds its message only when called.
//
//go:noinline
func noCase(k *kernel) {
	panic("ghash: kernel " + k.name + " has no case in a switch over kernel ids (see kernel.go)")
}
