// Command sha1_many_shani generates the interleaved SHA-NI kernels of
// sha1.SumMany, described in gen/internal/sha1shani (lanes.go): 2, 3 and
// 4 streams of the SHA instructions, one message per stream, of the
// multi-lane contract (sha1sched.Lanes). Usage, from the sha1 package
// directory:
//
//	go -C ../gen run ./sha1_many_shani -out ../sha1/sha1many_shani_amd64.s
package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/sha1shani"
)

func main() {
	avogen.Main("sha1_many_shani", "sha1", nil, func(ctx *build.Context) error {
		for streams := 2; streams <= 4; streams++ {
			if err := sha1shani.GenerateLanes(ctx, fmt.Sprintf("manySHANI%d", streams), streams); err != nil {
				return err
			}
		}
		return nil
	})
}
