// Package sha1dc implements SHA-1 with collision detection: the
// counter-cryptanalysis of Marc Stevens ("Counter-cryptanalysis", CRYPTO
// 2013) with the unavoidable bit conditions of Stevens and Shumow
// ("Speeding up detection of SHA-1 collision attacks using unavoidable
// attack conditions", USENIX Security 2017), as git has hashed every
// object since git 2.13.
//
// It is a drop-in replacement for github.com/pjbgf/sha1cd v0.7.0, which
// go-git uses: the same names, the same results and the same marshalled
// state. On data that is not half of a known kind of collision attack the
// digest is plain SHA-1's (FIPS 180-4). On a block that is, the flag says
// so and the digest is git's "safe hash": that block is absorbed three
// times instead of once, so both messages of a collision get different,
// unpredictable digests. The SHAttered (2017) and Shambles (2020)
// collisions are such data.
//
// # Usage
//
//	sum, collided := sha1dc.Sum(data)
//
//	h := sha1dc.New().(sha1dc.CollisionResistantHash)
//	io.Copy(h, file)
//	sum, collided := h.CollisionResistantSum(nil)
//
// [SumMany] hashes many messages in one call.
//
// # How it works
//
// Every 64-byte block is compressed as by SHA-1, keeping its expanded
// message W[0..79] and the working variables before steps 58 and 65. The
// unavoidable bit conditions, a few bit operations on W[35..64], give the
// mask of the 32 disturbance vectors (DVs) of the known attacks that the
// block could follow; on real data it is almost always zero. For each DV
// that survives, the block is recompressed from the saved state with the
// message difference of the DV, and a block whose recompression ends in
// the same chaining value is half of a collision. The check and the DV
// table are generated from one description, gen/internal/ubc
// (docs/sha1dc.md).
//
// # Timing
//
// The time a block takes depends on its content, as in git's
// sha1collisiondetection and in sha1cd: a block with surviving DVs is
// recompressed, and the portable check stops as soon as no DV survives
// (after a number of conditions that depends on W; the assembly kernels
// evaluate every condition, branch-free). So sha1dc is for data that is not
// secret, such as git objects and downloaded files; hash secrets (HMAC
// keys, passwords) with package sha1, whose kernels do not branch on the
// data.
//
// [Kernel] names the block function in use: on amd64 and arm64 package
// sha1's SIMD kernels with the check among their rounds, elsewhere
// portable Go.
package sha1dc

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
var initState = [5]uint32{0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0}

// CollisionResistantHash is the interface of the hash New returns:
// hash.Hash, and CollisionResistantSum, which also reports whether a
// collision attack was detected in what was written.
type CollisionResistantHash interface {
	// CollisionResistantSum appends the current checksum to b, as Sum
	// does, and reports whether any block written so far (or the padding
	// of the end) was half of a collision; the checksum is then the safe
	// hash. It does not change the state.
	CollisionResistantSum(b []byte) ([]byte, bool)

	hash.Hash
}

// The marshalled state is sha1cd's layout: a magic, the five words of h
// (big-endian), the 64-byte buffer with the pending bytes first and zeros
// after them, and the total length in bytes (big-endian). sha1cd writes
// magicClean always and does not save whether a collision was seen; this
// package writes magicClean for a state that has seen none, byte for byte
// what sha1cd writes, and magicCollided for one that has, which sha1cd
// rejects rather than restore without its flag.
const (
	magicClean    = "shacd\x01"
	magicCollided = "shacd\x02"
	marshaledSize = len(magicClean) + 5*4 + BlockSize + 8 // 98
)

// digest is the running state of a collision-detecting SHA-1 computation.
type digest struct {
	h   [5]uint32       // intermediate hash value after the absorbed blocks
	x   [BlockSize]byte // pending bytes x[:nx], not yet a whole block
	nx  int             // number of pending bytes, always < BlockSize
	len uint64          // total number of bytes written
	col bool            // a block absorbed so far was half of a collision
}

// New returns a new hash.Hash computing collision-detecting SHA-1. It
// implements [CollisionResistantHash], encoding.BinaryMarshaler,
// encoding.BinaryAppender and encoding.BinaryUnmarshaler (in sha1cd's
// format; see MarshalBinary), and hash.Cloner.
func New() hash.Hash {
	d := new(digest)
	d.Reset()
	return d
}

// Reset resets the hash to its initial state, with no collision seen.
func (d *digest) Reset() {
	d.h = initState
	d.nx = 0
	d.len = 0
	d.col = false
}

// Clone returns an independent copy of the hash in its current state,
// including whether a collision was seen.
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
		d.col = block(&d.h, d.x[:]) || d.col
		d.nx = 0
	}
	if whole := len(p) &^ (BlockSize - 1); whole > 0 {
		d.col = block(&d.h, p[:whole]) || d.col
		p = p[whole:]
	}
	d.nx = copy(d.x[:], p)
	return n, nil
}

