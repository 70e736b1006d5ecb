//go:build linux && amd64 && !purego

package ghash

import (
	"os"
	"testing"

	"github.com/simdhash/simdhash/internal/cpuid"
	"github.com/simdhash/simdhash/internal/oracle"
)

// dispatchOracle derives the kernel from the flags line of /proc/cpuinfo,
// a source independent of golang.org/x/sys/cpu, and GODEBUG, by the rule
// of internal/oracle. Under qemu-user /proc/cpuinfo describes the host,
// which is why the emulated runs set SIMDHASH_GHASH_KERNEL instead.
func dispatchOracle(t *testing.T) (string, string) {
	f, err := cpuid.CPUInfoFlags()
	if err != nil {
		return "", "/proc/cpuinfo cannot be read: " + err.Error()
	}
	return oracle.X86(f, os.Getenv("GODEBUG")).GHASH, "internal/oracle's rule on /proc/cpuinfo's flags and GODEBUG"
}
