package ghash

import (
	"crypto/cipher"
	"strconv"
	"testing"
)

// identityBlock is a "block cipher" whose encryption is the identity. GCM
// over it does no cipher work worth measuring, and since it is not AES,
// crypto/cipher runs its portable GCM, whose GHASH is the variable-time
// 4-bit-table code: sealing an empty plaintext with all the data as
// additional data measures that GHASH.
type identityBlock struct{}

func (identityBlock) BlockSize() int          { return 16 }
func (identityBlock) Encrypt(dst, src []byte) { copy(dst, src) }
func (identityBlock) Decrypt(dst, src []byte) { copy(dst, src) }

var benchSizes = []int{16, 64, 1024, 8192}

var benchSink [16]byte

// BenchmarkGHASH measures Sum(key, data, nil) with every kernel, and
// crypto/cipher's portable GCM on the same data as "stdlib-generic".
func BenchmarkGHASH(b *testing.B) {
	key := [16]byte{0x66, 0xe9, 0x4b, 0xd4, 0xef, 0x8a, 0x2c, 0x3b, 0x88, 0x4c, 0xfa, 0x59, 0xca, 0x34, 0x2b, 0x2e}
	data := make([]byte, benchSizes[len(benchSizes)-1])
	for i := range data {
		data[i] = byte(i)
	}
	for i := range kernels {
		k := &kernels[i]
		b.Run(k.name, func(b *testing.B) {
			if !k.available {
				b.Skipf("kernel %q is not available on this CPU", k.name)
			}
			saved := active
			active = k
			b.Cleanup(func() { active = saved })
			for _, n := range benchSizes {
				b.Run(strconv.Itoa(n), func(b *testing.B) {
					b.SetBytes(int64(n))
					for b.Loop() {
						benchSink = Sum(&key, data[:n], nil)
					}
				})
			}
		})
	}
	b.Run("stdlib-generic", func(b *testing.B) {
		aead, err := cipher.NewGCM(identityBlock{})
		if err != nil {
			b.Fatal(err)
		}
		nonce := make([]byte, aead.NonceSize())
		out := make([]byte, 0, aead.Overhead())
		for _, n := range benchSizes {
			b.Run(strconv.Itoa(n), func(b *testing.B) {
				b.SetBytes(int64(n))
				for b.Loop() {
					out = aead.Seal(out[:0], nonce, nil, data[:n])
				}
			})
		}
		copy(benchSink[:], out)
	})
}
