package benchline

import (
	"math"
	"os"
	"reflect"
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		line string
		want Result
		ok   bool
	}{
		{"BenchmarkUpdate/16/pclmul-2         \t 2390313\t        10.05 ns/op\t1591.74 MB/s\t         10.06 cpu-ns/op",
			Result{"BenchmarkUpdate/16/pclmul", []Metric{{10.05, "ns/op"}, {1591.74, "MB/s"}, {10.06, "cpu-ns/op"}}}, true},
		// No -GOMAXPROCS suffix (GOMAXPROCS=1); a size that looks like one stays.
		{"BenchmarkSum/1024   100   5 ns/op", Result{"BenchmarkSum/1024", []Metric{{5, "ns/op"}}}, true},
		{"BenchmarkSum/1024-8   100   5 ns/op", Result{"BenchmarkSum/1024", []Metric{{5, "ns/op"}}}, true},
		// A pair whose value is not a number is left out; an odd unit is dropped.
		{"BenchmarkX-2 3 x MB/s 7 ns/op 9", Result{"BenchmarkX", []Metric{{7, "ns/op"}}}, true},
		{"BenchmarkX-2", Result{}, false},
		{"--- FAIL: BenchmarkX", Result{}, false},
		{"pkg: github.com/simdhash/simdhash/ghash", Result{}, false},
	} {
		got, ok := Parse(c.line)
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Parse(%q) = %+v, %v; want %+v, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

func TestMetric(t *testing.T) {
	r := Result{"BenchmarkX", []Metric{{1, "ns/op"}, {2, "MB/s"}, {3, "ns/op"}}}
	for _, c := range []struct {
		unit string
		want float64
		ok   bool
	}{{"ns/op", 1, true}, {"MB/s", 2, true}, {"B/op", 0, false}} {
		if v, ok := r.Metric(c.unit); v != c.want || ok != c.ok {
			t.Errorf("Metric(%q) = %v, %v; want %v, %v", c.unit, v, ok, c.want, c.ok)
		}
	}
}

func TestSummarize(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want Stat
		str  string
	}{
		{nil, Stat{}, ""},
		{[]float64{3}, Stat{3, 3, 3}, "3.00 (3.00-3.00)"},
		{[]float64{5, 1, 3}, Stat{3, 1, 5}, "3.00 (1.00-5.00)"},
		{[]float64{4, 1, 2, 8}, Stat{3, 1, 8}, "3.00 (1.00-8.00)"},
	} {
		in := slices.Clone(c.xs)
		if got := Summarize(c.xs); got != c.want || got.String() != c.str || !slices.Equal(c.xs, in) {
			t.Errorf("Summarize(%v) = %+v %q (input now %v); want %+v %q", in, got, got.String(), c.xs, c.want, c.str)
		}
	}
}

func TestRatio(t *testing.T) {
	nan := math.NaN()
	// Only rounds 0 and 2 have both: ratios 3 and 1, the bests 4 over 2.
	if s, best, ok := Ratio([]float64{6, nan, 4, 1}, []float64{2, 3, 4}); s != (Stat{2, 1, 3}) || best != 2 || !ok {
		t.Errorf("Ratio = %+v, %v, %v; want {2 1 3}, 2, true", s, best, ok)
	}
	if _, _, ok := Ratio([]float64{nan, 4}, []float64{2, nan}); ok {
		t.Error("Ratio of rounds that never both have a figure is ok")
	}
}

// BenchmarkRunTarget is what TestRun runs.
func BenchmarkRunTarget(b *testing.B) {
	for range b.N {
	}
	b.ReportMetric(42, "answers/op")
}

// TestRun runs this test binary's BenchmarkRunTarget through Run.
func TestRun(t *testing.T) {
	rs, err := Run(os.Args[0], ".", "-test.run", "^$", "-test.bench", "^BenchmarkRunTarget$", "-test.benchtime", "1x")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].Name != "BenchmarkRunTarget" {
		t.Fatalf("Run = %+v; want BenchmarkRunTarget's result alone", rs)
	}
	if v, ok := rs[0].Metric("answers/op"); !ok || v != 42 {
		t.Errorf("answers/op = %v, %v; want 42", v, ok)
	}
}
