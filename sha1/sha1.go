// Package sha1 implements the SHA-1 hash algorithm of FIPS 180-4 (RFC 3174)
// with SIMD block functions for amd64 and the SHA-1 instructions of arm64
// and 32-bit arm. It is a drop-in replacement for crypto/sha1: the same
// names, the same results and the same marshalled state, so a hash.Hash
// state saved by one package can be restored by the other.
//
// # Usage
//
// Hash a byte slice in one call:
//
//	digest := sha1.Sum(data) // [20]byte
//
// or stream data through a hash.Hash:
//
//	h := sha1.New()
//	io.Copy(h, file)
//	digest := h.Sum(nil)
//
// # Kernels
//
// The block function, which absorbs whole 64-byte blocks, is chosen once when
// the package is initialised, from the fastest one the CPU supports:
//
//   - "shani": amd64 with the SHA extensions (SHA1RNDS4 and friends).
//   - "avx2": amd64 with AVX2, BMI1 and BMI2; the message schedule of two
//     blocks at once in the two halves of YMM registers. Inputs shorter than
//     16 blocks go to "avx", which wins there.
//   - "avx": amd64 and 386 with AVX; the message schedule is computed four
//     words at a time in vector registers while the scalar rounds run.
//   - "ssse3": the same algorithm with SSE2 and SSSE3 instructions, for amd64
//     and 386 processors without AVX.
//   - "ce": arm64, and 32-bit arm on Armv8 cores, with the SHA-1
//     instructions (SHA1C, SHA1P, SHA1M, SHA1H, SHA1SU0, SHA1SU1).
//   - "neon": arm64 and 32-bit arm cores with Advanced SIMD but without the
//     SHA-1 instructions; the message schedule of "ssse3" on NEON, the
//     rounds in general registers.
//   - "stdlib": crypto/sha1 itself, on loong64 and s390x, where it has
//     assembly and this package has none, and on 386 processors without
//     SSSE3: Sum and New hand the work to it.
//   - "generic": portable Go, used everywhere else, and where the CPU lacks
//     what the kernels above need.
//
// [Kernel] reports the choice. It follows golang.org/x/sys/cpu, which honours
// the GODEBUG environment variable at process start, and, for the SHA
// extensions (which that package does not report), CPUID and GODEBUG's
// cpu.sha key read the way the Go runtime reads it. So a slower kernel can
// be forced for testing or comparison:
//
//	GODEBUG=cpu.sha=off                                      selects "avx2"
//	GODEBUG=cpu.sha=off,cpu.avx2=off                         selects "avx"
//	GODEBUG=cpu.sha=off,cpu.avx2=off,cpu.avx=off             selects "ssse3"
//	GODEBUG=cpu.sha=off,cpu.avx2=off,cpu.avx=off,cpu.ssse3=off selects "generic"
//	GODEBUG=cpu.sha1=off (arm64, arm)                         selects "neon"
//	GODEBUG=cpu.sha1=off,cpu.asimd=off (arm64)                selects "generic"
//
// Building with -tags purego leaves out the assembly altogether, and the
// package uses "generic" everywhere.
//
// # Security
//
// SHA-1 is broken for collision resistance: practical chosen-prefix
// collisions exist (SHAttered 2017, Shambles 2020). It remains fine where
// collisions do not matter or are handled elsewhere: git object names,
// BitTorrent piece hashes, HMAC-SHA1, and interoperability with existing
// formats and protocols. Do not use it for new digital signatures,
// certificates, or anything else that needs collision resistance; use SHA-256
// or SHA-3 instead.
package sha1

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
)

// Size is the size of a SHA-1 checksum in bytes.
const Size = 20

// BlockSize is the block size of SHA-1 in bytes.
const BlockSize = 64

// The initial hash value H(0), FIPS 180-4 section 5.3.1.
const (
	init0 = 0x67452301
	init1 = 0xefcdab89
	init2 = 0x98badcfe
	init3 = 0x10325476
	init4 = 0xc3d2e1f0
)

// The marshalled state is byte for byte the one of crypto/sha1: the magic,
// the five words of h (big-endian), the 64-byte buffer with the pending bytes
// first and zeros after them, and the total length in bytes (big-endian).
const (
	magic         = "sha\x01"
	marshaledSize = len(magic) + 5*4 + BlockSize + 8 // 96
)

// digest is the running state of a SHA-1 computation.
type digest struct {
	h   [5]uint32       // intermediate hash value after the absorbed blocks
	x   [BlockSize]byte // pending bytes x[:nx], not yet a whole block
	nx  int             // number of pending bytes, always < BlockSize
	len uint64          // total number of bytes written
}

// New returns a new hash.Hash computing the SHA-1 checksum. The Hash also
// implements encoding.BinaryMarshaler, encoding.BinaryAppender and
// encoding.BinaryUnmarshaler to save and restore its internal state, in the
// same format as crypto/sha1, and hash.Cloner, as crypto/sha1's does. (With
// the "stdlib" kernel it is crypto/sha1's Hash.)
func New() hash.Hash {
	if active.id == kernelStdlib {
		return stdlibNew()
	}
	d := new(digest)
	d.Reset()
	return d
}

