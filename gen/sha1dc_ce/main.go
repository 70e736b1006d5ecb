// Command sha1dc_ce generates package sha1dc's ce kernel for arm64: the
// block function of gen/sha1_ce (gen/internal/sha1ce) with the UBC check
// of gen/internal/ubcvec beside the SHA1 instructions, stopping before the
// first block whose mask is not zero (sha1sched.Checked). Usage, from the
// sha1dc package directory:
//
//	go -C ../gen run ./sha1dc_ce -out ../sha1dc/check_ce_arm64.s [-gnu loop.s] [knobs]
//
// -gnu writes the block loop (two blocks) in GNU syntax, for llvm-mca
// (scripts/mca.sh). The knobs are gen/sha1_ce's.
package main

import "github.com/simdhash/simdhash/gen/internal/sha1ce"

func main() {
	o := sha1ce.Defaults
	o.Checked = true
	sha1ce.Command(&o).Main()
}
