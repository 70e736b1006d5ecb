// Package guestrun is what bochstest (on the host) and its guest /init agree
// on: the file in the initramfs that lists the test runs, and the lines the
// guest prints on the serial console around them.
package guestrun

import (
	"fmt"
	"strconv"
	"strings"
)

// ConfigPath is where the initramfs holds the JSON encoding of a Config.
const ConfigPath = "/bochstest.json"

// Config is what the guest runs, in order, before powering off.
type Config struct {
	Runs []Run
}

// Run is one process: a test binary with its arguments and environment.
type Run struct {
	Dir  string   // working directory (the package's directory in the initramfs)
	Path string   // the binary
	Args []string // its arguments, not counting the name
	Env  []string // NAME=VALUE, added to the guest's base environment
}

// The guest prints each marker at the start of a line of its own.
const (
	markerPrefix = "bochstest: "
	started      = "started"
	done         = "done"
)

// Started is the line the guest prints when /init starts: the boot worked.
func Started() string { return markerPrefix + started }

// Done is the line the guest prints after the last run, before powering off.
func Done() string { return markerPrefix + done }

// Begin is the line the guest prints before run i.
func Begin(i int) string { return fmt.Sprintf("%sbegin %d", markerPrefix, i) }

// End is the line the guest prints after run i: its exit status (-1 when a
// signal ended it or it did not start) and how it ended, as Go's
// os.ProcessState or error prints it.
func End(i, status int, how string) string {
	return fmt.Sprintf("%send %d %d %s", markerPrefix, i, status, how)
}

// Marker is a parsed marker line.
type Marker struct {
	Kind   string // "started", "begin", "end" or "done"
	Run    int    // for begin and end
	Status int    // for end
	How    string // for end
}

// Parse reports whether line is a marker line, and which.
func Parse(line string) (Marker, bool) {
	rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), markerPrefix)
	if !ok {
		return Marker{}, false
	}
	f := strings.SplitN(rest, " ", 4)
	switch {
	case len(f) == 1 && (f[0] == started || f[0] == done):
		return Marker{Kind: f[0]}, true
	case len(f) == 2 && f[0] == "begin":
		i, err := strconv.Atoi(f[1])
		return Marker{Kind: "begin", Run: i}, err == nil
	case len(f) >= 3 && f[0] == "end":
		i, err1 := strconv.Atoi(f[1])
		st, err2 := strconv.Atoi(f[2])
		m := Marker{Kind: "end", Run: i, Status: st}
		if len(f) == 4 {
			m.How = f[3]
		}
		return m, err1 == nil && err2 == nil
	}
	return Marker{}, false
}
