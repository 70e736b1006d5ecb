package sha1dccheck

import (
	"bytes"
	stdsha1 "crypto/sha1"
	"encoding"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pjbgf/sha1cd"
	sha1cdc "github.com/pjbgf/sha1cd/cgo"
	"github.com/simdhash/simdhash/internal/testvectors"
	"github.com/simdhash/simdhash/sha1dc"
)

var update = flag.Bool("update", false, "rewrite testdata/sha1dc/sha1cd-digests.txt from sha1cd")

// collisionFiles are the files of testdata/sha1dc (copies of sha1cd's
// test/testdata/files; testdata/README.md), each half of a collision.
var collisionFiles = []string{"shattered-1.pdf", "shattered-2.pdf", "sha-mbles-1.bin", "sha-mbles-2.bin"}

// recordedCases lists the messages of sha1cd-digests.txt for a file of n
// bytes: prefixes at and around every block boundary up to the collision
// blocks and past them, the whole file, and the whole file and two prefixes
// with data appended.
func recordedCases(name string, n int) []testvectors.SHA1DCRecord {
	var prefixes []int
	for b := 0; b <= 704; b += 64 {
		prefixes = append(prefixes, max(b-1, 0), b, b+1)
	}
	prefixes = append(prefixes, 1000, 4096, 65536, n-1, n)
	var out []testvectors.SHA1DCRecord
	for _, p := range slices.Compact(prefixes) {
		if p <= n {
			out = append(out, testvectors.SHA1DCRecord{File: name, Prefix: p})
		}
	}
	for _, a := range []int{1, 55, 56, 63, 64, 65, 1000} {
		out = append(out, testvectors.SHA1DCRecord{File: name, Prefix: n, Append: a})
	}
	for _, p := range []int{320, 640} {
		if p < n {
			out = append(out, testvectors.SHA1DCRecord{File: name, Prefix: p, Append: 1000})
		}
	}
	return out
}

// TestRecordedDigests checks that sha1cd-digests.txt holds exactly what
// sha1cd gives for recordedCases, and rewrites it with -update.
func TestRecordedDigests(t *testing.T) {
	var want []testvectors.SHA1DCRecord
	for _, name := range collisionFiles {
		b, err := os.ReadFile(testvectors.Path("sha1dc", name))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recordedCases(name, len(b)) {
			msg, err := testvectors.SHA1DCMessage(r)
			if err != nil {
				t.Fatal(err)
			}
			r.Sum, r.Collision = sha1cd.Sum(msg)
			want = append(want, r)
		}
	}
	if *update {
		var sb strings.Builder
		sb.WriteString("# The digest and collision flag of github.com/pjbgf/sha1cd v0.7.0's Sum for the\n")
		sb.WriteString("# first <prefix> bytes of a collision file of this directory followed by\n")
		sb.WriteString("# <append> bytes of the pattern byte(i*131+7) (testvectors.AppendPattern).\n")
		sb.WriteString("# Written, and checked against sha1cd, by gen/internal/sha1dccheck:\n")
		sb.WriteString("#   go -C gen test ./internal/sha1dccheck -run '^TestRecordedDigests$' -update\n")
		sb.WriteString("# file prefix append digest collision\n")
		for _, r := range want {
			c := 0
			if r.Collision {
				c = 1
			}
			fmt.Fprintf(&sb, "%s %d %d %x %d\n", r.File, r.Prefix, r.Append, r.Sum, c)
		}
		if err := os.WriteFile(testvectors.Path("sha1dc", "sha1cd-digests.txt"), []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := testvectors.SHA1DCDigests()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("sha1cd-digests.txt has %d records, want %d: run with -update", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		g.Line = 0
		if g != w {
			t.Errorf("line %d: %+v, sha1cd gives %+v", got[i].Line, got[i], w)
		}
	}
}

// check compares sha1dc with sha1cd (and the C code) on msg: one-shot,
// streamed in random chunks, and by the hash's CollisionResistantSum.
func check(t *testing.T, rng *rand.Rand, what string, msg []byte, withC bool) {
	t.Helper()
	want, wantCol := sha1cd.Sum(msg)
	got, col := sha1dc.Sum(msg)
	if got != want || col != wantCol {
		t.Fatalf("%s (%d bytes): sha1dc.Sum = %x %v, sha1cd.Sum = %x %v", what, len(msg), got, col, want, wantCol)
	}
	if withC {
		c, cCol := sha1cdc.Sum(msg)
		if !bytes.Equal(c, want[:]) || cCol != wantCol {
			t.Fatalf("%s (%d bytes): C sha1dc = %x %v, sha1cd.Sum = %x %v", what, len(msg), c, cCol, want, wantCol)
		}
	}
	h := sha1dc.New().(sha1dc.CollisionResistantHash)
	for p := msg; len(p) > 0; {
		n := min(len(p), rng.IntN(3*sha1dc.BlockSize))
		h.Write(p[:n])
		p = p[n:]
	}
	if s, c := h.CollisionResistantSum(nil); !bytes.Equal(s, want[:]) || c != wantCol {
		t.Fatalf("%s (%d bytes): streamed = %x %v, sha1cd.Sum = %x %v", what, len(msg), s, c, want, wantCol)
	}
}

// TestCollisions runs the collision files whole, as prefixes (every block
// boundary of the first 4 KiB, where the collision blocks are, then about
// 50 more, block-aligned or not), and with data appended.
func TestCollisions(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 1))
	for _, name := range collisionFiles {
		b, err := os.ReadFile(testvectors.Path("sha1dc", name))
		if err != nil {
			t.Fatal(err)
		}
		for p := 0; p <= min(len(b), 4096); p += 64 {
			check(t, rng, fmt.Sprintf("%s[:%d]", name, p), b[:p], true)
		}
		if !testing.Short() {
			for p := 4096; p < len(b); p += len(b)/50 + rng.IntN(64) {
				check(t, rng, fmt.Sprintf("%s[:%d]", name, p), b[:p], false)
			}
		}
		check(t, rng, name, b, true)
		for _, a := range []int{1, 63, 64, 100, 5000} {
			msg := append(slices.Clip(b), testvectors.AppendPattern(a)...)
			check(t, rng, fmt.Sprintf("%s+%d", name, a), msg, true)
		}
	}
}

