package sha1

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// forEachKernel runs f as one subtest per entry of kernels, named after the
// kernel, with that kernel active. A kernel this CPU cannot run is skipped
// with a reason, never replaced by another one, so the test output shows
// exactly which kernels were exercised.
func forEachKernel(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	if len(kernels) == 0 || kernels[len(kernels)-1].name != "generic" {
		t.Fatalf("kernel registry must end with generic, got %v", kernelNames())
	}
	for i := range kernels {
		k := &kernels[i]
		t.Run(k.name, func(t *testing.T) {
			if !k.available {
				t.Skipf("kernel %q not available: the CPU lacks an extension it needs, or GODEBUG disabled one", k.name)
			}
			saved := active
			active = k
			t.Cleanup(func() { active = saved })
			f(t)
		})
	}
}

// withEachAvailableKernel calls f once with each available kernel active, for
// fuzz targets, where subtests are not allowed.
func withEachAvailableKernel(f func(name string)) {
	saved := active
	defer func() { active = saved }()
	for i := range kernels {
		if kernels[i].available {
			active = &kernels[i]
			f(kernels[i].name)
		}
	}
}

func kernelNames() []string {
	var names []string
	for _, k := range kernels {
		names = append(names, k.name)
	}
	return names
}

// randomBytes returns n bytes from rng.
func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// newRand returns a generator seeded from the test name, so every run of a
// test sees the same data and a failure can be reproduced.
func newRand(t testing.TB) *rand.Rand {
	var seed uint64
	for _, c := range t.Name() {
		seed = seed*1099511628211 + uint64(c)
	}
	return rand.New(rand.NewPCG(seed, 0x5ea1))
}

// A shavsRecord is one ShortMsg or LongMsg record of a SHAVS response file.
type shavsRecord struct {
	line int    // line of the MD field, for error messages
	msg  []byte // the message: the first Len/8 bytes of Msg
	md   [Size]byte
}

// A shavsMonte is the content of a SHAVS Monte Carlo response file.
type shavsMonte struct {
	seed        [Size]byte
	checkpoints [][Size]byte // MD of COUNT = 0, 1, ...
}

// rspFields reads a SHAVS .rsp file and calls field for every "key = value"
// line outside comments and section headers. It accepts LF and CRLF files.
func rspFields(name string, field func(line int, key, value string) error) error {
	f, err := os.Open(filepath.Join("..", "testdata", "sha1", name))
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

func decodeDigest(s string) ([Size]byte, error) {
	var md [Size]byte
	b, err := hex.DecodeString(s)
	if err != nil {
		return md, err
	}
	if len(b) != Size {
		return md, fmt.Errorf("digest %q has %d bytes, want %d", s, len(b), Size)
	}
	copy(md[:], b)
	return md, nil
}

// readShavsMsg parses a ShortMsg or LongMsg file.
func readShavsMsg(t *testing.T, name string) []shavsRecord {
	t.Helper()
	var (
		recs []shavsRecord
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
			recs = append(recs, shavsRecord{line: line, msg: msg[:bits/8], md: md})
			bits, msg = -1, nil
		default:
			return fmt.Errorf("unexpected field %q", key)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// readShavsMonte parses the Monte Carlo file.
func readShavsMonte(t *testing.T, name string) shavsMonte {
	t.Helper()
	var (
		m        shavsMonte
		haveSeed bool
		count    = -1
	)
	err := rspFields(name, func(line int, key, value string) error {
		var err error
		switch key {
		case "Seed":
			m.seed, err = decodeDigest(value)
			haveSeed = true
		case "COUNT":
			count, err = strconv.Atoi(value)
			if err == nil && count != len(m.checkpoints) {
				err = fmt.Errorf("COUNT = %d out of order, want %d", count, len(m.checkpoints))
			}
		case "MD":
			if !haveSeed || count != len(m.checkpoints) {
				return fmt.Errorf("MD without Seed and COUNT")
			}
			var md [Size]byte
			md, err = decodeDigest(value)
			m.checkpoints = append(m.checkpoints, md)
		default:
			err = fmt.Errorf("unexpected field %q", key)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
