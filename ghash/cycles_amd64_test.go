//go:build amd64 && !purego

package ghash

import (
	"testing"

	"github.com/simdhash/simdhash/internal/cycles"
)

// BenchmarkCycles calibrates the clock for the cycles-per-byte figures
// (internal/cycles): run it in the same `go test -bench` as BenchmarkUpdate.
func BenchmarkCycles(b *testing.B) { cycles.Benchmark(b) }
