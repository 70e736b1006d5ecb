package ref

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/internal/testvectors"
)

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// TestSHA1KnownAnswers checks the worked examples published with the
// standard.
func TestSHA1KnownAnswers(t *testing.T) {
	tests := []struct {
		name   string
		msg    []byte
		digest string
	}{
		// FIPS 180-2 Appendix A.1 and NIST CSRC example "SHA1.pdf": one block.
		{"abc", []byte("abc"), "a9993e36 4706816a ba3e2571 7850c26c 9cd0d89d"},
		// NIST CAVP SHA1ShortMsg.rsp, Len = 0.
		{"empty", nil, "da39a3ee 5e6b4b0d 3255bfef 95601890 afd80709"},
		// FIPS 180-2 Appendix A.2 and NIST "SHA1.pdf": the 448-bit message,
		// which pads to two blocks.
		{"448-bit", []byte("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
			"84983e44 1c3bd26e baae4aa1 f95129e5 e54670f1"},
		// FIPS 180-2 Appendix A.3: one million 'a'.
		{"million-a", bytes.Repeat([]byte("a"), 1000000),
			"34aa973c d4c4daa4 f61eeb2b dbad2731 6534016f"},
		// RFC 3174 section 7.3, TEST4: "01234567" x 8, repeated 10 times.
		{"rfc3174-test4", bytes.Repeat([]byte("0123456701234567012345670123456701234567012345670123456701234567"), 10),
			"dea356a2 cddd90c7 a7ecedc5 ebb56393 4f460452"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := mustHex(t, tc.digest)
			got := SHA1(tc.msg)
			if !bytes.Equal(got[:], want) {
				t.Errorf("SHA1(%s) = %x, want %x", tc.name, got, want)
			}
		})
	}
}

