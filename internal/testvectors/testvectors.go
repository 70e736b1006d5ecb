// Package testvectors reads the known-answer files under the module's
// testdata/ directory (their sources and licences are in
// testdata/README.md) for the tests of sha1, sha1dc, ghash and
// internal/ref, so that each format is parsed in one place.
package testvectors

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Path returns the path of a file under the repository's testdata/
// directory: the one beside the library's go.mod (module
// github.com/simdhash/simdhash), found by walking up from the working
// directory, which go test sets to the package's directory. The walk passes
// over the generators' module (gen/go.mod), whose tests use these files too.
// (Not from this source file's path, which -trimpath would hide.)
func Path(elem ...string) string {
	dir, err := os.Getwd()
	for err == nil {
		if b, rerr := os.ReadFile(filepath.Join(dir, "go.mod")); rerr == nil && isLibraryModule(b) {
			return filepath.Join(append([]string{dir, "testdata"}, elem...)...)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	// No module found: the caller's open of this path reports it.
	return filepath.Join(append([]string{"testdata"}, elem...)...)
}

// isLibraryModule reports whether the go.mod file b declares the library's
// module.
func isLibraryModule(b []byte) bool {
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`) == "github.com/simdhash/simdhash"
		}
	}
	return false
}

// digestSize is the size of a SHA-1 digest.
const digestSize = 20

// A SHAVSRecord is one record of a SHAVS ShortMsg or LongMsg response file.
type SHAVSRecord struct {
	Line int    // line of the MD field, for error messages
	Msg  []byte // the message: the first Len/8 bytes of Msg
	MD   [digestSize]byte
}

// SHAVSMonte is the content of a SHAVS Monte Carlo response file.
type SHAVSMonte struct {
	Seed        [digestSize]byte
	Checkpoints [][digestSize]byte // MD of COUNT = 0, 1, ...
}

// rspFields reads testdata/sha1/name, a SHAVS .rsp file, and calls field for
// every "key = value" line outside comments and section headers. It accepts
// LF and CRLF files.
func rspFields(name string, field func(line int, key, value string) error) error {
	f, err := os.Open(Path("sha1", name))
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20) // LongMsg lines are up to 12.8 KB of hex
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == '[' {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			return fmt.Errorf("%s:%d: no '=' in %q", name, n, line)
		}
		if err := field(n, strings.TrimSpace(key), strings.TrimSpace(value)); err != nil {
			return fmt.Errorf("%s:%d: %v", name, n, err)
		}
	}
	return sc.Err()
}

func decodeDigest(s string) ([digestSize]byte, error) {
	var md [digestSize]byte
	b, err := hex.DecodeString(s)
	if err != nil {
		return md, err
	}
	if len(b) != digestSize {
		return md, fmt.Errorf("digest %q has %d bytes, want %d", s, len(b), digestSize)
	}
	copy(md[:], b)
	return md, nil
}

// SHAVSMessages parses testdata/sha1/name, a ShortMsg or LongMsg file.
func SHAVSMessages(name string) ([]SHAVSRecord, error) {
	var (
		recs []SHAVSRecord
		bits = -1
		msg  []byte
	)
	err := rspFields(name, func(line int, key, value string) error {
		var err error
		switch key {
		case "Len":
			bits, err = strconv.Atoi(value)
			if err != nil || bits < 0 || bits%8 != 0 {
				return fmt.Errorf("bad Len %q: want a non-negative multiple of 8", value)
			}
		case "Msg":
			msg, err = hex.DecodeString(value)
		case "MD":
			if bits < 0 || msg == nil {
				return fmt.Errorf("MD without Len and Msg")
			}
			if bits/8 > len(msg) {
				return fmt.Errorf("Len = %d but Msg has only %d bytes", bits, len(msg))
			}
			md, err := decodeDigest(value)
			if err != nil {
				return err
			}
			// Len = 0 comes with the placeholder Msg = 00: use Len/8 bytes.
			recs = append(recs, SHAVSRecord{Line: line, Msg: msg[:bits/8], MD: md})
			bits, msg = -1, nil
		default:
			return fmt.Errorf("unexpected field %q", key)
		}
		return err
	})
	return recs, err
}

// SHAVSMonteCarlo parses testdata/sha1/name, a Monte Carlo file.
func SHAVSMonteCarlo(name string) (SHAVSMonte, error) {
	var (
		m        SHAVSMonte
		haveSeed bool
		count    = -1
	)
	err := rspFields(name, func(line int, key, value string) error {
		var err error
		switch key {
		case "Seed":
			m.Seed, err = decodeDigest(value)
			haveSeed = true
		case "COUNT":
			count, err = strconv.Atoi(value)
			if err == nil && count != len(m.Checkpoints) {
				err = fmt.Errorf("COUNT = %d out of order, want %d", count, len(m.Checkpoints))
			}
		case "MD":
			if !haveSeed || count != len(m.Checkpoints) {
				return fmt.Errorf("MD without Seed and COUNT")
			}
			var md [digestSize]byte
			md, err = decodeDigest(value)
			m.Checkpoints = append(m.Checkpoints, md)
		default:
			err = fmt.Errorf("unexpected field %q", key)
		}
		return err
	})
	return m, err
}

// GHASHFile is testdata/ghash/ghash_vectors.json, in hex strings: GHASH(H,
// A, C) cases of GCM, and raw GHASH over whole blocks X.
type GHASHFile struct {
	Vectors []struct {
		Name, H, A, C, GHASH string
	} `json:"vectors"`
	RawBlockVectors []struct {
		Name, H, X, GHASH string
		LengthBlock       bool `json:"lengthBlock"`
	} `json:"rawBlockVectors"`
}

// GHASH reads testdata/ghash/ghash_vectors.json, and fails unless it holds
// vectors of both kinds.
func GHASH() (GHASHFile, error) {
	var f GHASHFile
	data, err := os.ReadFile(Path("ghash", "ghash_vectors.json"))
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return f, err
	}
	if len(f.Vectors) == 0 || len(f.RawBlockVectors) == 0 {
		return f, fmt.Errorf("ghash_vectors.json has %d vectors and %d raw-block vectors; want some of each", len(f.Vectors), len(f.RawBlockVectors))
	}
	return f, nil
}

// AEADFile is a Project Wycheproof AEAD file (schema
// aead_test_schema_v1.json, e.g. testdata/gcm/aes_gcm_test.json), with
// its hex decoded.
type AEADFile struct {
	NumberOfTests int
	Groups        []AEADGroup
}

// AEADGroup is one of an AEADFile's test groups; its sizes are in bits.
type AEADGroup struct {
	IVSize, KeySize, TagSize int
	Tests                    []AEADCase
}

// AEADCase is one Wycheproof AEAD test: Valid says whether Seal(Key, IV,
// Msg, AAD) is CT || Tag and opens; an invalid case must not open.
type AEADCase struct {
	TcID                       int
	Comment                    string
	Flags                      []string
	Key, IV, AAD, Msg, CT, Tag []byte
	Valid                      bool
}

// WycheproofAEAD reads testdata/gcm/name, a Wycheproof AEAD file, and
// fails if a value is not hex, a case's sizes differ from its group's, a
// result is neither "valid" nor "invalid", or the cases do not add up to
// the file's numberOfTests.
func WycheproofAEAD(name string) (AEADFile, error) {
	var raw struct {
		NumberOfTests int `json:"numberOfTests"`
		TestGroups    []struct {
			IVSize  int `json:"ivSize"`
			KeySize int `json:"keySize"`
			TagSize int `json:"tagSize"`
			Tests   []struct {
				TcID                               int `json:"tcId"`
				Comment                            string
				Flags                              []string
				Key, IV, AAD, Msg, CT, Tag, Result string
			} `json:"tests"`
		} `json:"testGroups"`
	}
	f := AEADFile{}
	data, err := os.ReadFile(Path("gcm", name))
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return f, fmt.Errorf("%s: %v", name, err)
	}
	f.NumberOfTests = raw.NumberOfTests
	n := 0
	for _, g := range raw.TestGroups {
		grp := AEADGroup{IVSize: g.IVSize, KeySize: g.KeySize, TagSize: g.TagSize}
		for _, t := range g.Tests {
			c := AEADCase{TcID: t.TcID, Comment: t.Comment, Flags: t.Flags}
			for _, field := range []struct {
				dst *[]byte
				hex string
			}{{&c.Key, t.Key}, {&c.IV, t.IV}, {&c.AAD, t.AAD}, {&c.Msg, t.Msg}, {&c.CT, t.CT}, {&c.Tag, t.Tag}} {
				if *field.dst, err = hex.DecodeString(field.hex); err != nil {
					return f, fmt.Errorf("%s: tcId %d: %v", name, t.TcID, err)
				}
			}
			if len(c.Key)*8 != g.KeySize || len(c.IV)*8 != g.IVSize || len(c.Tag)*8 != g.TagSize {
				return f, fmt.Errorf("%s: tcId %d: key, IV or tag size differs from its group's", name, t.TcID)
			}
			switch t.Result {
			case "valid":
				c.Valid = true
			case "invalid":
			default:
				return f, fmt.Errorf("%s: tcId %d: result %q is neither valid nor invalid", name, t.TcID, t.Result)
			}
			grp.Tests = append(grp.Tests, c)
			n++
		}
		f.Groups = append(f.Groups, grp)
	}
	if n != f.NumberOfTests || n == 0 {
		return f, fmt.Errorf("%s: %d cases, but the file says it has %d", name, n, f.NumberOfTests)
	}
	return f, nil
}

// A SHA1DCRecord is one line of testdata/sha1dc/sha1cd-digests.txt: the
// digest and collision flag that github.com/pjbgf/sha1cd v0.7.0 gives for
// the first Prefix bytes of the collision file File, followed by Append
// bytes of the pattern AppendPattern.
type SHA1DCRecord struct {
	Line      int // line in the file, for error messages
	File      string
	Prefix    int
	Append    int
	Sum       [digestSize]byte
	Collision bool
}

// AppendPattern returns the n bytes SHA1DCRecord.Append counts: byte i is
// i*131+7 mod 256.
func AppendPattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*131 + 7)
	}
	return b
}

// SHA1DCDigests parses testdata/sha1dc/sha1cd-digests.txt: lines of
// "file prefix append digest collision", where collision is 0 or 1, after
// '#' comment lines.
func SHA1DCDigests() ([]SHA1DCRecord, error) {
	name := Path("sha1dc", "sha1cd-digests.txt")
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var recs []SHA1DCRecord
	for i, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		bad := func(why string) error { return fmt.Errorf("%s:%d: %s: %q", name, i+1, why, line) }
		f := strings.Fields(line)
		if len(f) != 5 {
			return nil, bad("want 5 fields")
		}
		r := SHA1DCRecord{Line: i + 1, File: f[0]}
		if r.Prefix, err = strconv.Atoi(f[1]); err != nil || r.Prefix < 0 {
			return nil, bad("bad prefix length")
		}
		if r.Append, err = strconv.Atoi(f[2]); err != nil || r.Append < 0 {
			return nil, bad("bad appended length")
		}
		if r.Sum, err = decodeDigest(f[3]); err != nil {
			return nil, bad(err.Error())
		}
		switch f[4] {
		case "0":
		case "1":
			r.Collision = true
		default:
			return nil, bad("collision must be 0 or 1")
		}
		recs = append(recs, r)
	}
	return recs, nil
}

// SHA1DCMessage returns the message of r: the first r.Prefix bytes of
// testdata/sha1dc/r.File, then AppendPattern(r.Append).
func SHA1DCMessage(r SHA1DCRecord) ([]byte, error) {
	b, err := os.ReadFile(Path("sha1dc", r.File))
	if err != nil {
		return nil, err
	}
	if r.Prefix > len(b) {
		return nil, fmt.Errorf("sha1cd-digests.txt:%d: prefix %d of %s, which has %d bytes", r.Line, r.Prefix, r.File, len(b))
	}
	return append(b[:r.Prefix:r.Prefix], AppendPattern(r.Append)...), nil
}
