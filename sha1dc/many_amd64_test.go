//go:build amd64 && !purego

package sha1dc

import (
	"testing"

	"github.com/simdhash/simdhash/internal/lanes"
)

// Every checking multi-lane kernel records exactly the blocks whose mask
// is not zero, in the lanes that absorb them, with the mask the portable
// check gives and the lane's state before the block, on batches with
// blocks reaching each DV; its states after each call are plain SHA-1's.
func TestManyRecords(t *testing.T) {
	rng := newRand(t)
	for i := range manyKernels {
		k := &manyKernels[i]
		if k.lanes == 0 {
			continue
		}
		t.Run(k.name, func(t *testing.T) {
			if !k.available {
				t.Skipf("kernel %q not available on this CPU", k.name)
			}
			for trial := range 20 {
				msgs := make([][]byte, k.lanes+rng.IntN(2*k.lanes))
				for i := range msgs {
					var m []byte
					for range rng.IntN(40) {
						if rng.IntN(3) == 0 {
							m = append(m, reachBlock(t, rng.IntN(len(ubcReachBlocks)), rng.IntN(len(ubcReachBlocks[0])))...)
						} else {
							m = append(m, randomBytes(rng, BlockSize)...)
						}
					}
					msgs[i] = append(m, randomBytes(rng, rng.IntN(BlockSize))...)
				}
				var (
					s   lanes.Scheduler
					st  lanes.State
					pad lanes.Pads
					rec records
				)
				s.Start(len(msgs), k.lanes, 1, maxRecords)
				for calls := 0; ; calls++ {
					n := s.Next(msgs, &pad, &st)
					if n == 0 {
						break
					}
					for l := 0; l < k.lanes; l++ {
						st.P[0][l], st.P[1][l], st.C[0][l], st.C[1][l] = s.Lane(l, msgs, &pad)
						st.P[2][l], st.P[3][l] = s.Hint(l, msgs, &pad)
					}
					// What the records must say, and the states after.
					want := map[[2]int]uint32{} // (block, lane) -> mask
					var hs [lanes.MaxLanes][5]uint32
					var befores [maxRecords][lanes.MaxLanes][5]uint32
					for l := 0; l < k.lanes; l++ {
						h := st.Lane(l)
						for b := 0; b < s.Absorbs(l); b++ {
							befores[b][l] = h
							var w [80]uint32
							var ss [len(testSteps)][5]uint32
							compressW(&h, (*[BlockSize]byte)(s.Block(l, b, msgs, &pad)), &w, &ss)
							if m := ubcCheck(&w); m != 0 {
								want[[2]int{b, l}] = m
							}
						}
						hs[l] = h
					}
					nrec := manyBlocks(k, &st, n, &rec)
					got := map[[2]int]uint32{}
					for r := range rec[:nrec] {
						b := int(rec[r][6][0])
						any := false
						for l := 0; l < k.lanes; l++ {
							if m := rec[r][0][l]; m != 0 {
								any = true
								got[[2]int{b, l}] = m
								if h := [5]uint32{rec[r][1][l], rec[r][2][l], rec[r][3][l], rec[r][4][l], rec[r][5][l]}; h != befores[b][l] {
									t.Fatalf("trial %d, call %d: record of block %d, lane %d: h %08x, want %08x", trial, calls, b, l, h, befores[b][l])
								}
							}
						}
						if !any {
							t.Fatalf("trial %d, call %d: record %d of block %d has no mask", trial, calls, r, b)
						}
					}
					if len(got) != len(want) {
						t.Fatalf("trial %d, call %d (%d blocks): %d flagged lane-blocks recorded, want %d", trial, calls, n, len(got), len(want))
					}
					for key, m := range want {
						if got[key] != m {
							t.Fatalf("trial %d, call %d: block %d, lane %d: mask %#08x, want %#08x", trial, calls, key[0], key[1], got[key], m)
						}
					}
					for l := 0; l < k.lanes; l++ {
						if h := st.Lane(l); h != hs[l] {
							t.Fatalf("trial %d, call %d: lane %d: h %08x, want %08x", trial, calls, l, h, hs[l])
						}
					}
					if _, all := s.Done(); all {
						break
					}
				}
			}
		})
	}
}
