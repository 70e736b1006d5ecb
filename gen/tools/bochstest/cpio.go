package main

import (
	"fmt"
	"io"
	"path"
	"strings"
)

// cpioWriter writes a cpio archive in the "newc" format, the one the Linux
// kernel unpacks as an initramfs (Documentation/driver-api/early-userspace/
// buffer-format.rst): each entry is a 110-byte ASCII header, the name with
// its NUL, padding to 4 bytes, the data, padding to 4 bytes; a
// "TRAILER!!!" entry ends the archive. Names are stored without a leading
// slash; a file's parent directories are added before it when missing.
type cpioWriter struct {
	w    io.Writer
	ino  uint32
	dirs map[string]bool
	err  error
}

func newCPIOWriter(w io.Writer) *cpioWriter {
	return &cpioWriter{w: w, dirs: map[string]bool{".": true}}
}

// File types in the mode field, as in stat(2).
const (
	cpioDir     = 0o040000
	cpioRegular = 0o100000
	cpioCharDev = 0o020000
)

func (c *cpioWriter) entry(name string, mode uint32, rdevMajor, rdevMinor uint32, data []byte) {
	if c.err != nil {
		return
	}
	if name = clean(name); name != "TRAILER!!!" {
		c.Dir(path.Dir(name), 0o755) // the parent, if missing
	}
	c.ino++
	nlink := 1
	if mode&0o170000 == cpioDir {
		nlink = 2
	}
	hdr := fmt.Sprintf("070701%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x",
		c.ino, mode, 0, 0, nlink, 0, len(data), 0, 0, rdevMajor, rdevMinor, len(name)+1, 0)
	c.write([]byte(hdr + name + "\x00"))
	c.pad(len(hdr) + len(name) + 1)
	c.write(data)
	c.pad(len(data))
}

// clean returns name as stored: without a leading slash, "." for the root.
func clean(name string) string {
	if name = strings.TrimPrefix(path.Clean("/"+name), "/"); name == "" {
		return "."
	}
	return name
}

func (c *cpioWriter) write(b []byte) {
	if c.err == nil {
		_, c.err = c.w.Write(b)
	}
}

func (c *cpioWriter) pad(n int) {
	if r := n % 4; r != 0 {
		c.write(make([]byte, 4-r))
	}
}

// Dir adds a directory with permissions perm.
func (c *cpioWriter) Dir(name string, perm uint32) {
	if name = clean(name); c.dirs[name] {
		return
	}
	c.dirs[name] = true
	c.entry(name, cpioDir|perm, 0, 0, nil)
}

// File adds a regular file with permissions perm.
func (c *cpioWriter) File(name string, perm uint32, data []byte) {
	c.entry(name, cpioRegular|perm, 0, 0, data)
}

// CharDev adds a character device node.
func (c *cpioWriter) CharDev(name string, perm, major, minor uint32) {
	c.entry(name, cpioCharDev|perm, major, minor, nil)
}

// Close writes the trailer. It does not close the underlying writer.
func (c *cpioWriter) Close() error {
	c.entry("TRAILER!!!", 0, 0, 0, nil)
	return c.err
}
