// Package cycles calibrates the clock for the benchmarks' cycles-per-byte
// figures, in the same run as the measurements they convert: a chain of
// dependent rotate-then-XOR pairs, each ROLQ and XORQ waiting for the one
// before and taking one cycle on current amd64 cores, so that the chain
// takes two cycles per pair whatever the clock speed. (An out-of-order
// core overlaps the loop counter with the chain, so the chain alone sets
// the time.)
package cycles

import (
	"math/bits"
	"testing"
)

// pairs is the length of one timed chain.
const pairs = 1 << 12

// Chain runs n dependent rotate-then-XOR pairs: 2n cycles, for tests that
// time it themselves.
//
//go:noinline
func Chain(x, y uint64, n int) uint64 {
	for i := 0; i < n; i++ {
		x = bits.RotateLeft64(x, 13) ^ y
	}
	return x
}

var sink uint64

// run times the chain b.N times.
func run(b *testing.B) {
	x := uint64(0x0123456789abcdef)
	for b.Loop() {
		x = Chain(x, 0x9e3779b97f4a7c15, pairs)
	}
	sink = x
}

// Benchmark is the body of a package's BenchmarkCycles: run it in the same
// `go test -bench` as the kernels, and divide a kernel's ns/op by the
// "ns/cycle" it reports.
func Benchmark(b *testing.B) {
	run(b)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(2*pairs), "ns/cycle")
	b.ReportMetric(2*pairs*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "GHz")
}

// NsPerCycle times the chain with testing.Benchmark and returns
// nanoseconds per cycle, for tests that take their own measurements.
func NsPerCycle() float64 {
	r := testing.Benchmark(run)
	return float64(r.T.Nanoseconds()) / float64(r.N) / (2 * pairs)
}
