package sha1dc

// The collision check, the DV table and the portable compression that keeps
// what the check needs are generated from the one description of the
// check, gen/internal/ubc, by gen/sha1dc_ubc; so are the tables the tests
// hold them to. The header of each generated file names its command.

//go:generate go -C ../gen run ./sha1dc_ubc -out ../sha1dc/ubc_generated.go -test ../sha1dc/ubc_generated_test.go

// The checking kernels: package sha1's kernels with the check of
// gen/internal/ubcvec among their rounds (gen/internal/sha1sched's Checked
// contract).

//go:generate go -C ../gen run ./sha1dc_shani -out ../sha1dc/check_shani_amd64.s
//go:generate go -C ../gen run ./sha1dc_shani -avx -out ../sha1dc/check_shaniavx_amd64.s
//go:generate go -C ../gen run ./sha1dc_shani -avx512 -out ../sha1dc/check_shani512_amd64.s
//go:generate go -C ../gen run ./sha1dc_avx2 -out ../sha1dc/check_avx2_amd64.s
//go:generate go -C ../gen run ./sha1dc_ssse3 -out ../sha1dc/check_ssse3_amd64.s
//go:generate go -C ../gen run ./sha1dc_ce -out ../sha1dc/check_ce_arm64.s
//go:generate go -C ../gen run ./sha1dc_neon -out ../sha1dc/check_neon_arm64.s
//go:generate go -C ../gen run ./sha1dc_avx -out ../sha1dc/check_avx_amd64.s

// SumMany's checking multi-lane kernels: package sha1's, from
// gen/internal/sha1many, with the check.

//go:generate go -C ../gen run ./sha1dc_many_avx512 -out ../sha1dc/many_avx512_amd64.s
//go:generate go -C ../gen run ./sha1dc_many_avx2 -out ../sha1dc/many_avx2_amd64.s

// The recompression of sixteen recorded blocks at once with AVX-512, for
// SumMany (gen/internal/ubcrecomp).

//go:generate go -C ../gen run ./sha1dc_recompress -out ../sha1dc/recompress_avx512_amd64.s
