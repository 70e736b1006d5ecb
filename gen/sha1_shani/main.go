// Command sha1_shani generates the SHA-1 block function of package sha1
// that uses the Intel SHA extensions, described in gen/internal/sha1shani,
// for one stream. Usage, from the sha1 package directory:
//
//	go -C ../gen run ./sha1_shani -out ../sha1/sha1block_shani_amd64.s
package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/sha1shani"
)

func main() {
	avogen.Main("sha1_shani", "sha1", nil, func(ctx *build.Context) error { return sha1shani.Generate(ctx, "blockSHANI", 1) })
}
