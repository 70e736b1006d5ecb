// Command ghash_pclmul generates the amd64 GHASH kernels of package ghash,
// with the 64x64-bit carry-less multiply PCLMULQDQ:
//
//   - ghashPCLMUL, in SSE encodings (SSE2, SSSE3, PCLMULQDQ);
//   - ghashPCLMULAVX, the same description in VEX encodings (AVX,
//     PCLMULQDQ), which need no register copies;
//   - ghashPowers, which fills the key's powers H^2..H^8 from H.
//
// Both kernels absorb eight blocks per reduction in their main loop, with
// Karatsuba products and precomputed powers of H (ghash.go describes the
// method and the key layout). Usage, from the ghash package directory:
//
//	go -C ../gen run ./ghash_pclmul -out ../ghash/ghash_amd64.s
package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
)

func main() {
	avogen.Main("ghash_pclmul", "ghash", nil, func(ctx *build.Context) error {
		generate(ctx)
		return nil
	})
}
