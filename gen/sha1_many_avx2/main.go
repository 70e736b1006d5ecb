// Command sha1_many_avx2 generates the 8-lane SHA-1 kernel of sha1.SumMany:
// the multi-lane description of gen/internal/sha1many with AVX2, eight
// messages per YMM register.
//
//	go -C ../gen run ./sha1_many_avx2 -out ../sha1/sha1many_avx2_amd64.s [knobs]
//
// The knobs (-lookahead, -ch, -maj, -load) are listed by -help.
package main

import "github.com/simdhash/simdhash/gen/internal/sha1many"

func main() { sha1many.Main("sha1_many_avx2", sha1many.AVX2, "manyAVX2") }
