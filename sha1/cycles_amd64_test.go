//go:build amd64 && !purego

package sha1

import (
	"math/bits"
	"testing"
)

// cycleChain runs n dependent rotate-then-XOR pairs. Each ROLQ and XORQ
// waits for the previous one and takes one cycle on current amd64 cores,
// so the loop takes 2n cycles whatever the clock speed.
//
//go:noinline
func cycleChain(x, y uint64, n int) uint64 {
	for i := 0; i < n; i++ {
		x = bits.RotateLeft64(x, 13) ^ y
	}
	return x
}

var cycleSink uint64

// BenchmarkCycles calibrates the clock for the cycles-per-byte figures:
// run it in the same `go test -bench` as the kernels, and divide a kernel's
// ns/op by the "ns/cycle" this reports. (An out-of-order core overlaps the
// loop counter with the chain, so the chain alone sets the time.)
func BenchmarkCycles(b *testing.B) {
	const pairs = 1 << 12
	x := uint64(0x0123456789abcdef)
	for b.Loop() {
		x = cycleChain(x, 0x9e3779b97f4a7c15, pairs)
	}
	cycleSink = x
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(2*pairs), "ns/cycle")
	b.ReportMetric(2*pairs*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "GHz")
}
