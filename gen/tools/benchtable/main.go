// Benchtable reads `go test -bench` output on stdin and prints one table per
// package and benchmark: the sub-benchmark name up to its last element is the
// row (the kernel), the last element the column (the input size), and the
// cell is MB/s (ns/op when the benchmark does not call b.SetBytes).
//
//	go test -run '^$' -bench . ./sha1 | go -C gen run ./tools/benchtable
package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

type table struct {
	pkg, name  string
	unit       string
	rows, cols []string
	cell       map[[2]string]string
}

var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

func main() {
	var (
		tables  []*table
		byKey   = map[string]*table{}
		pkg     string
		header  []string
		failed  []string
		inBench bool
	)
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "pkg: "):
			pkg = strings.TrimPrefix(line, "pkg: ")
			inBench = true
		case strings.HasPrefix(line, "cpu: "):
			if len(header) == 0 {
				header = append(header, strings.TrimSpace(line))
			}
		case strings.HasPrefix(line, "--- FAIL"), strings.HasPrefix(line, "FAIL"), strings.HasPrefix(line, "panic:"):
			failed = append(failed, line)
		}
		m := benchLine.FindStringSubmatch(line)
		if m == nil || !inBench {
			continue
		}
		parts := strings.Split(m[1], "/")
		name, row, col := parts[0], "-", "-"
		if len(parts) >= 3 {
			row, col = strings.Join(parts[1:len(parts)-1], "/"), parts[len(parts)-1]
		} else if len(parts) == 2 {
			col = parts[1]
		}
		value, unit := metric(strings.Fields(m[2]))
		if unit == "" {
			continue
		}
		key := pkg + " " + name + " " + unit
		t := byKey[key]
		if t == nil {
			t = &table{pkg: pkg, name: name, unit: unit, cell: map[[2]string]string{}}
			byKey[key] = t
			tables = append(tables, t)
		}
		if _, ok := t.cell[[2]string{row, col}]; !ok {
			t.rows = appendNew(t.rows, row)
			t.cols = appendNew(t.cols, col)
		}
		t.cell[[2]string{row, col}] = value // with -count > 1, the last run wins
	}
	for _, h := range header {
		fmt.Println(h)
	}
	for _, t := range tables {
		t.print()
	}
	if len(tables) == 0 {
		fmt.Println("(no benchmark results)")
	}
	for _, f := range failed {
		fmt.Println(f)
	}
	if len(failed) > 0 {
		os.Exit(1)
	}
}

// metric picks MB/s if present, else ns/op, from "value unit" pairs.
func metric(f []string) (value, unit string) {
	for _, want := range []string{"MB/s", "ns/op"} {
		for i := 0; i+1 < len(f); i += 2 {
			if f[i+1] == want {
				if v, err := strconv.ParseFloat(f[i], 64); err == nil {
					return strconv.FormatFloat(v, 'f', 1, 64), want
				}
				return f[i], want
			}
		}
	}
	return "", ""
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func (t *table) print() {
	short := t.pkg[strings.LastIndex(t.pkg, "/")+1:]
	fmt.Printf("\n%s %s (%s)\n", short, t.name, t.unit)
	w0 := len("kernel")
	for _, r := range t.rows {
		w0 = max(w0, len(r))
	}
	widths := make([]int, len(t.cols))
	for j, c := range t.cols {
		widths[j] = len(c)
		for _, r := range t.rows {
			widths[j] = max(widths[j], len(t.cell[[2]string{r, c}]))
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
			v, ok := t.cell[[2]string{r, c}]
			if !ok {
				v = "-"
			}
			fmt.Printf("  %*s", widths[j], v)
		}
		fmt.Println()
	}
}
