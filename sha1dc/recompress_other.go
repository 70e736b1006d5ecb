//go:build !amd64 || purego

package sha1dc

// recompressJob returns the lanes of job j that are halves of collisions,
// its first n lanes meaningful: with the portable code, this build having
// no recompression kernel.
func recompressJob(j *recompJob, _, n int) uint32 { return recompressPortable(j, n) }
