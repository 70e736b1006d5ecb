package lanes

import (
	"fmt"
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
		if trial%4 == 0 {
			// Pieces of 8 KiB end to end, some of them staggered.
			lanes = MaxLanes
			msgs = piecesOf(make([]byte, 40*8192), 8192, 8192)[:rng.IntN(40)]
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

// piecesOf returns the pieces of buf of size bytes, stride bytes apart.
func piecesOf(buf []byte, size, stride int) [][]byte {
	var msgs [][]byte
	for off := 0; off+size <= len(buf); off += stride {
		msgs = append(msgs, buf[off:off+size])
	}
	return msgs
}

// TestStagger starts 16 lanes on 16 pieces of 8 KiB end to end (every
// lane's blocks on one L1 set) and checks that Next holds them back onto
// sets of at most LanesPerSet, by at most the call's blocks, each lane
// then absorbing the call's blocks less its hold; and that it holds none
// back for pieces 64 bytes apart, nor with 8 lanes.
func TestStagger(t *testing.T) {
	const size = 8192
	buf := make([]byte, MaxLanes*(size+BlockSize))
	for _, c := range []struct{ lanes, stride int }{{MaxLanes, size}, {MaxLanes, size + BlockSize}, {8, size}} {
		msgs := piecesOf(buf, size, c.stride)[:c.lanes]
		var (
			s   Scheduler
			st  State
			pad Pads
		)
		s.Start(len(msgs), c.lanes, 1, 1<<24)
		n := s.Next(msgs, &pad, &st)
		perHold := map[int]int{}
		var holds []int
		for l := range c.lanes {
			h := s.Held(l)
			holds = append(holds, h)
			perHold[h]++
			if h < 0 || h > n {
				t.Errorf("lane %d held %d of the call's %d blocks", l, h, n)
			}
			if _, _, _, c1 := s.Lane(l, msgs, &pad); int(c1) != n-h || s.Absorbs(l) != n-h {
				t.Errorf("lane %d held %d of %d blocks absorbs %d (Absorbs %d)", l, h, n, c1, s.Absorbs(l))
			}
		}
		msg := fmt.Sprintf("%d lanes, stride %d: call of %d blocks, holds %v", c.lanes, c.stride, n, holds)
		if c.stride != size || c.lanes <= Crowd {
			if len(perHold) != 1 || perHold[0] != c.lanes || n != size/BlockSize+1 {
				t.Errorf("%s: want none held, and the messages in one call", msg)
			}
			continue
		}
		if n == 0 || len(perHold) != n+1 {
			t.Errorf("%s: want the lanes spread over holds 0..n", msg)
		}
		for h, k := range perHold {
			if k > LanesPerSet {
				t.Errorf("%s: %d lanes held %d blocks, more than %d a set", msg, k, h, LanesPerSet)
			}
		}
	}
}
