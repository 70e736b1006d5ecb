// Package ghash implements GHASH, the universal hash function of the
// Galois/Counter Mode (NIST SP 800-38D, section 6.4).
//
// GHASH_H multiplies, block by block, in GF(2^128) modulo
// x^128 + x^7 + x^2 + x + 1: for 16-byte blocks X_1 .. X_m and the hash key
// H, Y_0 = 0 and Y_i = (Y_(i-1) XOR X_i)·H; the result is Y_m. In GCM,
// H = E(K, 0^128).
//
// GHASH is the building block for GCM over any 128-bit block cipher (AES,
// SM4, ARIA, Camellia, ...) and for GMAC. It is not a MAC by itself: it is
// linear in its input, and H can be recovered from a few unmasked outputs.
// Its output must be masked before it is released, as GCM does by XORing
// it with E(K, J_0), a value that must never repeat under one key.
//
// # Use
//
// A GCM implementation makes one Key per cipher key, with NewKey, and keeps
// it. The Key holds H and the powers of H that the kernel in use needs, so
// each message costs only its own blocks. It offers the two forms of
// GHASH under names that cannot be confused:
//
//   - Key.SumGCM(A, C) is GCM's GHASH (SP 800-38D Algorithm 4, step 5):
//     A and C each zero-padded to whole blocks, then the block of their
//     bit lengths. It is what a GCM tag masks, and, with A empty and C an
//     IV that is not 96 bits long, GCM's J_0. A short message (up to 112
//     bytes of padded A and C, 240 on the wide amd64 kernels) is one
//     kernel call, with one reduction on the kernels that aggregate
//     blocks.
//   - Key.NewHash returns a Hash, a streaming hash.Hash whose Sum is the
//     plain GHASH of what was written, zero-padded to whole blocks, with no
//     length block (the GHASH of SP 800-38D Algorithm 2, for whole blocks).
//
// SumGCM(H, A, C) is Key.SumGCM for a single message: it computes only the
// powers of H that these lengths use, and is cheaper than NewKey then
// Key.SumGCM for one short message, and dearer for many.
//
// A Key never changes after NewKey: any number of goroutines may use one
// at once, as may several goroutines calling Sum on one Hash (Write and
// Reset change a Hash, as for any hash.Hash). Misuse panics, naming the
// mistake: a zero Key or Hash (not made by NewKey or Key.NewHash) on first
// use, and a nil *Key. Write never returns an error.
//
// # Kernels
//
// The block loop has several implementations ("kernels"), chosen once at
// init from the CPU's features; Kernel reports which one is in use:
//
//   - "pmull" (arm64 and 32-bit arm): the 64x64-bit carry-less multiply
//     PMULL.1Q (vmull.p64) of the ARMv8 Crypto Extensions.
//   - "neon" (arm64 and 32-bit arm without it): the 8x8-bit PMULL.8H
//     (vmull.p8) that every Advanced SIMD unit has, combined into 64x64-bit
//     products as in Câmara, Gouvêa, López and Dahab (2013).
//   - "vpclmul512" (amd64 with AVX-512 F, VL and BW and VPCLMULQDQ) and
//     "vpclmul256" (amd64 with AVX2 and VPCLMULQDQ): VPCLMULQDQ on ZMM and
//     YMM registers, four and two blocks per instruction, sixteen blocks
//     per reduction, for inputs of 256 bytes and more; shorter inputs and
//     tails go through "pclmul"'s loops, except a short message's
//     blocks in Key.SumGCM, which both take two at a time on YMM.
//   - "pclmul" (amd64 with AVX) and "pclmul-sse" (amd64 without AVX): the
//     64x64-bit carry-less multiply PCLMULQDQ, eight blocks per reduction.
//   - "generic" (everywhere): portable Go with integer multiplies (see
//     generic.go for the method).
//
// A Key is made for the kernel active when NewKey is called and keeps
// using it. Each kernel computes the powers of H in its Key with its own
// multiply. On arm64 and 32-bit arm, GODEBUG=cpu.pmull=off hides the 64-bit
// multiply from the selection and so selects "neon"; on amd64,
// GODEBUG=cpu.avx512=off selects "vpclmul256", cpu.vpclmulqdq=off
// "pclmul", cpu.avx=off "pclmul-sse" and cpu.pclmulqdq=off "generic".
// Building with -tags purego leaves out all assembly and selects "generic".
//
// # Constant time
//
// Every kernel, and the key expansion, is written without branches or
// memory indices that depend on the key or the data, so that run time
// depends only on the lengths of the inputs. The generic kernel uses no
// tables; it assumes that the CPU's 64x64-bit multiplier takes constant
// time, as it does on current amd64 and arm64 cores (but not on some
// embedded ones). The bits of H are reordered for the ARM kernels with
// shifts and masks (math/bits.Reverse8, a 256-byte table on 32-bit arm,
// is not used).
//
// What is checked, by TestConstantTimeCode (ct_test.go): the package's
// test binary is built for arm64, for 32-bit arm with GOARM=7 and GOARM=6,
// and for amd64, and disassembled with `go tool objdump`; every function
// reached by direct calls from NewKey, SumGCM, Key.SumGCM, Hash.Write and
// the body of Hash.Sum, in this package and in the packages it calls (the
// assembly kernels included), may refer to no data symbol but the
// kernels' constant vectors (each loaded whole into a register), the
// active-kernel pointer, the misuse errors and the write-barrier flag; it
// may make no indirect call, and call into the runtime only for stack
// growth, panics, copies and write barriers. A table indexed by a secret
// is a load from a data symbol (bits.Reverse8's table is an anonymous
// string symbol), so it fails the check; a canary function with such
// loads, built into the same binary, must be caught on every target. On
// 32-bit arm a literal-pool word counts as an address when the compiled
// code uses it as one; in the assembly kernels every such word counts. On
// amd64 the assembly kernels' references are read from their generated
// source ((SB) operands), since Go's disassembler does not decode their
// VEX and EVEX instructions.
// Timing itself is not measured: the property rests on the form of the
// code, which this check and generic.go's description establish.
package ghash

