//go:build (!arm64 && !amd64 && !arm) || purego

package ghash

import "testing"

// dispatchOracle: a build without assembly has only the generic kernel.
func dispatchOracle(t *testing.T) (string, string) {
	return genericName, "this build has no assembly kernels"
}
