package sha1dc

// A kernel is one implementation of the collision-detecting block function:
// it absorbs len(p)/BlockSize whole blocks of p into h, reports whether any
// was half of a collision (absorbing such a block three times), and never
// reads p[len(p)&^(BlockSize-1):] or anything outside p.
type kernel struct {
	name      string                            // reported by Kernel
	id        kernelID                          // which direct call block makes for it
	available bool                              // the CPU (and OS) support every extension it uses
	block     func(h *[5]uint32, p []byte) bool // the block function, for tests that call it directly
}

// kernelID names a kernel for the switch in block, which calls kernels
// directly rather than through the func value in the registry: escape
// analysis must assume an indirect call keeps its arguments, which would
// move every state and buffer handed to it to the heap.
type kernelID uint8

const (
	kernelGeneric kernelID = iota // portable Go, everywhere
)

// kernels lists every implementation built into this binary, preferred
// first; the last is the portable Go code, which is always available. The
// SIMD kernels of issue 22 go before it, each with its id and a case in
// block. Tests walk this list so that every kernel runs on one machine.
var kernels = []kernel{
	{name: "generic", id: kernelGeneric, available: true, block: blockGeneric},
}

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

// Kernel reports the name of the block function chosen at init: for now
// "generic", portable Go, on every GOARCH.
func Kernel() string { return active.name }

// block absorbs the whole blocks of p into h with the active kernel and
// reports whether any was half of a collision.
func block(h *[5]uint32, p []byte) bool {
	switch active.id {
	case kernelGeneric:
		return blockGeneric(h, p)
	default:
		panic("sha1dc: no case for kernel " + active.name + " in block's dispatch")
	}
}
