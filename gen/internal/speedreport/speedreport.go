// Package speedreport is the file of SHA-1 speed figures, docs/speed.json,
// that gen/tools/speedtable writes and gen/tools/plot draws.
package speedreport

import "github.com/simdhash/simdhash/internal/speed"

// An Impl is one implementation in the table.
type Impl struct {
	Name  string `json:"name"`
	Label string `json:"label"` // what it is, for the table and the plot's legend
	Kind  string `json:"kind"`  // "kernel", "stdlib" or "openssl"
	// Env is the environment OpenSSL runs with (OPENSSL_ia32cap).
	Env string `json:"env,omitempty"`
}

// A Result is one cell of the table.
type Result struct {
	Impl string `json:"impl"`
	speed.Pattern
	Bytes         int     `json:"bytes"`
	NsPerOp       float64 `json:"ns_per_op"`
	MBPerS        float64 `json:"mb_per_s"`
	CyclesPerByte float64 `json:"cycles_per_byte"`
	CyclesPerOp   float64 `json:"cycles_per_op"`
	Round         int     `json:"round"` // the (best) round it comes from, from 1
}

// Report is the JSON file.
type Report struct {
	About     string    `json:"about"`
	Date      string    `json:"date"`
	CPU       string    `json:"cpu"`
	Go        string    `json:"go"`
	OpenSSL   string    `json:"openssl,omitempty"`
	Rounds    int       `json:"rounds"`
	Benchtime string    `json:"benchtime"`
	ClockGHz  []float64 `json:"clock_ghz"` // each round's
	Clock     string    `json:"clock"`
	Impls     []Impl    `json:"impls"`
	Skipped   []string  `json:"skipped,omitempty"`
	Results   []Result  `json:"results"`
}
