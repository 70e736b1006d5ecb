//go:build (386 || loong64 || s390x || (riscv64 && go1.27)) && !purego

package sha1

import (
	stdsha1 "crypto/sha1"
	"encoding"
	"encoding/binary"
	"hash"
)

// On these GOARCHes crypto/sha1 has assembly: integer code on 386 and
// loong64, the KIMD instruction (CPACF) on s390x, and, from Go 1.27,
// integer code on riscv64, which executes fewer instructions per byte than
// this package's portable code built by Go 1.27 (scripts/insn-count.sh;
// docs/sha1.md has the counts). Built by Go 1.26, crypto/sha1 is portable
// Go on riscv64, and generic is faster. Where this package has no kernel
// of its own (kernel_stdlib_only.go), or on a 386 CPU without SSSE3
// (kernel_386.go), the "stdlib" kernel therefore hands the work to
// crypto/sha1 itself: Sum calls crypto/sha1.Sum and New returns
// crypto/sha1.New(), whose state marshals to the same bytes as this
// package's digest (the format is crypto/sha1's), so nothing changes for a
// caller but the speed; neither allocates more than crypto/sha1 does
// (TestAllocs). crypto/sha1 does not export its block function, so the
// registry's raw function for tests, blockStdlib, reaches it through a
// marshalled state.

// stdlibKernel is the registry's entry of the stdlib kernel, which needs
// nothing of the CPU.
var stdlibKernel = kernel{name: "stdlib", id: kernelStdlib, available: true, block: blockStdlib}

// stdlibBlock is block for the stdlib and generic kernels, and panics,
// naming it, for any other. (With stdlib active, Sum and New do not come
// here; digests made while another kernel was active, in tests, do.)
func stdlibBlock(h *[5]uint32, p []byte) {
	switch active.id {
	case kernelStdlib:
		blockStdlib(h, p)
	case kernelGeneric:
		blockGeneric(h, p)
	default:
		panic(unknownKernel(active))
	}
}

func stdlibSum(data []byte) [Size]byte { return stdsha1.Sum(data) }

func stdlibNew() hash.Hash { return stdsha1.New() }

// blockStdlib absorbs the whole blocks of p into h with crypto/sha1's block
// function: it gives h to a crypto/sha1 hash as a marshalled state with no
// pending bytes, writes the blocks, and reads h back from the new state.
// It allocates the crypto/sha1 hash, which is why the package itself never
// calls it on its way to the block function (Sum and New above).
func blockStdlib(h *[5]uint32, p []byte) {
	whole := len(p) &^ (BlockSize - 1)
	if whole == 0 {
		return
	}
	var state [marshaledSize]byte
	b := append(state[:0], magic...)
	for _, w := range h {
		b = binary.BigEndian.AppendUint32(b, w)
	}
	b = b[:marshaledSize] // the buffer and the length stay zero: no pending bytes
	d := stdsha1.New()
	if err := d.(encoding.BinaryUnmarshaler).UnmarshalBinary(b); err != nil {
		panic("sha1: crypto/sha1 rejects a state of its own format: " + err.Error())
	}
	d.Write(p[:whole])
	b, err := d.(encoding.BinaryAppender).AppendBinary(state[:0])
	if err != nil || len(b) != marshaledSize {
		panic("sha1: crypto/sha1's state is not in the expected format")
	}
	for i := range h {
		h[i] = binary.BigEndian.Uint32(b[len(magic)+4*i:])
	}
}
