// Command sha1_ce generates the SHA-1 block function of package sha1 for
// CPUs with the SHA-1 instructions of the Arm Cryptographic Extension,
// described in gen/internal/sha1ce: for arm64 (sha1block_ce_arm64.s) and
// for 32-bit ARM code on Armv8 cores (-arch arm, sha1block_ce_arm.s).
// Usage, from the sha1 package directory:
//
//	go -C ../gen run ./sha1_ce [-arch arm] -out ../sha1/sha1block_ce_arm64.s [-gnu loop.s] [knobs]
//
// -help lists the knobs (-ahead, -copied, -schedule).
package main

import "github.com/simdhash/simdhash/gen/internal/sha1ce"

func main() {
	o := sha1ce.Defaults
	sha1ce.Command(&o).Main()
}
