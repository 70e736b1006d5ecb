// Command sha1dc_shani generates package sha1dc's SHA-NI kernels: the
// one-stream SHA-1 block function of gen/internal/sha1shani with the UBC
// check of gen/internal/ubcvec beside the SHA instructions, stopping
// before the first block whose mask is not zero (sha1sched.Checked): with
// the check on SSE registers (checkSHANI), or with -avx512 in the gather
// form on ZMM registers (checkSHANI512). Usage, from the sha1dc package
// directory:
//
//	go -C ../gen run ./sha1dc_shani -out ../sha1dc/check_shani_amd64.s
//	go -C ../gen run ./sha1dc_shani -avx512 -out ../sha1dc/check_shani512_amd64.s
package main

import (
	"flag"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/sha1shani"
)

func main() {
	var avx512 bool
	avogen.Main("sha1dc_shani", "sha1dc", func(fs *flag.FlagSet) {
		fs.BoolVar(&avx512, "avx512", false, "the check in AVX-512's gather form (checkSHANI512), not on SSE registers (checkSHANI)")
	}, func(ctx *build.Context) error {
		name := "checkSHANI"
		if avx512 {
			name = "checkSHANI512"
		}
		return sha1shani.GenerateChecked(ctx, name, avx512)
	})
}
