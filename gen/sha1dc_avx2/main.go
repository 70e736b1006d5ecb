// Command sha1dc_avx2 generates package sha1dc's AVX2 kernel: the SHA-1
// block function of gen/sha1_avx2 (the description of
// gen/internal/sha1sched through gen/internal/sha1x86) with the UBC check
// of gen/internal/ubcvec among its rounds, stopping before the first block
// whose mask is not zero (sha1sched.Checked).
//
//	go -C ../gen run ./sha1dc_avx2 -out ../sha1dc/check_avx2_amd64.s [knobs]
//
// The knobs are gen/sha1_avx2's, listed by -help.
package main

import "github.com/simdhash/simdhash/gen/internal/sha1x86"

func main() { sha1x86.MainChecked(sha1x86.AVX2) }
