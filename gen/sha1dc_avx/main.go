// Command sha1dc_avx generates package sha1dc's AVX kernel: the SHA-1
// block function of gen/sha1_avx (the description of
// gen/internal/sha1sched through gen/internal/sha1x86) with the UBC check
// of gen/internal/ubcvec among its rounds, stopping before the first block
// whose mask is not zero (sha1sched.Checked).
//
//	go -C ../gen run ./sha1dc_avx -out ../sha1dc/check_avx_amd64.s [knobs]
//
// The knobs are gen/sha1_avx's, listed by -help.
package main

import "github.com/simdhash/simdhash/gen/internal/sha1x86"

func main() { sha1x86.MainChecked(sha1x86.AVX) }
