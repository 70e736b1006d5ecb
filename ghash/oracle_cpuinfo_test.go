//go:build linux && amd64 && !purego

package ghash

import (
	"os"
	"testing"

	"github.com/simdhash/simdhash/internal/cpuid"
)

// dispatchOracle derives the kernel from the flags line of /proc/cpuinfo,
// a source independent of golang.org/x/sys/cpu, and GODEBUG. Under
// qemu-user /proc/cpuinfo describes the host, which is why the emulated
// runs set SIMDHASH_GHASH_KERNEL instead.
func dispatchOracle(t *testing.T) (string, string) {
	f, err := cpuid.CPUInfoFlags()
	if err != nil {
		return "", "/proc/cpuinfo cannot be read: " + err.Error()
	}
	env := os.Getenv("GODEBUG")
	// GODEBUG's cpu.avx512=off (golang.org/x/sys/cpu's key for AVX-512 as
	// a whole) and cpu.avx512vpclmulqdq=off name no flag of the file.
	avx512 := !cpuid.GodebugOff(env, "avx512") && has(f, "avx512f") && has(f, "avx512vl") && has(f, "avx512bw")
	switch {
	case avx512 && !cpuid.GodebugOff(env, "avx512vpclmulqdq") && has(f, "vpclmulqdq") && has(f, "avx2") && has(f, "avx") && has(f, "pclmulqdq"):
		return "vpclmul512", "/proc/cpuinfo (avx512f, avx512vl, avx512bw, vpclmulqdq, avx2, avx, pclmulqdq)"
	case has(f, "vpclmulqdq") && has(f, "avx2") && has(f, "avx") && has(f, "pclmulqdq"):
		return "vpclmul256", "/proc/cpuinfo (vpclmulqdq, avx2, avx, pclmulqdq)"
	case has(f, "pclmulqdq") && has(f, "avx"):
		return "pclmul", "/proc/cpuinfo (pclmulqdq, avx)"
	case has(f, "pclmulqdq") && has(f, "ssse3"):
		return "pclmul-sse", "/proc/cpuinfo (pclmulqdq, ssse3, no avx)"
	}
	return genericName, "/proc/cpuinfo (no pclmulqdq, or neither avx nor ssse3)"
}
