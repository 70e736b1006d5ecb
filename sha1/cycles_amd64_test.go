//go:build amd64 && !purego

package sha1

import (
	"testing"

	"github.com/simdhash/simdhash/internal/cycles"
)

// BenchmarkCycles calibrates the clock for the cycles-per-byte figures
// (internal/cycles): run it in the same `go test -bench` as the kernels.
func BenchmarkCycles(b *testing.B) { cycles.Benchmark(b) }

// cycleSink keeps the results of the tests' own cycles.Chain timings.
var cycleSink uint64
