//go:build !linux && (arm64 || amd64 || arm) && !purego

package ghash

import "testing"

// dispatchOracle: outside Linux this test has no source of CPU flags.
func dispatchOracle(t *testing.T) (string, string) {
	return "", "there is no CPU flag oracle for this OS"
}
