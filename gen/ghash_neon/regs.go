package main

import (
	"fmt"

	. "github.com/simdhash/simdhash/gen/internal/arm64"
)

// pool hands out SIMD registers. It reuses the register freed longest ago
// (first in, first out), so that a value's register is not overwritten by
// the very next instruction: on an in-order core such as the Cortex-A53
// that leaves the two independent instructions free to overlap.
type pool struct {
	free []VReg
	busy map[VReg]bool
	peak int
}

func newPool() *pool {
	p := &pool{busy: map[VReg]bool{}}
	for r := V0; r <= V31; r++ {
		p.free = append(p.free, r)
	}
	return p
}

// get returns a free register.
func (p *pool) get() VReg {
	if len(p.free) == 0 {
		panic("ghash_neon: out of SIMD registers")
	}
	r := p.free[0]
	p.free = p.free[1:]
	p.busy[r] = true
	if len(p.busy) > p.peak {
		p.peak = len(p.busy)
	}
	return r
}

// put returns registers to the pool.
func (p *pool) put(rs ...VReg) {
	for _, r := range rs {
		if !p.busy[r] {
			panic(fmt.Sprintf("ghash_neon: %v freed twice", r))
		}
		delete(p.busy, r)
		p.free = append(p.free, r)
	}
}