// Sum appends the current checksum to b and returns the result: SHA-1's,
// or the safe hash if a collision was detected (CollisionResistantSum
// says which). It does not change the state.
func (d *digest) Sum(b []byte) []byte {
	b, _ = d.CollisionResistantSum(b)
	return b
}

// CollisionResistantSum appends the current checksum to b, as Sum does,
// and reports whether a collision was detected in the data written so far
// or in the padding. It does not change the state.
func (d *digest) CollisionResistantSum(b []byte) ([]byte, bool) {
	h := d.h
	sum, col := finish(&h, d.x[:d.nx], d.len)
	return append(b, sum[:]...), col || d.col
}

// MarshalBinary returns the state of the hash in sha1cd's format: for a
// hash that has seen no collision, the very bytes sha1cd's MarshalBinary
// writes; for one that has, the same layout under the magic "shacd\x02",
// which sha1cd rejects and this package restores with the flag set.
func (d *digest) MarshalBinary() ([]byte, error) {
	return d.AppendBinary(make([]byte, 0, marshaledSize))
}

// AppendBinary appends the state of the hash, as MarshalBinary returns it,
// to b and returns the result.
func (d *digest) AppendBinary(b []byte) ([]byte, error) {
	if d.col {
		b = append(b, magicCollided...)
	} else {
		b = append(b, magicClean...)
	}
	for _, w := range d.h {
		b = binary.BigEndian.AppendUint32(b, w)
	}
	var zero [BlockSize]byte
	b = append(b, d.x[:d.nx]...)
	b = append(b, zero[d.nx:]...)
	b = binary.BigEndian.AppendUint64(b, d.len)
	return b, nil
}

// errMagic is returned by UnmarshalBinary for input that is not a state of
// this package or of sha1cd.
var errMagic = errors.New(`sha1dc: invalid hash state identifier: not a sha1dc or sha1cd state (want prefix "shacd\x01" or "shacd\x02")`)

// UnmarshalBinary restores a state written by MarshalBinary or
// AppendBinary of this package or by sha1cd's MarshalBinary (which never
// records a collision). It returns an error, and leaves the hash
// unchanged, if b is not such a state.
func (d *digest) UnmarshalBinary(b []byte) error {
	if len(b) < len(magicClean) {
		return errMagic
	}
	var col bool
	switch string(b[:len(magicClean)]) {
	case magicClean:
	case magicCollided:
		col = true
	default:
		return errMagic
	}
	if len(b) != marshaledSize {
		return fmt.Errorf("sha1dc: invalid hash state size: got %d bytes, want %d", len(b), marshaledSize)
	}
	b = b[len(magicClean):]
	for i := range d.h {
		d.h[i] = binary.BigEndian.Uint32(b[4*i:])
	}
	b = b[4*len(d.h):]
	copy(d.x[:], b[:BlockSize])
	d.len = binary.BigEndian.Uint64(b[BlockSize:])
	d.nx = int(d.len % BlockSize)
	d.col = col
	return nil
}

// Sum returns the checksum of data and whether a collision was detected in
// it; the checksum is SHA-1's, or the safe hash if one was.
func Sum(data []byte) ([Size]byte, bool) {
	h := initState
	if len(data) < 2*BlockSize-9 {
		// One call of the kernel for the data and the padding, which
		// fit in two blocks: a checking kernel's call costs more than
		// the copy.
		return finish(&h, data, uint64(len(data)))
	}
	whole := len(data) &^ (BlockSize - 1)
	col := block(&h, data[:whole])
	sum, c := finish(&h, data[whole:], uint64(len(data)))
	return sum, col || c
}

// finish absorbs the last bytes tail (fewer than BlockSize, or up to
// 2*BlockSize-9 from Sum) of a message of n bytes, with the padding of
// FIPS 180-4 section 5.1.1, into h, and returns the checksum and whether
// the padded blocks were half of a collision.
func finish(h *[5]uint32, tail []byte, n uint64) ([Size]byte, bool) {
	var buf [2 * BlockSize]byte
	r := copy(buf[:2*BlockSize-9], tail)
	buf[r] = 0x80
	end := BlockSize
	if r >= BlockSize-8 {
		end = 2 * BlockSize
	}
	binary.BigEndian.PutUint64(buf[end-8:end], n<<3)
	col := block(h, buf[:end])

	var sum [Size]byte
	binary.BigEndian.PutUint32(sum[0:], h[0])
	binary.BigEndian.PutUint32(sum[4:], h[1])
	binary.BigEndian.PutUint32(sum[8:], h[2])
	binary.BigEndian.PutUint32(sum[12:], h[3])
	binary.BigEndian.PutUint32(sum[16:], h[4])
	return sum, col
}