import (
	"encoding/binary"
	"errors"
	"hash"
	"math"
)

// Size is the length of a GHASH value in bytes.
const Size = 16

// BlockSize is the length of a GHASH input block in bytes.
const BlockSize = 16

// The misuse errors, with which the methods panic.
var (
	errNilKey   = errors.New("ghash: method called on a nil *Key")
	errZeroKey  = errors.New("ghash: Key used without NewKey (a zero Key has no hash key)")
	errZeroHash = errors.New("ghash: Hash used without Key.NewHash (a zero Hash has no key)")
)

// errGCMForm is the panic of gcmShort given a form it does not know, or
// called off amd64: a kernel's gcm field names no assembly function.
var errGCMForm = errors.New("ghash: a kernel's gcm form names no short-message function of this build (see gcmForms in gen/ghash_pclmul)")

// Key is a GHASH hash key H, expanded for the kernel that was active when
// NewKey made it. It never changes afterwards, so it may be used by any
// number of goroutines at once, and copied. The zero Key is not usable:
// its methods panic.
type Key struct {
	kern *kernel     // the kernel active at NewKey
	ek   expandedKey // H and its powers, in kern's layout
}

// NewKey returns H = h (in GCM, H = E(K, 0^128)) expanded for the active
// kernel: H and every power of H the kernel uses. NewKey does not allocate;
// the Key is a value (a few hundred bytes) that the caller keeps.
func NewKey(h [16]byte) (key Key) {
	key.init(active, &h)
	return key
}

// init makes key the expansion of H = *h for kernel k.
func (key *Key) init(k *kernel, h *[16]byte) {
	key.kern = k
	expandWith(k, &key.ek, h, k.powers)
}

// newKey is NewKey with kernel k.
func newKey(k *kernel, h *[16]byte) (key Key) {
	key.init(k, h)
	return key
}

// kernel returns k's kernel, or panics if k is nil or zero.
func (k *Key) kernel() *kernel {
	if k == nil {
		panic(errNilKey)
	}
	if k.kern == nil {
		panic(errZeroKey)
	}
	return k.kern
}

// SumGCM returns GCM's GHASH for this key, additional data A and
// ciphertext C (SP 800-38D Algorithm 4, step 5):
//
//	GHASH_H(A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64)
//
// where A and C are zero-padded to whole blocks and the lengths are in bits,
// big-endian. With A empty and C an IV that is not 96 bits long it is GCM's
// pre-counter block J_0. SumGCM does not allocate and does not change k.
func (k *Key) SumGCM(additionalData, ciphertext []byte) (y [Size]byte) {
	kern := k.kernel()
	a, c := additionalData, ciphertext
	la, lc := padded(len(a)), padded(len(c))
	if la < len(a) || lc < len(c) { // padded overflowed: lengths near MaxInt
		return sumGCM(kern, &k.ek, math.MaxInt, a, c)
	}
	short := la+lc <= shortLimit(kern)
	// A kernel with an assembly function for a message's last group
	// (amd64) is called from here, without a function of ours in between
	// (gcmShort): a short message is that one group, with its length
	// block and one reduction.
	if f := kern.gcm; f != 0 {
		if short {
			gcmShort(&y, &k.ek.asm, a, c, uint64(len(a))*8, uint64(len(c))*8, false, f)
			return y
		}
		return sumGCMLong(kern, &k.ek, a, c)
	}
	if !short {
		return sumGCM(kern, &k.ek, math.MaxInt, a, c)
	}
	// The others take a short message in one kernel call, with its
	// length block: one reduction on the kernels that aggregate blocks.
	// (updateWith's switch is the one over their ids.)
	sumShort(kern, &y, &k.ek, a, c)
	return y
}

