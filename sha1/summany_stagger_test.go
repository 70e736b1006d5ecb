package sha1

import "testing"

// TestSumManyStagger hashes pieces of a power-of-two size laid end to end
// in one buffer, whose lanes the scheduler holds back (every lane on one
// L1 set: internal/lanes' TestStagger), alone, among messages of other
// lengths, and with calls of at most 1 and 2 blocks, with every kernel.
func TestSumManyStagger(t *testing.T) {
	saved := manyMaxCall
	t.Cleanup(func() { manyMaxCall = saved })
	rng := newRand(t)
	const size = 8 << 10
	buf := randomBytes(rng, 24*size+4096)
	var pieces, mixed [][]byte
	for i := 0; i < 24; i++ {
		pieces = append(pieces, buf[i*size:(i+1)*size])
	}
	mixed = append(append(mixed, pieces[:17]...), randomBatch(rng, 9, 9000)...)
	for _, c := range []struct {
		name string
		msgs [][]byte
		max  int
	}{{"pieces", pieces, saved}, {"mixed", mixed, saved}, {"pieces, 1-block calls", pieces, 1}, {"pieces, 2-block calls", pieces, 2}} {
		manyMaxCall = c.max
		forEachManyKernel(t, func(t *testing.T, k *manyKernel) {
			sums := make([][Size]byte, len(c.msgs))
			sumMany(sums, c.msgs, k)
			checkSums(t, c.name, sums, c.msgs)
		})
	}

}
