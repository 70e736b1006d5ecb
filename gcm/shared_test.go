package gcm

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

// TestShared has goroutines share one AEAD, sealing and opening messages
// of many lengths and both nonce kinds at once, and checks every result
// against internal/ref's GCM. An AEAD that kept state between calls, or
// scratch space that two messages could share, fails it; make test runs
// it under the race detector too.
func TestShared(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	key := randBytes(r, 32)
	type job struct {
		g                   *aead
		nonce, pt, ad, want []byte
	}
	var jobs []job
	for _, ns := range []int{12, 13} {
		g := ours(t, key, ns, 15)
		for _, n := range []int{0, 1, 31, 200, 513, 2000} {
			nonce, pt, ad := randBytes(r, ns), randBytes(r, n), randBytes(r, n%17)
			jobs = append(jobs, job{g, nonce, pt, ad, refSeal(t, g.block, nonce, pt, ad, g.tagSize)})
		}
	}
	const goroutines = 8
	rounds := 100
	if testing.Short() {
		rounds = 10
	}
	var wg sync.WaitGroup
	errs := make(chan string, goroutines)
	for w := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sealed, opened := make([]byte, 0, 4096), make([]byte, 0, 4096)
			for i := range rounds {
				j := jobs[(w+i)%len(jobs)]
				sealed = j.g.Seal(sealed[:0], j.nonce, j.pt, j.ad)
				if !bytes.Equal(sealed, j.want) {
					errs <- fmt.Sprintf("Seal of %d bytes gave a wrong result", len(j.pt))
					return
				}
				var err error
				if opened, err = j.g.Open(opened[:0], j.nonce, sealed, j.ad); err != nil || !bytes.Equal(opened, j.pt) {
					errs <- fmt.Sprintf("Open of %d bytes gave a wrong result (%v)", len(j.pt), err)
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
}
