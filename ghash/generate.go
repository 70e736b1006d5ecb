package ghash

// The arm64 kernels are generated; see gen/ghash_neon for the description
// of GHASH they come from and for the generator's knobs.
//go:generate go run github.com/simdhash/simdhash/gen/ghash_neon -out ghash_arm64.s

// The 32-bit arm kernels come from the same description (-arch arm).
//go:generate go run github.com/simdhash/simdhash/gen/ghash_neon -arch arm -out ghash_arm.s

// The amd64 kernels: see gen/ghash_pclmul.
//go:generate go run github.com/simdhash/simdhash/gen/ghash_pclmul -out ghash_amd64.s
