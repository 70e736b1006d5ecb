//go:build linux && amd64 && !purego

package ghash

import (
	"os"
	"strings"
	"testing"
)

// dispatchOracle derives the kernel from the flags line of /proc/cpuinfo,
// a source independent of golang.org/x/sys/cpu, and GODEBUG. Under
// qemu-user /proc/cpuinfo describes the host, which is why the emulated
// runs set SIMDHASH_GHASH_KERNEL instead.
func dispatchOracle(t *testing.T) (string, string) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "", "/proc/cpuinfo cannot be read: " + err.Error()
	}
	f := map[string]bool{"sse2": true} // amd64's baseline; x/sys/cpu cannot turn it off
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "flags" {
			for _, x := range strings.Fields(v) {
				f[x] = true
			}
			break
		}
	}
	off := godebugOff()
	delete(off, "sse2")
	// GODEBUG's cpu.avx512=off (golang.org/x/sys/cpu's key for AVX-512 as
	// a whole) and cpu.avx512vpclmulqdq=off name no flag of the file.
	avx512 := !off["avx512"] && !off["all"] && has(f, off, "avx512f") && has(f, off, "avx512vl") && has(f, off, "avx512bw")
	switch {
	case avx512 && !off["avx512vpclmulqdq"] && has(f, off, "vpclmulqdq") && has(f, off, "avx2") && has(f, off, "avx") && has(f, off, "pclmulqdq"):
		return "vpclmul512", "/proc/cpuinfo (avx512f, avx512vl, avx512bw, vpclmulqdq, avx2, avx, pclmulqdq)"
	case has(f, off, "vpclmulqdq") && has(f, off, "avx2") && has(f, off, "avx") && has(f, off, "pclmulqdq"):
		return "vpclmul256", "/proc/cpuinfo (vpclmulqdq, avx2, avx, pclmulqdq)"
	case has(f, off, "pclmulqdq") && has(f, off, "avx"):
		return "pclmul", "/proc/cpuinfo (pclmulqdq, avx)"
	case has(f, off, "pclmulqdq") && has(f, off, "ssse3"):
		return "pclmul-sse", "/proc/cpuinfo (pclmulqdq, ssse3, no avx)"
	}
	return genericName, "/proc/cpuinfo (no pclmulqdq, or neither avx nor ssse3)"
}
