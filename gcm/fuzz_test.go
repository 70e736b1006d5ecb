package gcm

import (
	"bytes"
	"crypto/cipher"
	"testing"
)

// FuzzAgainstStdlib compares this package's GCM with crypto/cipher's,
// both over AES in a plainBlock (crypto/cipher's generic GCM), for any
// key, nonce, plaintext, additional data and tag size: the sealed bytes
// (crypto/cipher's tag truncated where it cannot combine the sizes), the
// opened plaintext, and the refusal of a flipped bit. An empty nonce must
// be refused by both constructors.
func FuzzAgainstStdlib(f *testing.F) {
	f.Add(make([]byte, 16), make([]byte, 12), []byte{}, []byte{}, uint8(4))
	f.Add(bytes.Repeat([]byte{1}, 32), []byte{1}, []byte("plaintext"), []byte("ad"), uint8(0))
	f.Add(bytes.Repeat([]byte{2}, 24), make([]byte, 60), bytes.Repeat([]byte{3}, 300), []byte{}, uint8(2))
	f.Add(bytes.Repeat([]byte{4}, 16), []byte{}, []byte("x"), []byte("y"), uint8(1))
	f.Fuzz(func(t *testing.T, key, nonce, pt, ad []byte, tag uint8) {
		k := make([]byte, []int{16, 24, 32}[len(key)%3])
		copy(k, key)
		ts := minTagSize + int(tag)%5
		b := plainBlock{Block: newAES(t, k)}
		g, err := NewWithSizes(b, len(nonce), ts)
		if len(nonce) == 0 {
			if _, stdErr := cipher.NewGCMWithNonceSize(b, 0); err == nil || stdErr == nil {
				t.Fatalf("an empty nonce: NewWithSizes: %v, crypto/cipher: %v; want errors", err, stdErr)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		want := stdSeal(t, b, nonce, pt, ad, ts)
		checkSealOpen(t, g, nonce, pt, ad, want, "fuzz")
		want[len(want)-1-int(tag)%ts] ^= 0x80
		if got, err := g.Open(nil, nonce, want, ad); err == nil {
			t.Fatalf("Open accepted a flipped tag bit: %x", got)
		}
	})
}
