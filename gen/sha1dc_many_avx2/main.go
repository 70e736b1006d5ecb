// Command sha1dc_many_avx2 generates the checking 8-lane kernel of
// package sha1dc's SumMany: sha1's avx2x8 kernel (gen/internal/sha1many)
// with the UBC check of every lane's block beside the rounds and a record
// of each block with a surviving DV (sha1many.GenerateChecked).
//
//	go -C ../gen run ./sha1dc_many_avx2 -out ../sha1dc/many_avx2_amd64.s [knobs]
package main

import "github.com/simdhash/simdhash/gen/internal/sha1many"

func main() {
	sha1many.MainChecked("sha1dc_many_avx2", sha1many.AVX2Checked, "manyAVX2")
}
