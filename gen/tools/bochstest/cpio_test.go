package main

import (
	"bytes"
	"strconv"
	"testing"
)

type cpioEntry struct {
	name       string
	mode       uint32
	rdev       [2]uint32
	data       string
	headerAt   int
	dataOffset int
}

// readCPIO parses a newc archive independently of cpioWriter, checking the
// magic, the alignment of every name and data field, and the trailer.
func readCPIO(t *testing.T, b []byte) []cpioEntry {
	t.Helper()
	var out []cpioEntry
	off := 0
	for {
		if off%4 != 0 {
			t.Fatalf("entry at %d is not 4-byte aligned", off)
		}
		if len(b) < off+110 || string(b[off:off+6]) != "070701" {
			t.Fatalf("no newc header at %d", off)
		}
		field := func(i int) uint32 {
			v, err := strconv.ParseUint(string(b[off+6+8*i:off+14+8*i]), 16, 32)
			if err != nil {
				t.Fatalf("header at %d, field %d: %v", off, i, err)
			}
			return uint32(v)
		}
		mode, size, namesize := field(1), int(field(6)), int(field(11))
		name := string(b[off+110 : off+110+namesize])
		if name[len(name)-1] != 0 {
			t.Fatalf("name at %d not NUL-terminated: %q", off, name)
		}
		name = name[:len(name)-1]
		dataAt := (off + 110 + namesize + 3) &^ 3
		e := cpioEntry{name: name, mode: mode, rdev: [2]uint32{field(9), field(10)},
			data: string(b[dataAt : dataAt+size]), headerAt: off, dataOffset: dataAt}
		off = (dataAt + size + 3) &^ 3
		if name == "TRAILER!!!" {
			if off != len(b) {
				t.Fatalf("%d bytes after the trailer", len(b)-off)
			}
			return out
		}
		out = append(out, e)
	}
}

func TestCPIO(t *testing.T) {
	var buf bytes.Buffer
	w := newCPIOWriter(&buf)
	w.CharDev("/dev/console", 0o600, 5, 1)
	w.File("/src/sha1/x.txt", 0o644, []byte("hello")) // adds src and src/sha1
	w.File("src/sha1/y", 0o755, []byte("1234"))       // parents already there
	w.Dir("/tmp", 0o1777)
	w.File("/init", 0o755, nil)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got := readCPIO(t, buf.Bytes())
	want := []cpioEntry{
		{name: "dev", mode: cpioDir | 0o755},
		{name: "dev/console", mode: cpioCharDev | 0o600, rdev: [2]uint32{5, 1}},
		{name: "src", mode: cpioDir | 0o755},
		{name: "src/sha1", mode: cpioDir | 0o755},
		{name: "src/sha1/x.txt", mode: cpioRegular | 0o644, data: "hello"},
		{name: "src/sha1/y", mode: cpioRegular | 0o755, data: "1234"},
		{name: "tmp", mode: cpioDir | 0o1777},
		{name: "init", mode: cpioRegular | 0o755},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d entries %v, want %d", len(got), got, len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.name != w.name || g.mode != w.mode || g.rdev != w.rdev || g.data != w.data {
			t.Errorf("entry %d = %q mode %o rdev %v data %q, want %q mode %o rdev %v data %q",
				i, g.name, g.mode, g.rdev, g.data, w.name, w.mode, w.rdev, w.data)
		}
	}
}
