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
	"runtime"
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
// "ns/cycle" it reports (or its cpu-ns/op by "cpu-ns/cycle", both CPU time;
// see CPUTimer).
func Benchmark(b *testing.B) {
	t := StartCPU(b)
	run(b)
	if cpu := t.Stop(); cpu > 0 {
		b.ReportMetric(cpu/(2*pairs), "cpu-ns/cycle")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(2*pairs), "ns/cycle")
	b.ReportMetric(2*pairs*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "GHz")
}

// NsPerCycle times the chain with testing.Benchmark and returns
// nanoseconds per cycle, for tests that take their own measurements.
func NsPerCycle() float64 {
	r := testing.Benchmark(run)
	return float64(r.T.Nanoseconds()) / float64(r.N) / (2 * pairs)
}

// CPUTimer measures the CPU time of the benchmark's goroutine, on a thread
// of its own, so that time the scheduler gives to other processes is not
// counted: on a shared machine that is what makes two measurements taken
// seconds apart comparable. (`openssl speed` divides by its user CPU time
// likewise, unless given -elapsed.)
type CPUTimer struct {
	b     *testing.B
	start int64 // thread CPU time in ns, or -1 where it cannot be read
}

// StartCPU locks the goroutine to its thread and starts the timer; call it
// just before the b.Loop loop, and Stop just after.
func StartCPU(b *testing.B) *CPUTimer {
	runtime.LockOSThread()
	return &CPUTimer{b: b, start: threadCPU()}
}

// Stop reports the thread's CPU time per iteration as "cpu-ns/op" and
// unlocks the thread. It returns that time, or 0 where the platform
// cannot measure it (then no metric is reported).
func (t *CPUTimer) Stop() float64 {
	end := threadCPU()
	runtime.UnlockOSThread()
	if t.start < 0 || end < 0 || t.b.N == 0 {
		return 0
	}
	ns := float64(end-t.start) / float64(t.b.N)
	t.b.ReportMetric(ns, "cpu-ns/op")
	return ns
}
