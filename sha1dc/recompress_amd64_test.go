//go:build amd64 && !purego

package sha1dc

import (
	"testing"

	"golang.org/x/sys/cpu"
)

// refRecompress is what a lane of the recompression kernels computes:
// whether block q, absorbed from h, is half of a collision along DV dv.
func refRecompress(q *[BlockSize]byte, h [5]uint32, dv int) bool {
	var w [80]uint32
	var s [len(testSteps)][5]uint32
	compressW(&h, q, &w, &s)
	return recompress(&dvTable[dv], &w, &s[dvTable[dv].state]) == h
}

// The recompression kernels find the collisions the portable code finds,
// and no others: the near-collision blocks of the collision files from
// their chaining values (and from others), and blocks reaching each DV
// from random chaining values, in jobs of one and of sixteen, along every
// DV of each block's mask.
func TestRecompressKernels(t *testing.T) {
	x := &cpu.X86
	if !(x.HasAVX512 && x.HasAVX512F && x.HasAVX512BW && x.HasAVX) {
		t.Skip("no AVX-512")
	}
	rng := newRand(t)
	type pair struct {
		q  *[BlockSize]byte
		h  [5]uint32
		dv int
	}
	var pairs []pair
	for _, name := range []string{"shattered-1.pdf", "shattered-2.pdf", "sha-mbles-1.bin", "sha-mbles-2.bin"} {
		f := collisionFile(t, name)
		h := initState
		for i := 0; i+BlockSize <= len(f) && i < 1<<14; i += BlockSize {
			q := (*[BlockSize]byte)(f[i:])
			var w [80]uint32
			var s [len(testSteps)][5]uint32
			g := h
			compressW(&g, q, &w, &s)
			for m := ubcCheck(&w); m != 0; m &= m - 1 {
				dv := 0
				for m>>dv&1 == 0 {
					dv++
				}
				pairs = append(pairs, pair{q, h, dv}, pair{q, [5]uint32{rng.Uint32(), 1, 2, 3, 4}, dv})
			}
			h = g
		}
	}
	for d := range ubcReachBlocks {
		for i := range ubcReachBlocks[d] {
			q := (*[BlockSize]byte)(reachBlock(t, d, i))
			pairs = append(pairs, pair{q, [5]uint32{rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32()}, d})
		}
	}
	rng.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	var b recompBatch
	hits := 0
	for _, p := range pairs {
		collided := make([]bool, 1)
		b.add(p.q[:], &p.h, p.dv, 0, collided)
		b.flush(collided)
		want := refRecompress(p.q, p.h, p.dv)
		if collided[0] != want {
			t.Fatalf("DV %d: the kernel says %v, the portable code %v", p.dv, collided[0], want)
		}
		if want {
			hits++
		}
	}
	for start := 0; start+16 <= len(pairs); start += 16 {
		collided := make([]bool, 16)
		for l, p := range pairs[start : start+16] {
			b.add(p.q[:], &p.h, p.dv, l, collided)
		}
		b.flush(collided)
		for l, p := range pairs[start : start+16] {
			if want := refRecompress(p.q, p.h, p.dv); collided[l] != want {
				t.Fatalf("lane %d, DV %d: the kernel says %v, the portable code %v", l, p.dv, collided[l], want)
			}
		}
	}
	if hits == 0 {
		t.Fatal("no collision among the pairs: the test shows nothing")
	}
	t.Logf("%d pairs, %d collisions", len(pairs), hits)
}