// Reset resets the hash to its initial state.
func (d *digest) Reset() {
	d.h = [5]uint32{init0, init1, init2, init3, init4}
	d.nx = 0
	d.len = 0
}

// Clone returns an independent copy of the hash in its current state.
func (d *digest) Clone() (hash.Cloner, error) {
	c := *d
	return &c, nil
}

// Size returns the number of bytes Sum appends: Size.
func (d *digest) Size() int { return Size }

// BlockSize returns the block size of SHA-1: BlockSize.
func (d *digest) BlockSize() int { return BlockSize }

// Write absorbs p into the hash. It never returns an error.
func (d *digest) Write(p []byte) (int, error) {
	n := len(p)
	d.len += uint64(n)
	if d.nx > 0 {
		c := copy(d.x[d.nx:], p)
		d.nx += c
		p = p[c:]
		if d.nx < BlockSize {
			return n, nil
		}
		block(&d.h, d.x[:])
		d.nx = 0
	}
	// All the whole blocks of p go to the kernel in one call, straight from
	// the caller's memory.
	if whole := len(p) &^ (BlockSize - 1); whole > 0 {
		block(&d.h, p[:whole])
		p = p[whole:]
	}
	d.nx = copy(d.x[:], p)
	return n, nil
}

// Sum appends the current checksum to b and returns the result. It does not
// change the state: more data may be written afterwards.
func (d *digest) Sum(b []byte) []byte {
	h := d.h
	sum := finish(&h, d.x[:d.nx], d.len)
	return append(b, sum[:]...)
}

// MarshalBinary returns the state of the hash in the format of crypto/sha1.
func (d *digest) MarshalBinary() ([]byte, error) {
	return d.AppendBinary(make([]byte, 0, marshaledSize))
}

// AppendBinary appends the state of the hash, in the format of crypto/sha1,
// to b and returns the result.
func (d *digest) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, magic...)
	for _, w := range d.h {
		b = binary.BigEndian.AppendUint32(b, w)
	}
	var zero [BlockSize]byte
	b = append(b, d.x[:d.nx]...)
	b = append(b, zero[d.nx:]...)
	b = binary.BigEndian.AppendUint64(b, d.len)
	return b, nil
}

// errMagic is returned by UnmarshalBinary for input that is not a SHA-1
// state.
var errMagic = errors.New("sha1: invalid hash state identifier: not a SHA-1 state (want prefix \"sha\\x01\")")

// UnmarshalBinary restores a state produced by MarshalBinary or AppendBinary
// of this package or of crypto/sha1. It returns an error, and leaves the hash
// unchanged, if b is not such a state.
func (d *digest) UnmarshalBinary(b []byte) error {
	if len(b) < len(magic) || string(b[:len(magic)]) != magic {
		return errMagic
	}
	if len(b) != marshaledSize {
		return fmt.Errorf("sha1: invalid hash state size: got %d bytes, want %d", len(b), marshaledSize)
	}
	b = b[len(magic):]
	for i := range d.h {
		d.h[i] = binary.BigEndian.Uint32(b[4*i:])
	}
	b = b[4*len(d.h):]
	copy(d.x[:], b[:BlockSize])
	d.len = binary.BigEndian.Uint64(b[BlockSize:])
	d.nx = int(d.len % BlockSize)
	return nil
}

// Sum returns the SHA-1 checksum of data.
func Sum(data []byte) [Size]byte {
	if active.id == kernelStdlib {
		return stdlibSum(data)
	}
	h := [5]uint32{init0, init1, init2, init3, init4}
	whole := len(data) &^ (BlockSize - 1)
	if whole > 0 {
		block(&h, data[:whole])
	}
	return finish(&h, data[whole:], uint64(len(data)))
}

// finish absorbs the last bytes tail (fewer than BlockSize) of a message of n
// bytes, with the padding of FIPS 180-4 section 5.1.1, into h and returns the
// checksum.
func finish(h *[5]uint32, tail []byte, n uint64) [Size]byte {
	// tail, then 0x80, zeros, and the length in bits: one block if the
	// length still fits after the 0x80, two otherwise.
	var buf [2 * BlockSize]byte
	r := copy(buf[:BlockSize-1], tail)
	buf[r] = 0x80
	end := BlockSize
	if r >= BlockSize-8 {
		end = 2 * BlockSize
	}
	binary.BigEndian.PutUint64(buf[end-8:end], n<<3)
	block(h, buf[:end])

	var sum [Size]byte
	binary.BigEndian.PutUint32(sum[0:], h[0])
	binary.BigEndian.PutUint32(sum[4:], h[1])
	binary.BigEndian.PutUint32(sum[8:], h[2])
	binary.BigEndian.PutUint32(sum[12:], h[3])
	binary.BigEndian.PutUint32(sum[16:], h[4])
	return sum
}
