package ghash_test

import (
	"encoding/hex"
	"fmt"

	"github.com/simdhash/simdhash/ghash"
)

// GCM's GHASH over additional data and ciphertext, with their lengths. The
// values are test case 2 of McGrew and Viega, "The Galois/Counter Mode of
// Operation (GCM)", Appendix B: AES-128 with the zero key, so
// H = E(0^128, 0^128), and one block of ciphertext.
func ExampleKey_SumGCM() {
	var h [16]byte
	hex.Decode(h[:], []byte("66e94bd4ef8a2c3b884cfa59ca342b2e"))
	c, _ := hex.DecodeString("0388dace60b6a392f328c2b971b2fe78")

	key := ghash.NewKey(h) // once per cipher key
	s := key.SumGCM(nil, c)
	fmt.Printf("%x\n", s)
	// Output: f38cbb1ad69223dcc3457ae5b6b0f885
}

// The plain GHASH of raw blocks, written in pieces: no length block is
// added, and whole blocks need no padding. The values are the GHASH
// example of RFC 8452 (AES-GCM-SIV), Appendix A.
func ExampleKey_NewHash() {
	var h [16]byte
	hex.Decode(h[:], []byte("25629347589242761d31f826ba4b757b"))
	x, _ := hex.DecodeString("4f4f95668c83dfb6401762bb2d01a262" + "d1a24ddd2721d006bbe45f20d3c9f362")

	key := ghash.NewKey(h)
	g := key.NewHash()
	g.Write(x[:5])
	g.Write(x[5:])
	fmt.Printf("%x\n", g.Sum(nil))
	// Output: bd9b3997046731fb96251b91f9c99d7a
}