// TestSHA1BlockIntermediate checks the intermediate hash values H(1) and H(2)
// of the two-block example in NIST's "SHA1.pdf" (the 448-bit message),
// driving SHA1Block directly on the padded blocks.
func TestSHA1BlockIntermediate(t *testing.T) {
	padded := SHA1Pad([]byte("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))
	if len(padded) != 128 {
		t.Fatalf("padded length %d, want 128", len(padded))
	}
	h := SHA1Init()
	SHA1Block(&h, (*[64]byte)(padded[:64]))
	if want := [5]uint32{0xf4286818, 0xc37b27ae, 0x0408f581, 0x84677148, 0x4a566572}; h != want {
		t.Errorf("H(1) = %08x, want %08x", h, want)
	}
	SHA1Block(&h, (*[64]byte)(padded[64:]))
	if want := [5]uint32{0x84983e44, 0x1c3bd26e, 0xbaae4aa1, 0xf95129e5, 0xe54670f1}; h != want {
		t.Errorf("H(2) = %08x, want %08x", h, want)
	}
}

// TestSHA1Steps checks SHA1Steps on the one-block example of FIPS 180-2,
// appendix A.1 ("abc"): W[0] and W[15] of the padded block, and the
// working variables after rounds 0 to 3 and 79 as the appendix lists them;
// that every W[t] follows the schedule's recurrence; and that SHA1Block is
// H(0) plus the state after round 79.
func TestSHA1Steps(t *testing.T) {
	block := (*[64]byte)(SHA1Pad([]byte("abc")))
	w, states := SHA1Steps(SHA1Init(), block)
	if w[0] != 0x61626380 || w[15] != 0x00000018 {
		t.Errorf("W[0], W[15] = %08x, %08x, want 61626380, 00000018", w[0], w[15])
	}
	for round, want := range map[int][5]uint32{
		0:  {0x0116fc33, 0x67452301, 0x7bf36ae2, 0x98badcfe, 0x10325476},
		1:  {0x8990536d, 0x0116fc33, 0x59d148c0, 0x7bf36ae2, 0x98badcfe},
		2:  {0xa1390f08, 0x8990536d, 0xc045bf0c, 0x59d148c0, 0x7bf36ae2},
		3:  {0xcdd8e11b, 0xa1390f08, 0x626414db, 0xc045bf0c, 0x59d148c0},
		79: {0x42541b35, 0x5738d5e1, 0x21834873, 0x681e6df6, 0xd8fdf6ad},
	} {
		if got := states[round+1]; got != want {
			t.Errorf("after round %d: %08x, want %08x", round, got, want)
		}
	}
	for i := 16; i < 80; i++ {
		x := w[i-3] ^ w[i-8] ^ w[i-14] ^ w[i-16]
		if w[i] != x<<1|x>>31 {
			t.Errorf("W[%d] = %08x, not rol1 of W[%d] ^ W[%d] ^ W[%d] ^ W[%d]", i, w[i], i-3, i-8, i-14, i-16)
		}
	}
	if states[0] != SHA1Init() {
		t.Errorf("states[0] = %08x, want H(0)", states[0])
	}
	h := SHA1Init()
	SHA1Block(&h, block)
	for i := range h {
		if h[i] != SHA1Init()[i]+states[80][i] {
			t.Errorf("SHA1Block's word %d = %08x, want H(0) + state %08x", i, h[i], SHA1Init()[i]+states[80][i])
		}
	}
}

// TestSHA1Blocks checks that SHA1Blocks absorbs the whole blocks in order
// and ignores the rest: the two padded blocks of the message above, plus
// 63 bytes, give H(2).
func TestSHA1Blocks(t *testing.T) {
	padded := SHA1Pad([]byte("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))
	h := SHA1Init()
	SHA1Blocks(&h, append(padded, make([]byte, 63)...))
	if want := [5]uint32{0x84983e44, 0x1c3bd26e, 0xbaae4aa1, 0xf95129e5, 0xe54670f1}; h != want {
		t.Errorf("H(2) = %08x, want %08x", h, want)
	}
	before := h
	SHA1Blocks(&h, padded[:63])
	if h != before {
		t.Errorf("63 bytes changed the state from %08x to %08x", before, h)
	}
}

// TestSHA1Pad checks the padding rule of FIPS 180-4 section 5.1.1 on every
// length around the block boundaries.
func TestSHA1Pad(t *testing.T) {
	for n := 0; n <= 200; n++ {
		msg := bytes.Repeat([]byte{0xa5}, n)
		p := SHA1Pad(msg)
		if len(p)%64 != 0 {
			t.Fatalf("len %d: padded length %d is not a multiple of 64", n, len(p))
		}
		// Smallest k: the padded message is at most one block longer than needed.
		if min := n + 1 + 8; len(p) < min || len(p) >= min+64 {
			t.Fatalf("len %d: padded length %d not in [%d, %d)", n, len(p), min, min+64)
		}
		if !bytes.Equal(p[:n], msg) {
			t.Fatalf("len %d: message not preserved", n)
		}
		if p[n] != 0x80 {
			t.Fatalf("len %d: byte after message is %#x, want 0x80", n, p[n])
		}
		for i := n + 1; i < len(p)-8; i++ {
			if p[i] != 0 {
				t.Fatalf("len %d: padding byte %d is %#x, want 0", n, i, p[i])
			}
		}
		if got := beUint64(p[len(p)-8:]); got != uint64(8*n) {
			t.Fatalf("len %d: length field %d, want %d", n, got, 8*n)
		}
	}
}

func beUint64(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}

// TestSHA1NIST checks every ShortMsg and LongMsg record of the NIST CAVP
// SHAVS files in testdata/sha1 (provenance in testdata/README.md).
func TestSHA1NIST(t *testing.T) {
	for _, file := range []string{"SHA1ShortMsg.rsp", "SHA1LongMsg.rsp"} {
		t.Run(file, func(t *testing.T) {
			recs, err := testvectors.SHAVSMessages(file)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) < 64 {
				t.Fatalf("only %d records", len(recs))
			}
			for _, r := range recs {
				if got := SHA1(r.Msg); got != r.MD {
					t.Errorf("%s:%d (%d bytes): got %x, want %x", file, r.Line, len(r.Msg), got, r.MD)
				}
			}
		})
	}
}

// TestSHA1AgainstStdlib compares the reference with crypto/sha1, an
// independent implementation, on random messages of every length up to a few
// blocks.
func TestSHA1AgainstStdlib(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 300; n++ {
		msg := make([]byte, n)
		for i := range msg {
			msg[i] = byte(rng.Uint32())
		}
		if got, want := SHA1(msg), sha1.Sum(msg); got != want {
			t.Fatalf("len %d: ref %x, crypto/sha1 %x", n, got, want)
		}
	}
}

// TestSHA1DoesNotModifyInput checks that hashing leaves the message alone.
func TestSHA1DoesNotModifyInput(t *testing.T) {
	msg := []byte("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
	backup := bytes.Clone(msg)
	_ = SHA1(msg[:10])
	_ = SHA1Pad(msg[:10])
	if !bytes.Equal(msg, backup) {
		t.Fatalf("message modified: %q", msg)
	}
}
