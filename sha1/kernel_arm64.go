//go:build arm64 && !purego

package sha1

import "golang.org/x/sys/cpu"

// hasSHA1Ext tests every extension on the "Requires:" line of blockCE in
// sha1block_ce_arm64.s: ASIMD and SHA1. GODEBUG=cpu.sha1=off turns it off.
var hasSHA1Ext = cpu.ARM64.HasSHA1 && cpu.ARM64.HasASIMD
