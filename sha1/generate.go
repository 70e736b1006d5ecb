package sha1

// The SSSE3, AVX and AVX2 kernels are generated from one description of the
// schedule in gen/internal/sha1x86 (SSSE3 and AVX for 386 too, with -arch
// 386), the SHA-NI kernel by gen/sha1_shani (whose dispatch reads CPUID
// through internal/cpuid); the arm64 and arm
// kernels with the SHA1 instructions from one description by gen/sha1_ce;
// the arm64 and arm kernels for cores without them, the same schedule as
// SSSE3 and AVX on NEON, by gen/sha1_neon (gen/internal/sha1arm);
// SumMany's multi-lane kernels from the description in gen/internal/sha1many.
// The header of each .s names its command.

//go:generate go -C ../gen run ./sha1_ssse3 -out ../sha1/sha1block_ssse3_amd64.s
//go:generate go -C ../gen run ./sha1_avx -out ../sha1/sha1block_avx_amd64.s
//go:generate go -C ../gen run ./sha1_ssse3 -arch 386 -out ../sha1/sha1block_ssse3_386.s
//go:generate go -C ../gen run ./sha1_avx -arch 386 -out ../sha1/sha1block_avx_386.s
//go:generate go -C ../gen run ./sha1_avx2 -out ../sha1/sha1block_avx2_amd64.s
//go:generate go -C ../gen run ./sha1_shani -out ../sha1/sha1block_shani_amd64.s
//go:generate go -C ../gen run ./sha1_many_avx2 -out ../sha1/sha1many_avx2_amd64.s
//go:generate go -C ../gen run ./sha1_many_avx512 -out ../sha1/sha1many_avx512_amd64.s
//go:generate go -C ../gen run ./sha1_many_shani -out ../sha1/sha1many_shani_amd64.s
//go:generate go -C ../gen run ./sha1_ce -out ../sha1/sha1block_ce_arm64.s
//go:generate go -C ../gen run ./sha1_ce -arch arm -out ../sha1/sha1block_ce_arm.s
//go:generate go -C ../gen run ./sha1_neon -out ../sha1/sha1block_neon_arm64.s
//go:generate go -C ../gen run ./sha1_neon -arch arm -out ../sha1/sha1block_neon_arm.s
//go:generate go -C ../gen run ./sha1_many_neon -out ../sha1/sha1many_neon_arm64.s
//go:generate go -C ../gen run ./sha1_many_ce -out ../sha1/sha1many_ce_arm64.s
