// Package benchline reads the result lines of `go test -bench` output, for
// the tools that tabulate them (tools/benchtable, tools/ghashspeed).
package benchline

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A Result is one result line of `go test -bench` output.
type Result struct {
	// Name is the benchmark's full name, "BenchmarkUpdate/16/pclmul",
	// without the -GOMAXPROCS suffix.
	Name string
	// Metrics are the line's value-unit pairs in their order ("ns/op",
	// "MB/s", then what the benchmark reports), those whose value is a
	// number.
	Metrics []Metric
}

// A Metric is one value-unit pair of a result line.
type Metric struct {
	Value float64
	Unit  string
}

var resultLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

// Parse parses line as a result line: the name, the iteration count and
// the value-unit pairs. It reports false if line is not one.
func Parse(line string) (Result, bool) {
	m := resultLine.FindStringSubmatch(line)
	if m == nil {
		return Result{}, false
	}
	r := Result{Name: m[1]}
	f := strings.Fields(m[2])
	for i := 0; i+1 < len(f); i += 2 {
		if v, err := strconv.ParseFloat(f[i], 64); err == nil {
			r.Metrics = append(r.Metrics, Metric{v, f[i+1]})
		}
	}
	return r, true
}

// Metric returns the value of the first pair of r in unit, and whether r
// has one.
func (r Result) Metric(unit string) (float64, bool) {
	for _, m := range r.Metrics {
		if m.Unit == unit {
			return m.Value, true
		}
	}
	return 0, false
}

// A Stat is the median of a measurement over rounds, with its range.
type Stat struct{ Med, Lo, Hi float64 }

// Summarize returns the median, lowest and highest of xs, or the zero
// Stat for none.
func Summarize(xs []float64) Stat {
	if len(xs) == 0 {
		return Stat{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Stat{med, s[0], s[len(s)-1]}
}

// String formats s as "median (lowest-highest)" with two decimals, or as
// "" for the zero Stat.
func (s Stat) String() string {
	if s == (Stat{}) {
		return ""
	}
	return fmt.Sprintf("%.2f (%.2f-%.2f)", s.Med, s.Lo, s.Hi)
}

// Run runs a test binary in dir with args (-test.run, -test.bench, ...),
// its standard error going to this process's, and returns the result
// lines of its output, parsed.
func Run(bin, dir string, args ...string) ([]Result, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", bin, err, out)
	}
	var rs []Result
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if r, ok := Parse(sc.Text()); ok {
			rs = append(rs, r)
		}
	}
	return rs, sc.Err()
}
