package gcm

import (
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"sync"
	"unsafe"
)

// batchBlocks is the most counter blocks made and encrypted at a time.
const batchBlocks = 32

// streamMin is the shortest message that takes its key stream from the
// block's NewCTR, when it has one and the nonce is 12 bytes: below it, the
// stream's set-up (and its allocations, in gmsm's SM4) costs more than
// encrypting the few blocks one by one (docs/gcm.md has the measurement).
const streamMin = 128

// scratch is where the key stream is made, a batch at a time: the
// block's Encrypt takes slices of it, which escape through the interface
// call, so it cannot be on the stack without an allocation per message.
// It comes from scratchPool.
type scratch struct {
	ks  [batchBlocks * blockSize]byte // the batch's key stream
	ctr [batchBlocks * blockSize]byte // its counter blocks
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// keystream is GCM's key stream for one message, from J0 on: E(K, J0)
// (the tag mask), then E(K, inc32(J0)), E(K, inc32^2(J0)), ... for the
// message's blocks.
type keystream struct {
	g        *aead
	buf      *scratch
	used     int             // bytes of buf.ks and buf.ctr written, for finish to clear
	prefixed int             // counter blocks of buf.ctr that start with this message's 12-byte prefix
	cb       [blockSize]byte // the next counter block
	left     []byte          // key stream of the current batch not yet used: a suffix of buf.ks
	stream   cipher.Stream   // the block's own counter mode from J0 on, or nil
	mask     [blockSize]byte // E(K, J0)
}

// start sets k up for a message of n bytes under nonce: it derives J0
// (SP 800-38D Algorithm 4, step 2) and encrypts the first batch, which
// holds E(K, J0) and, unless the message takes the block's own stream, as
// many of the message's blocks as fit. The stream then starts at
// inc32(J0): a stream from J0 would give E(K, J0) too, but its first
// call, of one block, leaves the stream's own buffer (gmsm's: 512 bytes)
// out of step with the message, which cost more than the block saved
// (docs/gcm.md).
func (k *keystream) start(g *aead, nonce []byte, n int) {
	k.g = g
	k.buf = scratchPool.Get().(*scratch)
	if len(nonce) == stdNonceSize {
		copy(k.cb[:], nonce)
		k.cb[12], k.cb[13], k.cb[14], k.cb[15] = 0, 0, 0, 1
	} else {
		k.cb = g.key.SumGCM(nil, nonce) // GHASH(IV || 0^(s+64) || [len(IV)]_64)
	}
	// The stream only for a 12-byte nonce, whose counter never wraps
	// (and whose J0 is public, so this branch reveals nothing).
	if g.ctr != nil && len(nonce) == stdNonceSize && n >= streamMin {
		k.mask = [blockSize]byte(k.batch(1))
		// The IV goes through the scratch buffer: a slice of k.cb, on
		// the stack, would escape through the interface call.
		iv := k.buf.ctr[:blockSize:blockSize]
		copy(iv, k.cb[:])
		k.stream = g.ctr.NewCTR(iv)
		return
	}
	ks := k.batch(1 + min(blocks(n), batchBlocks-1))
	k.mask = [blockSize]byte(ks)
	k.left = ks[blockSize:]
}

// xor XORs src with the message's key stream into dst (len(dst) >=
// len(src); they overlap exactly or not at all). It is called once per
// message, with the whole message.
func (k *keystream) xor(dst, src []byte) {
	if k.stream != nil {
		k.stream.XORKeyStream(dst[:len(src)], src)
		return
	}
	n := subtle.XORBytes(dst, src, k.left)
	dst, src = dst[n:], src[n:]
	k.left = nil
	for len(src) > 0 {
		n := subtle.XORBytes(dst, src, k.batch(min(blocks(len(src)), batchBlocks)))
		dst, src = dst[n:], src[n:]
	}
}

// batch encrypts the next nb counter blocks, from k.cb on, into the
// scratch buffer, advances k.cb past them, and returns their key stream.
// The counter blocks are inc32's: the 12-byte prefix, which a message's
// first batches write once per slot, then the low 32 bits, big-endian,
// incremented modulo 2^32 without a branch.
func (k *keystream) batch(nb int) []byte {
	ks, ctr := k.buf.ks[:nb*blockSize], k.buf.ctr[:nb*blockSize]
	k.used = max(k.used, len(ks))
	for ; k.prefixed < nb; k.prefixed++ {
		copy(ctr[k.prefixed*blockSize:], k.cb[:12])
	}
	w := binary.BigEndian.Uint32(k.cb[12:])
	for i := 12; i < len(ctr); i += blockSize {
		binary.BigEndian.PutUint32(ctr[i:], w)
		w++
	}
	binary.BigEndian.PutUint32(k.cb[12:], w)
	blk := k.g.block
	for i := 0; i < len(ks); i += blockSize {
		blk.Encrypt(ks[i:i+blockSize:i+blockSize], ctr[i:i+blockSize:i+blockSize])
	}
	return ks
}

// finish clears the key stream from the scratch buffer and returns it to
// the pool.
func (k *keystream) finish() {
	clear(k.buf.ks[:k.used])
	clear(k.buf.ctr[:k.used])
	scratchPool.Put(k.buf)
	*k = keystream{}
}

// blocks returns how many blocks n bytes take, the last one partial.
func blocks(n int) int { return (n + blockSize - 1) / blockSize }

// anyOverlap reports whether x and y share memory.
func anyOverlap(x, y []byte) bool {
	if len(x) == 0 || len(y) == 0 {
		return false
	}
	xs, ys := uintptr(unsafe.Pointer(unsafe.SliceData(x))), uintptr(unsafe.Pointer(unsafe.SliceData(y)))
	return xs < ys+uintptr(len(y)) && ys < xs+uintptr(len(x))
}

// inexactOverlap reports whether x and y share memory without starting at
// the same address: the overlap that in-place use cannot make.
func inexactOverlap(x, y []byte) bool {
	return anyOverlap(x, y) && unsafe.SliceData(x) != unsafe.SliceData(y)
}
