// Command sha1_avx2 generates the AVX2 SHA-1 block function: the schedule
// groups of gen/internal/sha1sched on YMM registers, two blocks per pass,
// with BMI1/BMI2 rounds (gen/internal/sha1x86, avx2.go).
//
//	go -C ../gen run ./sha1_avx2 -out ../sha1/sha1block_avx2_amd64.s [knobs]
//
// Its knobs (-placement, -ch, -maj, -align) are listed by -help. It has
// no -lookahead (its precalculation runs a whole pair ahead) and no
// -rotate (its rounds rotate with RORX).
package main

import "github.com/simdhash/simdhash/gen/internal/sha1x86"

func main() { sha1x86.Main(sha1x86.AVX2) }
