// Benchtable reads `go test -bench` output on stdin, from several rounds
// of the same benchmarks, and prints one table per package and benchmark:
// the sub-benchmark name up to its last element is the row (the kernel),
// the last element the column (the input size), and each cell is the
// median of the rounds in MB/s (ns/op when the benchmark does not call
// b.SetBytes), with the lowest and highest value beside it. A line after
// the tables warns when any cell's spread exceeds 10% of its median: on a
// busy machine the figures are not to be compared then.
//
// What benchstat does not do: one screen of medians with their ranges, a
// kernel per row and a size per column. For comparisons between two
// versions, use benchstat (make benchstat).
//
//	scripts/speed.sh | ... (make speed-short runs it)
//	for i in 1 2 3 4 5; do go test -run '^$' -bench . ./sha1; done | go -C gen run ./tools/benchtable
package main

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/simdhash/simdhash/gen/internal/benchline"
)

// warnSpread is the spread, relative to the median, above which a cell is
// reported as noisy.
const warnSpread = 0.10

type table struct {
	pkg, name, unit string
	rows, cols      []string
	cell            map[[2]string][]float64
}

func main() {
	var (
		tables []*table
		byKey  = map[string]*table{}
		pkg    string
		cpu    string
		failed []string
	)
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "pkg: "):
			pkg = strings.TrimPrefix(line, "pkg: ")
		case strings.HasPrefix(line, "cpu: "):
			cpu = strings.TrimSpace(line)
		case strings.HasPrefix(line, "--- FAIL"), strings.HasPrefix(line, "FAIL"), strings.HasPrefix(line, "panic:"):
			failed = append(failed, line)
		}
		res, ok := benchline.Parse(line)
		if !ok || pkg == "" {
			continue
		}
		parts := strings.Split(res.Name, "/")
		name, row, col := parts[0], "-", "-"
		if len(parts) >= 3 {
			row, col = strings.Join(parts[1:len(parts)-1], "/"), parts[len(parts)-1]
		} else if len(parts) == 2 {
			col = parts[1]
		}
		value, unit, ok := metric(res)
		if !ok {
			continue
		}
		key := pkg + " " + name + " " + unit
		t := byKey[key]
		if t == nil {
			t = &table{pkg: pkg, name: name, unit: unit, cell: map[[2]string][]float64{}}
			byKey[key] = t
			tables = append(tables, t)
		}
		k := [2]string{row, col}
		if _, seen := t.cell[k]; !seen {
			t.rows = appendNew(t.rows, row)
			t.cols = appendNew(t.cols, col)
		}
		t.cell[k] = append(t.cell[k], value)
	}
	if cpu != "" {
		fmt.Println(cpu)
	}
	var noisy []string
	for _, t := range tables {
		noisy = append(noisy, t.print()...)
	}
	if len(tables) == 0 {
		fmt.Println("(no benchmark results)")
	}
	if len(noisy) > 0 {
		names := strings.Join(noisy[:min(3, len(noisy))], ", ")
		if len(noisy) > 3 {
			names += ", ..."
		}
		fmt.Printf("\nwarning: %d figures (marked !) spread over more than %.0f%% of their median (%s): the machine was busy, so do not compare them\n",
			len(noisy), 100*warnSpread, names)
	}
	for _, f := range failed {
		fmt.Println(f)
	}
	if len(failed) > 0 {
		os.Exit(1)
	}
}

// metric picks MB/s if present, else ns/op, from r's metrics.
func metric(r benchline.Result) (value float64, unit string, ok bool) {
	for _, want := range []string{"MB/s", "ns/op"} {
		if v, ok := r.Metric(want); ok {
			return v, want, true
		}
	}
	return 0, "", false
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// print prints t and returns the names of its noisy cells.
func (t *table) print() (noisy []string) {
	short := t.pkg[strings.LastIndex(t.pkg, "/")+1:]
	text := map[[2]string]string{}
	rounds := 0
	for k, vs := range t.cell {
		s := benchline.Summarize(vs)
		text[k] = fmt.Sprintf("%.1f (%.0f–%.0f)", s.Med, s.Lo, s.Hi)
		if s.Med > 0 && (s.Hi-s.Lo)/s.Med > warnSpread {
			text[k] += " !"
			noisy = append(noisy, fmt.Sprintf("%s %s/%s/%s", short, t.name, k[0], k[1]))
		} else {
			text[k] += "  "
		}
		rounds = max(rounds, len(vs))
	}
	fmt.Printf("\n%s %s, %s: median of %d rounds (lowest–highest)\n", short, t.name, t.unit, rounds)
	w0 := len("kernel")
	for _, r := range t.rows {
		w0 = max(w0, len(r))
	}
	widths := make([]int, len(t.cols))
	for j, c := range t.cols {
		widths[j] = len([]rune(c))
		for _, r := range t.rows {
			widths[j] = max(widths[j], len([]rune(text[[2]string{r, c}])))
		}
	}
	fmt.Printf("  %-*s", w0, "kernel")
	for j, c := range t.cols {
		fmt.Printf("  %*s", widths[j], c)
	}
	fmt.Println()
	for _, r := range t.rows {
		fmt.Printf("  %-*s", w0, r)
		for j, c := range t.cols {
			v, ok := text[[2]string{r, c}]
			if !ok {
				v = "-"
			}
			fmt.Printf("  %*s", widths[j]+len(v)-len([]rune(v)), v)
		}
		fmt.Println()
	}
	slices.Sort(noisy)
	return noisy
}
