// Command sha1_many_ce generates the interleaved kernel of sha1.SumMany
// for arm64 cores with the SHA1 instructions: two streams of the
// description of gen/internal/sha1ce, one message a stream, of the
// multi-lane contract (sha1ce's lanes.go). Usage, from the sha1 package
// directory:
//
//	go -C ../gen run ./sha1_many_ce -out ../sha1/sha1many_ce_arm64.s [-gnu loop.s] [knobs]
//
// -help lists the knobs (-ahead, -copied, -schedule), as for gen/sha1_ce.
package main

import "github.com/simdhash/simdhash/gen/internal/sha1ce"

func main() {
	o := sha1ce.Defaults
	o.Streams, o.Lanes = 2, true
	g := sha1ce.Command(&o)
	g.Name = "sha1_many_ce"
	g.GNUAbout = "The block loop of manyCE2 in GNU syntax (for llvm-mca), two blocks of each of 2 lanes:"
	g.Main()
}