// TestNIST compares sha1dc with sha1cd and crypto/sha1 on the SHAVS
// messages: no false positive, the same digest.
func TestNIST(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 2))
	for _, f := range []string{"SHA1ShortMsg.rsp", "SHA1LongMsg.rsp"} {
		recs, err := testvectors.SHAVSMessages(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			check(t, rng, fmt.Sprintf("%s:%d", f, r.Line), r.Msg, true)
			if got, _ := sha1dc.Sum(r.Msg); got != r.MD {
				t.Fatalf("%s:%d: %x, want %x", f, r.Line, got, r.MD)
			}
		}
	}
}

// TestRandom compares sha1dc with sha1cd and crypto/sha1 on random
// messages of random lengths.
func TestRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 3))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := range n {
		msg := randomBytes(rng, rng.IntN(4*1024))
		check(t, rng, fmt.Sprint("random ", i), msg, i%10 == 0)
		if got, col := sha1dc.Sum(msg); col || got != stdsha1.Sum(msg) {
			t.Fatalf("random %d: %x %v, crypto/sha1 %x", i, got, col, stdsha1.Sum(msg))
		}
	}
}

// TestMarshalCompat moves states between sha1dc and sha1cd: one that has
// seen no collision is byte for byte sha1cd's and continues equal either
// way; one that has seen a collision sha1cd refuses, rather than restore it
// without its flag.
func TestMarshalCompat(t *testing.T) {
	shambles, err := os.ReadFile(testvectors.Path("sha1dc", "sha-mbles-1.bin"))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(22, 4))
	plain := randomBytes(rng, 1000)
	for _, msg := range [][]byte{plain, shambles} {
		for cut := 0; cut <= len(msg); cut += 1 + rng.IntN(100) {
			ours := sha1dc.New().(sha1dc.CollisionResistantHash)
			theirs := sha1cd.New().(sha1cd.CollisionResistantHash)
			ours.Write(msg[:cut])
			theirs.Write(msg[:cut])
			ob, _ := ours.(encoding.BinaryMarshaler).MarshalBinary()
			tb, _ := theirs.(encoding.BinaryMarshaler).MarshalBinary()
			_, seen := ours.CollisionResistantSum(nil)
			_, theirSeen := theirs.CollisionResistantSum(nil)
			if seen != theirSeen {
				t.Fatalf("cut %d: collision flags %v and %v", cut, seen, theirSeen)
			}
			// The flag of a state counts the blocks absorbed; the sum's
			// includes the padding, which never collides here.
			back := sha1cd.New()
			err := back.(encoding.BinaryUnmarshaler).UnmarshalBinary(ob)
			if !seen {
				if !bytes.Equal(ob, tb) {
					t.Fatalf("cut %d: sha1dc's state %x, sha1cd's %x", cut, ob, tb)
				}
				if err != nil {
					t.Fatalf("cut %d: sha1cd refuses sha1dc's state: %v", cut, err)
				}
			} else if err == nil {
				t.Fatalf("cut %d: sha1cd restored a state that has seen a collision, and lost the flag", cut)
			}
			fromTheirs := sha1dc.New().(sha1dc.CollisionResistantHash)
			if err := fromTheirs.(encoding.BinaryUnmarshaler).UnmarshalBinary(tb); err != nil {
				t.Fatalf("cut %d: sha1dc refuses sha1cd's state: %v", cut, err)
			}
			fromTheirs.Write(msg[cut:])
			theirs.Write(msg[cut:])
			ts, tc := theirs.CollisionResistantSum(nil)
			fs, fc := fromTheirs.CollisionResistantSum(nil)
			// sha1cd's state does not carry the flag, so after a restore
			// mid-collision both sides report only what follows the cut.
			if !bytes.Equal(fs, ts) {
				t.Fatalf("cut %d: restored from sha1cd: %x %v, sha1cd %x %v", cut, fs, fc, ts, tc)
			}
		}
	}
}

// randomBytes returns n random bytes of rng, each the low byte of a Uint32.
func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// FuzzSum compares sha1dc with sha1cd on any message.
func FuzzSum(f *testing.F) {
	f.Add([]byte(nil))
	f.Add([]byte("abc"))
	f.Add(bytes.Repeat([]byte{0x5a}, 200))
	f.Fuzz(func(t *testing.T, msg []byte) {
		want, wantCol := sha1cd.Sum(msg)
		got, col := sha1dc.Sum(msg)
		if got != want || col != wantCol {
			t.Fatalf("sha1dc.Sum = %x %v, sha1cd.Sum = %x %v", got, col, want, wantCol)
		}
	})
}
