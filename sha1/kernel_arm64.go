//go:build arm64 && !purego

package sha1

import "golang.org/x/sys/cpu"

// hasSHA1Ext tests every extension on the "Requires:" line of blockCE in
// sha1block_ce_arm64.s: ASIMD and SHA1. GODEBUG=cpu.sha1=off turns it off.
var hasSHA1Ext = cpu.ARM64.HasSHA1 && cpu.ARM64.HasASIMD

// hasNEON tests the extension on the "Requires:" line of blockNEON in
// sha1block_neon_arm64.s: ASIMD, which every arm64 core has but which
// GODEBUG=cpu.asimd=off can turn off. The registry tries ce first, so neon
// runs where the SHA1 instructions are missing (a Cortex-A53 or A72
// without the Cryptographic Extension), or turned off with
// GODEBUG=cpu.sha1=off.
var hasNEON = cpu.ARM64.HasASIMD
