// Command sha1_many_avx512 generates the 16-lane SHA-1 kernel of
// sha1.SumMany: the multi-lane description of gen/internal/sha1many with
// AVX-512, sixteen messages per ZMM register (VPTERNLOGD for Ch, Parity
// and Maj, VPROLD for the rotates, an opmask for the live lanes).
//
//	go -C ../gen run ./sha1_many_avx512 -out ../sha1/sha1many_avx512_amd64.s [knobs]
//
// The knobs (-lookahead, -load) are listed by -help.
package main

import "github.com/simdhash/simdhash/gen/internal/sha1many"

func main() { sha1many.Main("sha1_many_avx512", sha1many.AVX512, "manyAVX512") }
