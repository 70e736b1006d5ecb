package sha1

import (
	"fmt"
	"testing"
)

// TestSumManyStagger hashes pieces of a power-of-two size laid end to end
// in one buffer, whose lanes stagger holds back (every lane on one L1
// set), alone, among messages of other lengths, and with calls of at most
// 1 and 2 blocks, with every kernel; and checks that stagger holds lanes
// back there, by at most the call's blocks, and not for pieces apart.
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

	// stagger itself: 16 lanes at the start of 16 pieces end to end.
	var (
		pad  [maxLanes][2 * BlockSize]byte
		jobs [maxLanes]laneJob
		s    manyLanes
	)
	for _, stride := range []int{size, size + 64} {
		msgs := make([][]byte, maxLanes)
		for l := range msgs {
			msgs[l] = buf[l*stride : l*stride+size]
			startLane(&s, &pad[l], &jobs[l], l, msgs[l], l)
		}
		hold, shift := stagger(&pad, &jobs, msgs, 1<<maxLanes-1, maxLanes)
		msg := fmt.Sprintf("stride %d: hold %v, shift %d", stride, hold, shift)
		if stride == size+64 {
			if shift != 0 || hold != [maxLanes]int{} {
				t.Errorf("%s: want none held for pieces apart", msg)
			}
			continue
		}
		perShift := map[int]int{}
		for _, h := range hold {
			if h < 0 || h > shift {
				t.Errorf("%s: a hold outside 0..%d", msg, shift)
			}
			perShift[h]++
		}
		if shift == 0 || len(perShift) != shift+1 {
			t.Errorf("%s: want the lanes spread over several holds", msg)
		}
		for h, n := range perShift {
			if n > manyLanesPerSet {
				t.Errorf("%s: %d lanes held %d blocks, more than %d a set", msg, n, h, manyLanesPerSet)
			}
		}
	}
}
