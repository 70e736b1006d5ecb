// Package benchline reads the result lines of `go test -bench` output, for
// the tools that tabulate them (tools/benchtable, tools/ghashspeed, ...),
// and holds what those tools share: the statistics over rounds and the
// Markdown tables.
package benchline

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
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

// Ratio compares two measurements of the same rounds, num[i] and den[i]
// from round i (NaN where the round has none), over the rounds that have
// both: the median and range of the rounds' own ratios num[i]/den[i], and
// the ratio of the least num to the least den. It reports false if no
// round has both.
func Ratio(num, den []float64) (s Stat, best float64, ok bool) {
	var rs []float64
	bestNum, bestDen := math.Inf(1), math.Inf(1)
	for i := 0; i < len(num) && i < len(den); i++ {
		if math.IsNaN(num[i]) || math.IsNaN(den[i]) {
			continue
		}
		rs = append(rs, num[i]/den[i])
		bestNum, bestDen = min(bestNum, num[i]), min(bestDen, den[i])
	}
	if len(rs) == 0 {
		return Stat{}, 0, false
	}
	return Summarize(rs), bestNum / bestDen, true
}

// String formats s as "median (lowest-highest)" with two decimals, or as
// "" for the zero Stat.
func (s Stat) String() string {
	if s == (Stat{}) {
		return ""
	}
	return fmt.Sprintf("%.2f (%.2f-%.2f)", s.Med, s.Lo, s.Hi)
}

// Values returns f of each round where it is defined (ok), in order.
func Values[R any](rounds []R, f func(R) (float64, bool)) []float64 {
	var xs []float64
	for _, r := range rounds {
		if v, ok := f(r); ok {
			xs = append(xs, v)
		}
	}
	return xs
}

// Map returns f of each element of xs, in order: the labels, columns and
// cells the tools make of their lists.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// Table prints a Markdown table to standard output: corner and cols head
// it, then each row, labelled by rows[i], has cell(i, j) in column j (an
// empty cell prints as "| |").
func Table(corner string, cols, rows []string, cell func(i, j int) string) {
	fmt.Println("| " + strings.Join(append([]string{corner}, cols...), " | ") + " |")
	fmt.Println("|---|" + strings.Repeat("---|", len(cols)))
	for i, label := range rows {
		fmt.Printf("| %s |", label)
		for j := range cols {
			if c := cell(i, j); c != "" {
				fmt.Printf(" %s |", c)
			} else {
				fmt.Print(" |")
			}
		}
		fmt.Println()
	}
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
