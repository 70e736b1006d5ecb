// Command sha1_avx2 generates the AVX2 SHA-1 block function: the schedule
// groups of gen/internal/sha1x86 on YMM registers, two blocks per pass, with
// BMI1/BMI2 rounds.
//
//	go -C ../gen run ./sha1_avx2 -out ../sha1/sha1block_avx2_amd64.s
package main

import "github.com/simdhash/simdhash/gen/internal/sha1x86"

func main() { sha1x86.Main(sha1x86.AVX2) }
