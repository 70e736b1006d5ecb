// Command sha1dc_neon generates package sha1dc's neon kernel for arm64:
// the block function of gen/sha1_neon (gen/internal/sha1arm) with the UBC
// check of gen/internal/ubcvec among its rounds, stopping before the
// first block whose mask is not zero (sha1sched.Checked). Usage, from the
// sha1dc package directory:
//
//	go -C ../gen run ./sha1dc_neon -out ../sha1dc/check_neon_arm64.s [-gnu loop.s] [knobs]
//
// -gnu writes the block loop (one block) in GNU syntax, for llvm-mca
// (scripts/mca.sh). The knobs are gen/sha1_neon's for arm64.
package main

import "github.com/simdhash/simdhash/gen/internal/sha1arm"

func main() { sha1arm.Command(true).Main() }
