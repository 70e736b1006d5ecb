package lanes

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// Block names the block the kernel's contract has each lane absorb at
// each of a call's blocks, and Rest what is left for the single-stream
// finish: driven with a model kernel that reads the blocks as State
// says, every message's blocks come out once each, in order, for 1 to 16
// lanes and several thresholds.
func TestBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 22))
	for trial := range 200 {
		lanes := 1 + rng.IntN(MaxLanes)
		msgs := make([][]byte, rng.IntN(40))
		for i := range msgs {
			msgs[i] = make([]byte, rng.IntN(20*BlockSize))
			for j := range msgs[i] {
				msgs[i][j] = byte(rng.Uint32())
			}
		}
		seen := make([][][]byte, len(msgs)) // each message's blocks, as absorbed
		var (
			s   Scheduler
			st  State
			pad Pads
		)
		s.Start(len(msgs), lanes, 1+rng.IntN(lanes), 1+rng.IntN(30))
		for {
			n := s.Next(msgs, &pad, &st)
			if n == 0 {
				for l := range lanes {
					if s.Live()&(1<<l) != 0 {
						whole, last := s.Rest(l, msgs, &pad)
						for b := 0; b < len(whole); b += BlockSize {
							seen[s.Msg(l)] = append(seen[s.Msg(l)], whole[b:b+BlockSize])
						}
						for b := 0; b < len(last); b += BlockSize {
							seen[s.Msg(l)] = append(seen[s.Msg(l)], last[b:b+BlockSize])
						}
					}
				}
				break
			}
			for l := range lanes {
				st.P[0][l], st.P[1][l], st.C[0][l], st.C[1][l] = s.Lane(l, msgs, &pad)
				// The model kernel: C[1] blocks, C[0] of them at P[0].
				for b := 0; b < int(st.C[1][l]); b++ {
					p := unsafe.Add(unsafe.Pointer(st.P[0][l]), BlockSize*b)
					if c0 := int(st.C[0][l]); c0 > 0 && b >= c0 {
						p = unsafe.Add(unsafe.Pointer(st.P[1][l]), BlockSize*(b-c0))
					}
					got := s.Block(l, b, msgs, &pad)
					if unsafe.Pointer(&got[0]) != p {
						t.Fatalf("trial %d: lane %d, block %d: Block is not the block the kernel reads", trial, l, b)
					}
					seen[s.Msg(l)] = append(seen[s.Msg(l)], got)
				}
				if s.Absorbs(l) != int(st.C[1][l]) {
					t.Fatalf("trial %d: lane %d absorbs %d blocks, Absorbs says %d", trial, l, st.C[1][l], s.Absorbs(l))
				}
			}
			if _, all := s.Done(); all {
				break
			}
		}
		for i, m := range msgs {
			// The message's whole blocks, then its padded tail.
			want := (len(m)%BlockSize + 9 + BlockSize - 1) / BlockSize
			want += len(m) / BlockSize
			if len(seen[i]) != want {
				t.Fatalf("trial %d: message %d (%d bytes): %d blocks, want %d", trial, i, len(m), len(seen[i]), want)
			}
			for b := 0; b < len(m)/BlockSize; b++ {
				if string(seen[i][b]) != string(m[b*BlockSize:(b+1)*BlockSize]) {
					t.Fatalf("trial %d: message %d: block %d is not the message's", trial, i, b)
				}
			}
		}
	}
}
