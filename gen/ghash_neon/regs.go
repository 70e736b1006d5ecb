package main

import (
	"errors"
	"fmt"
)

// pool hands out vector registers. It reuses the register freed longest ago
// (first in, first out), so that a value's register is not overwritten by
// the very next instruction: on an in-order core such as the Cortex-A53
// that leaves the two independent instructions free to overlap.
type pool struct {
	free []vreg
	busy map[vreg]bool
}

// newPool returns a pool of the registers 0..n-1, handed out in order.
func newPool(n int) *pool {
	p := &pool{busy: map[vreg]bool{}}
	for r := vreg(0); r < vreg(n); r++ {
		p.free = append(p.free, r)
	}
	return p
}

// errOutOfRegisters is what get panics with when every register is busy;
// gen.emit turns it into an error.
var errOutOfRegisters = errors.New("out of vector registers")

// get returns a free register.
func (p *pool) get() vreg {
	if len(p.free) == 0 {
		panic(errOutOfRegisters)
	}
	r := p.free[0]
	p.free = p.free[1:]
	p.busy[r] = true
	return r
}

// put returns registers to the pool.
func (p *pool) put(rs ...vreg) {
	for _, r := range rs {
		if !p.busy[r] {
			panic(fmt.Sprintf("ghash_neon: register %d freed twice", r))
		}
		delete(p.busy, r)
		p.free = append(p.free, r)
	}
}
