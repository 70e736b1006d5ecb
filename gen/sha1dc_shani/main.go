// Command sha1dc_shani generates package sha1dc's SHA-NI kernels: the
// one-stream SHA-1 block function of gen/internal/sha1shani with the UBC
// check of gen/internal/ubcvec beside the SHA instructions, stopping
// before the first block whose mask is not zero (sha1sched.Checked): with
// the check on SSE registers (checkSHANI), with -avx on the same
// registers but each Kill one AVX blend (checkSHANIAVX), or with -avx512
// in the gather form on ZMM registers (checkSHANI512). Usage, from the
// sha1dc package directory:
//
//	go -C ../gen run ./sha1dc_shani -out ../sha1dc/check_shani_amd64.s
//	go -C ../gen run ./sha1dc_shani -avx -out ../sha1dc/check_shaniavx_amd64.s
//	go -C ../gen run ./sha1dc_shani -avx512 -out ../sha1dc/check_shani512_amd64.s
package main

import (
	"errors"
	"flag"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/sha1shani"
)

func main() {
	var avx, avx512 bool
	avogen.Main("sha1dc_shani", "sha1dc", func(fs *flag.FlagSet) {
		fs.BoolVar(&avx, "avx", false, "each Kill of the check one AVX blend (checkSHANIAVX)")
		fs.BoolVar(&avx512, "avx512", false, "the check in AVX-512's gather form (checkSHANI512), not on SSE registers (checkSHANI)")
	}, func(ctx *build.Context) error {
		switch {
		case avx && avx512:
			return errors.New("sha1dc_shani: -avx and -avx512 are two kernels: give one")
		case avx:
			return sha1shani.GenerateChecked(ctx, "checkSHANIAVX", sha1shani.CheckBlend)
		case avx512:
			return sha1shani.GenerateChecked(ctx, "checkSHANI512", sha1shani.CheckGather)
		}
		return sha1shani.GenerateChecked(ctx, "checkSHANI", sha1shani.CheckSSE)
	})
}
