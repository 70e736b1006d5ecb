package ghash

import (
	"bytes"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/simdhash/simdhash/internal/ref"
)

// TestShared has goroutines share one Key (SumGCM, NewHash) and one Hash
// (Sum only) on every kernel, and checks every result. Sum and SumGCM only
// read what they share, so the results are right and, under -race (make
// test runs this test so), no race is reported; a Sum that kept scratch
// space in its receiver would fail both ways.
func TestShared(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(30, 31))
		h := randKey(r)
		key := NewKey(h)
		data := randBytes(r, 300)
		shared := key.NewHash()
		shared.Write(data[:45]) // a partial block that Sum pads
		wantHash := refGHASH(t, h, zeroPad(data[:45]))
		type job struct {
			a, c        []byte
			want, plain [16]byte // GCM's GHASH of a and c; the plain GHASH of a
		}
		var jobs []job
		for i := 0; i < 16; i++ {
			a, c := data[:r.IntN(len(data))], data[r.IntN(len(data)):]
			jobs = append(jobs, job{a, c, ref.GCMGHASH(h, a, c), refGHASH(t, h, zeroPad(a))})
		}
		const goroutines, rounds = 8, 200
		var wg sync.WaitGroup
		errs := make(chan string, goroutines)
		for g := 0; g < goroutines; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out := make([]byte, 0, Size)
				for i := 0; i < rounds; i++ {
					j := jobs[(g+i)%len(jobs)]
					if got := key.SumGCM(j.a, j.c); got != j.want {
						errs <- "Key.SumGCM gave a wrong result"
						return
					}
					if out = shared.Sum(out[:0]); !bytes.Equal(out, wantHash[:]) {
						errs <- "the shared Hash's Sum gave a wrong result"
						return
					}
					own := key.NewHash()
					own.Write(j.a)
					if got := own.Sum(nil); !bytes.Equal(got, j.plain[:]) {
						errs <- "a Hash of the shared Key gave a wrong result"
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	})
}
