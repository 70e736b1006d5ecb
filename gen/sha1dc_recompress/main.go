// Command sha1dc_recompress generates package sha1dc's recompression of
// sixteen blocks at once with AVX-512 (gen/internal/ubcrecomp), for the
// blocks SumMany's multi-lane kernels record: recompressAVX512x58 and
// recompressAVX512x65, one for each test step of the DVs. Usage, from the
// sha1dc package directory:
//
//	go -C ../gen run ./sha1dc_recompress -out ../sha1dc/recompress_avx512_amd64.s
package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/ubcrecomp"
)

func main() {
	avogen.Main("sha1dc_recompress", "sha1dc", nil, func(ctx *build.Context) error {
		return ubcrecomp.Generate(ctx, "recompressAVX512x")
	})
}
