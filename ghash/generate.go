package ghash

// The arm64 kernels are generated; see gen/ghash_neon for the description
// of GHASH they come from and for the generator's knobs.
//go:generate go -C ../gen run ./ghash_neon -out ../ghash/ghash_arm64.s

// The 32-bit arm kernels come from the same description (-arch arm).
//go:generate go -C ../gen run ./ghash_neon -arch arm -out ../ghash/ghash_arm.s

// The amd64 kernels come from one description at three vector widths: see
// gen/ghash_pclmul.
//go:generate go -C ../gen run ./ghash_pclmul -out ../ghash/ghash_amd64.s
//go:generate go -C ../gen run ./ghash_pclmul -width 256 -out ../ghash/ghash_vpclmul256_amd64.s
//go:generate go -C ../gen run ./ghash_pclmul -width 512 -out ../ghash/ghash_vpclmul512_amd64.s
