package sha1

import (
	"math/rand/v2"
	"testing"
)

// forEachKernel runs f as one subtest per entry of kernels, named after the
// kernel, with that kernel active. A kernel this CPU cannot run is skipped
// with a reason, never replaced by another one, so the test output shows
// exactly which kernels were exercised.
func forEachKernel(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	if len(kernels) == 0 || kernels[len(kernels)-1].name != "generic" {
		t.Fatalf("kernel registry must end with generic, got %v", kernelNames())
	}
	for i := range kernels {
		k := &kernels[i]
		t.Run(k.name, func(t *testing.T) {
			if !k.available {
				t.Skipf("kernel %q not available: the CPU lacks an extension it needs, or GODEBUG disabled one", k.name)
			}
			saved := active
			active = k
			t.Cleanup(func() { active = saved })
			f(t)
		})
	}
}

// withEachAvailableKernel calls f once with each available kernel active, for
// fuzz targets, where subtests are not allowed.
func withEachAvailableKernel(f func(name string)) {
	saved := active
	defer func() { active = saved }()
	for i := range kernels {
		if kernels[i].available {
			active = &kernels[i]
			f(kernels[i].name)
		}
	}
}

func kernelNames() []string {
	var names []string
	for _, k := range kernels {
		names = append(names, k.name)
	}
	return names
}

// randomBytes returns n bytes from rng.
func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// newRand returns a generator seeded from the test name, so every run of a
// test sees the same data and a failure can be reproduced.
func newRand(t testing.TB) *rand.Rand {
	var seed uint64
	for _, c := range t.Name() {
		seed = seed*1099511628211 + uint64(c)
	}
	return rand.New(rand.NewPCG(seed, 0x5ea1))
}
