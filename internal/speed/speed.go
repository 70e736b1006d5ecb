// Package speed is the data of make speed shared by its two sides: the
// message patterns, and the JSON that sha1's TestSpeedTable writes and
// scripts/speedtable.go reads.
package speed

// A Pattern is a message of Updates*UpdateSize bytes hashed in Updates
// calls of Write.
type Pattern struct {
	Updates    int `json:"updates"`
	UpdateSize int `json:"update_size"`
}

// Bytes is the message size.
func (p Pattern) Bytes() int { return p.Updates * p.UpdateSize }

// Tcrypt are the patterns of the Linux kernel's tcrypt hash speed test
// (modprobe tcrypt mode=303), grouped by message size.
var Tcrypt = []Pattern{
	{1, 16},
	{1, 64}, {4, 16},
	{1, 256}, {4, 64}, {16, 16},
	{1, 1024}, {4, 256}, {16, 64},
	{1, 2048}, {8, 256}, {32, 64},
	{1, 4096}, {16, 256}, {64, 64},
	{1, 8192}, {32, 256}, {128, 64},
}

// PlotSizes are the other one-update sizes the plot draws.
var PlotSizes = []int{32, 128, 512, 16384, 32768, 65536}

// A Result is one measurement: the time from a fresh state to the digest
// (Reset, the pattern's Writes, Sum) with one implementation.
type Result struct {
	Impl string `json:"impl"`
	Pattern
	NsPerOp float64 `json:"ns_per_op"`
}

// A Round is what one run of sha1's TestSpeedTable writes.
type Round struct {
	// NsPerCycle are the clock calibrations taken before each message
	// size, interleaved with the measurements.
	NsPerCycle []float64 `json:"ns_per_cycle"`
	Results    []Result  `json:"results"`
	Skipped    []string  `json:"skipped,omitempty"` // kernels this CPU lacks
}