// sumGCMLong is Key.SumGCM of a message longer than kernel k's short path,
// for a kernel with an assembly function for the last group (k.gcm):
// updates absorb the whole blocks before that group, and gcmShort the
// group, with the partial blocks and the length block, which are then
// never stored in pieces and loaded whole (docs/ghash.md), and one
// reduction fewer. When C alone fills the group, A's partial block goes
// first through an update of a copy.
func sumGCMLong(k *kernel, ek *expandedKey, a, c []byte) (y [Size]byte) {
	limit := shortLimit(k)
	bitsA, bitsC := uint64(len(a))*8, uint64(len(c))*8
	wa := len(a) &^ (BlockSize - 1)
	tailA := padded(len(a)) - wa
	updateWith(k, &y, ek, a[:wa])
	if padded(len(c))+tailA <= limit {
		gcmShort(&y, &ek.asm, a[wa:], c, bitsA, bitsC, true, k.gcm)
		return y
	}
	if tailA > 0 {
		var t [BlockSize]byte
		copy(t[:], a[wa:])
		updateWith(k, &y, ek, t[:])
	}
	cut := padded(len(c)) - limit // c[cut:] is the last group, less the length block
	updateWith(k, &y, ek, c[:cut])
	gcmShort(&y, &ek.asm, nil, c[cut:], bitsA, bitsC, true, k.gcm)
	return y
}

// sumShort sets *y to Key.SumGCM of a short message (padded A and C of at
// most shortBytes) for the kernels without an assembly function for it
// (their gcm form is 0): A and C, zero-padded, and the length block are
// gathered into one buffer for one update.
func sumShort(k *kernel, y *[Size]byte, ek *expandedKey, a, c []byte) {
	la, lc := padded(len(a)), padded(len(c))
	var buf [shortBytes + BlockSize]byte
	n := la + lc
	binary.BigEndian.PutUint64(buf[n:], uint64(len(a))*8)
	binary.BigEndian.PutUint64(buf[n+8:], uint64(len(c))*8)
	gather(buf[:la], a)
	gather(buf[la:n], c)
	*y = [Size]byte{}
	updateWith(k, y, ek, buf[:n+BlockSize])
}

// shortBytes is the most bytes of padded A and C that Key.SumGCM gathers,
// with the length block, into a buffer for one kernel call (sumShort), for
// the kernels without an assembly short path (generic, and the ARM
// kernels): 128 bytes in all, eight blocks, the most the pmull kernels
// absorb with one reduction.
const shortBytes = 7 * BlockSize

// shortLimit returns the most bytes of padded A and C that Key.SumGCM
// hashes, with the length block, in one call of kernel k: for a kernel
// with an assembly short path (gcmShort), as many blocks as its key has
// powers, less the length block's (112 bytes for pclmul, 240 for the wide
// kernels, whose keys hold H^16); for the others shortBytes, the buffer
// they gather into.
func shortLimit(k *kernel) int {
	if k.gcm != 0 {
		return (k.powers - 1) * BlockSize
	}
	return shortBytes
}

// padded returns n rounded up to whole blocks.
func padded(n int) int { return (n + BlockSize - 1) &^ (BlockSize - 1) }

// gather copies p to the start of dst. A single block is one 16-byte
// move: copy would store it in two halves on amd64, and the kernel's
// 16-byte load of it would wait for both to drain.
func gather(dst, p []byte) {
	if len(p) == BlockSize {
		*(*[BlockSize]byte)(dst) = [BlockSize]byte(p)
		return
	}
	copy(dst, p)
}

// SumGCM returns GCM's GHASH for hash key H = h, additional data A and
// ciphertext C, as Key.SumGCM does. It expands h on its own stack, and
// computes the powers of H only for a message longer than they are (in
// blocks): a shorter one is multiplied by H alone, a block per kernel
// call. On arm64 and arm, counted in instructions under qemu
// (docs/ghash.md), one short message through it costs a third to a half
// of NewKey and Key.SumGCM with the pmull kernel, about as much with neon;
// on amd64 no measurement compares them. For several messages under one
// H, make a Key.
func SumGCM(h [16]byte, additionalData, ciphertext []byte) [Size]byte {
	return sumGCMOnce(active, &h, additionalData, ciphertext)
}

