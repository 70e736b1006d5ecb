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
//	go run github.com/simdhash/simdhash/gen/ghash_pclmul -out ghash_amd64.s
package main

import (
	"flag"
	"os"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
)

func main() {
	fs := flag.NewFlagSet("ghash_pclmul", flag.ExitOnError)
	out := fs.String("out", "", "write the Go assembly to `file` (required)")
	pkg := fs.String("pkg", "ghash", "Go package of the output")
	fs.Parse(os.Args[1:])
	if *out == "" || fs.NArg() != 0 {
		fs.Usage()
		os.Exit(2)
	}
	ctx := build.NewContext()
	ctx.Package("github.com/simdhash/simdhash/" + *pkg)
	ctx.ConstraintExpr("amd64,!purego")
	generate(ctx)
	if err := avogen.Write(ctx, *out, *pkg, avogen.Command(os.Args[1:])); err != nil {
		avogen.Fatal("ghash_pclmul", err)
	}
}
