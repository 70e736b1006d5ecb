//go:build linux && (arm64 || arm) && !purego

package ghash

import (
	"encoding/binary"
	"os"
	"runtime"
	"testing"
)

// dispatchOracle derives the kernel from the hardware capability words
// that the kernel (or qemu-user) passes in the auxiliary vector, read from
// /proc/self/auxv by this test's own parser, and GODEBUG.
func dispatchOracle(t *testing.T) (string, string) {
	b, err := os.ReadFile("/proc/self/auxv")
	if err != nil {
		return "", "/proc/self/auxv cannot be read: " + err.Error()
	}
	word := 8
	if runtime.GOARCH == "arm" {
		word = 4
	}
	const atHWCAP, atHWCAP2 = 16, 26
	var hwcap, hwcap2 uint64
	for i := 0; i+2*word <= len(b); i += 2 * word {
		var k, v uint64
		if word == 8 {
			k, v = binary.LittleEndian.Uint64(b[i:]), binary.LittleEndian.Uint64(b[i+8:])
		} else {
			k, v = uint64(binary.LittleEndian.Uint32(b[i:])), uint64(binary.LittleEndian.Uint32(b[i+4:]))
		}
		switch k {
		case atHWCAP:
			hwcap = v
		case atHWCAP2:
			hwcap2 = v
		}
	}
	f := map[string]bool{}
	simd := "asimd" // x/sys/cpu's GODEBUG name for Advanced SIMD
	if runtime.GOARCH == "arm64" {
		f["asimd"] = hwcap&(1<<1) != 0 // HWCAP_ASIMD
		f["pmull"] = hwcap&(1<<4) != 0 // HWCAP_PMULL
	} else {
		simd = "neon"
		f["neon"] = hwcap&(1<<12) != 0  // HWCAP_NEON
		f["pmull"] = hwcap2&(1<<1) != 0 // HWCAP2_PMULL
	}
	switch {
	case has(f, "pmull") && has(f, simd):
		return "pmull", "AT_HWCAP (PMULL and Advanced SIMD)"
	case has(f, simd):
		return "neon", "AT_HWCAP (Advanced SIMD, no PMULL)"
	}
	return genericName, "AT_HWCAP (no Advanced SIMD)"
}