// sumGCMOnce is SumGCM with kernel k.
func sumGCMOnce(k *kernel, h *[16]byte, a, c []byte) [Size]byte {
	key := Key{kern: k}
	if len(a)/BlockSize+len(c)/BlockSize+3 <= k.powers { // the padded blocks and the length block
		expandWith(k, &key.ek, h, 1)
		return sumGCM(k, &key.ek, 1, a, c)
	}
	p := powersFor(k, max(len(a), len(c))/BlockSize)
	expandWith(k, &key.ek, h, p)
	if p == k.powers { // a full key
		return key.SumGCM(a, c)
	}
	return sumGCM(k, &key.ek, p, a, c)
}

// lengthBlock returns GCM's final block: the bit lengths of a and c.
func lengthBlock(a, c []byte) [BlockSize]byte {
	var b [BlockSize]byte
	binary.BigEndian.PutUint64(b[0:8], uint64(len(a))*8)
	binary.BigEndian.PutUint64(b[8:16], uint64(len(c))*8)
	return b
}

// sumGCM is GCM's GHASH with kernel k and its expanded key ek, which must
// hold the powers for updates of chunk blocks (powersFor): no update here
// is given more. Its temporaries stay on its stack: expandWith and
// updateWith make direct calls.
func sumGCM(k *kernel, ek *expandedKey, chunk int, a, c []byte) [Size]byte {
	var y, tail [BlockSize]byte
	for _, p := range [2][]byte{a, c} {
		whole := p[:len(p)&^(BlockSize-1)]
		for len(whole) > 0 {
			n := min(len(whole)/BlockSize, chunk) * BlockSize
			updateWith(k, &y, ek, whole[:n])
			whole = whole[n:]
		}
		if rest := p[len(p)&^(BlockSize-1):]; len(rest) > 0 {
			tail = [BlockSize]byte{}
			copy(tail[:], rest)
			updateWith(k, &y, ek, tail[:])
		}
	}
	lb := lengthBlock(a, c)
	updateWith(k, &y, ek, lb[:])
	return y
}

// Hash computes the plain GHASH of the data written to it, zero-padded to
// a whole number of blocks, with no length block. It implements hash.Hash.
// Make one with Key.NewHash; the zero Hash panics on first use. Several
// goroutines may call Sum on one Hash at once (Sum only reads it), but
// Write and Reset must not run alongside any other method.
type Hash struct {
	key *Key
	y   [Size]byte      // GHASH of the whole blocks absorbed so far
	buf [BlockSize]byte // buf[:n] is the start of a partial block
	n   int             // bytes in buf
}

var _ hash.Hash = (*Hash)(nil)

// NewHash returns a Hash with hash key k, for data written in pieces. The
// Hash refers to k, which must not be overwritten (with another NewKey's
// result, say) while the Hash is in use.
func (k *Key) NewHash() *Hash {
	k.kernel()
	return &Hash{key: k}
}

// kernel returns the Hash's Key's kernel, or panics if h was not made by
// Key.NewHash.
func (h *Hash) kernel() *kernel {
	if h.key == nil {
		panic(errZeroHash)
	}
	return h.key.kernel()
}

// Write absorbs p. Whole blocks go straight to the kernel; a trailing
// partial block is kept until more data arrives or Sum pads it. It always
// returns len(p), nil.
func (h *Hash) Write(p []byte) (int, error) {
	k := h.kernel()
	n := len(p)
	if h.n > 0 {
		c := copy(h.buf[h.n:], p)
		h.n += c
		p = p[c:]
		if h.n < BlockSize {
			return n, nil
		}
		updateWith(k, &h.y, &h.key.ek, h.buf[:])
		h.n = 0
	}
	if whole := len(p) &^ (BlockSize - 1); whole > 0 {
		updateWith(k, &h.y, &h.key.ek, p[:whole])
		p = p[whole:]
	}
	h.n = copy(h.buf[:], p)
	return n, nil
}

// Sum appends to b the GHASH of the data written so far, zero-padded to a
// whole number of blocks, and returns the result. It does not change h:
// more data may be written afterwards, and concurrent Sums are safe.
func (h *Hash) Sum(b []byte) []byte {
	s := h.value()
	return append(b, s[:]...)
}

// value returns what Sum appends. It is out of line so that the
// constant-time check (ct_test.go) can take it as a root without the
// append, whose cost depends on b's capacity alone.
//
//go:noinline
func (h *Hash) value() [Size]byte {
	k := h.kernel()
	y := h.y
	if h.n > 0 {
		var tail [BlockSize]byte
		copy(tail[:], h.buf[:h.n])
		updateWith(k, &y, &h.key.ek, tail[:])
	}
	return y
}

// Reset forgets the data written so far and keeps the key.
func (h *Hash) Reset() {
	h.kernel()
	h.y = [Size]byte{}
	h.buf = [BlockSize]byte{}
	h.n = 0
}

// Size returns Size, the length of a GHASH value.
func (h *Hash) Size() int { return Size }

// BlockSize returns BlockSize.
func (h *Hash) BlockSize() int { return BlockSize }
