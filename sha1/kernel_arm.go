//go:build arm && !purego

package sha1

import "golang.org/x/sys/cpu"

// hasSHA1Ext tests every extension on the "Requires:" line of blockCE in
// sha1block_ce_arm.s: NEON and SHA1 (the AArch32 SHA-1 instructions of an
// Armv8 core running 32-bit code). The instructions are WORDs, which
// assemble whatever GOARM is; a GOARM=6 binary on an ARM11 runs generic.
// GODEBUG=cpu.sha1=off turns it off.
var hasSHA1Ext = cpu.ARM.HasSHA1 && cpu.ARM.HasNEON

// hasNEON tests the extension on the "Requires:" line of blockNEON in
// sha1block_neon_arm.s: NEON (a Cortex-A7, A9, A15, or an Armv8 core
// without the SHA-1 instructions). Its NEON instructions are WORDs too:
// a GOARM=6 binary on an ARM11, which has no NEON, runs generic.
var hasNEON = cpu.ARM.HasNEON
