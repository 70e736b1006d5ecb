package main

import "fmt"

// This file describes GHASH (NIST SP 800-38D, section 6.4) once; the 64x64
// carry-less multiply it is built from is a parameter (mul64), with two
// implementations: mul_pmull.go and mul_neon.go. The description emits
// code through a machine (machine.go), so the same steps produce the
// arm64 kernels and the 32-bit arm ones.
//
// # Representation
//
// SP 800-38D numbers the bits of a block from the most significant bit of
// byte 0: bit i of the block is the coefficient of x^i. Bit-reversing each
// byte (RBIT) turns that into the ordinary little-endian order: after
// RBIT, bit j of the 128-bit little-endian value in a vector register is
// the coefficient of x^j. Doubleword 0 holds x^0..x^63 ("lo"), doubleword
// 1 holds x^64..x^127 ("hi"). In that order polynomial multiplication is
// plain carry-less multiplication, and reduction modulo
// P = x^128 + x^7 + x^2 + x + 1 folds the high half down with
// g = x^7 + x^2 + x + 1 (0x87), since x^128 = g mod P. One RBIT per block
// converts the input; one at each end converts the accumulator y.
//
// # Karatsuba
//
// With a = a1·x^64 + a0 and b = b1·x^64 + b0,
//
//	a·b = a1·b1·x^128 + (a1·b1 + a0·b0 + (a0+a1)·(b0+b1))·x^64 + a0·b0
//
// three 64x64 products instead of four. b is always a power of H, so
// b0+b1 is precomputed with the key.
//
// # Aggregation
//
// n blocks X1..Xn are absorbed with one reduction:
//
//	y' = (y+X1)·H^n + X2·H^(n-1) + ... + Xn·H
//
// The lo products (x0·h0) of all n blocks are summed, likewise the hi and
// the middle products, before the Karatsuba combination and the reduction:
// both are linear. The middle products of two blocks share a register:
// [x0+x1 of block i, x0+x1 of block i+1] times [h0+h1 of H^(n-i+1), the
// same of H^(n-i)], one product per doubleword half.
//
// # Reduction
//
// The 256-bit product is r3:r2:r1:r0 (64-bit words). Two phases fold it:
// r3·x^192 = r3·g·x^64 (mod P), at most 71 bits, is added into r2:r1;
// then the new r2·x^128 = r2·g is added into r1:r0. g has degree 7, so
// the second phase cannot overflow again.
//
// # 32-bit ARM
//
// AArch32 has no vector RBIT. The arm machine keeps the representation
// above and reverses the bits of each byte with 16-entry table lookups
// (VTBL) of both nibbles, seven instructions per block, rather
// than switching to the byte-reflected formulation (VREV64 and a
// reduction by the reflected polynomial with a one-bit-shifted key, as
// the Linux and OpenSSL 32-bit code do): that way the Karatsuba
// combination, the aggregation and the two-phase reduction by 0x87 are
// the same steps on both instruction sets.
//
// # Order
//
// The description emits each step in turn. The machine's schedule (the
// list scheduler of gen/internal/armemit) then interleaves independent work,
// which in-order cores such as the Cortex-A53 and A55 need; registers come
// from a round-robin pool (regs.go) so that the reordering is not blocked
// by register reuse, and long sums are kept as several partial sums
// (product.ways) so that they are not one long chain of dependent
// additions. With the 16 registers of 32-bit ARM, the neon multiplier
// emits its products in another order (see mul_neon.go) and the pmull
// multiplier loads its key operands where they are used.

// operand is a value prepared for multiplication: the data vector (and
// whatever the multiplier derives from it), or a key operand.
type operand struct {
	regs     []vreg
	resident bool // loaded once before the loop; never freed
	slot     int  // a key operand's slot (see the key layout)
}

// product accumulates a sum of 64x64 products in the multiplier's own
// form: parts, each a sum of values. Each part may be kept as several
// partial sums (ways) added up at the end, so that the additions form
// short chains instead of one long one: on an in-order core each addition
// in a chain waits for the one before.
type product struct {
	ways  int      // partial sums per part (1 if unset)
	parts [][]vreg // parts[i]: the partial sums of part i so far
	next  []int    // the partial sum of part i that the next value goes to

	pending []pending // products not yet emitted (a multiplier that defers them)
}

// pending is a product recorded by mulAdd and emitted by finish.
type pending struct {
	a, k operand
	h    half
}

// add adds the value in register d to part i of acc, taking d over as a
// new partial sum while part i has fewer than acc.ways of them.
func (acc *product) add(g *gen, i int, d vreg) {
	for len(acc.parts) <= i {
		acc.parts = append(acc.parts, nil)
		acc.next = append(acc.next, 0)
	}
	if len(acc.parts[i]) < max(acc.ways, 1) {
		acc.parts[i] = append(acc.parts[i], d)
		return
	}
	s := acc.parts[i][acc.next[i]]
	acc.next[i] = (acc.next[i] + 1) % len(acc.parts[i])
	g.m.xor(s, s, d)
	g.regs.put(d)
}

// part returns the register holding the whole of part i, adding up its
// partial sums pairwise.
func (acc *product) part(g *gen, i int) vreg {
	ps := acc.parts[i]
	for len(ps) > 1 {
		var next []vreg
		for k := 0; k+1 < len(ps); k += 2 {
			g.m.xor(ps[k], ps[k], ps[k+1])
			g.regs.put(ps[k+1])
			next = append(next, ps[k])
		}
		if len(ps)%2 == 1 {
			next = append(next, ps[len(ps)-1])
		}
		ps = next
	}
	acc.parts[i] = ps
	return ps[0]
}

// mul64 is the parameter of the description: how to multiply 64-bit
// polynomials. Every method emits code.
type mul64 interface {
	// keyVectors is the number of 16-byte vectors holding one key operand.
	keyVectors() int
	// keyDoc describes one key operand's vectors, for the key layout comment.
	keyDoc() string
	// setup emits the loop-invariant work: constants, and the key operands
	// listed in slots that the multiplier keeps in registers.
	setup(g *gen, slots []int)
	// key returns key operand slot, loading it if it is not resident.
	key(g *gen, slot int) operand
	// data prepares the data vector x for multiplication; x then belongs to
	// the operand.
	data(g *gen, x vreg) operand
	// mulAdd adds the product of half h of a and half h of k to acc.
	mulAdd(g *gen, acc *product, a, k operand, h half)
	// release says that o takes part in no further mulAdd.
	release(g *gen, o operand)
	// finish turns acc into one register holding its 128-bit value.
	finish(g *gen, acc *product) vreg
	// timesG returns a new register holding x.hi·g, g = x^7+x^2+x+1:
	// 71 bits at most, in the low half and the low bits of the high half.
	timesG(g *gen, x vreg) vreg
}

// gen is the state of one kernel being emitted.
type gen struct {
	m    machine
	regs *pool
	mul  mul64

	y, key, p, n greg // argument registers: y pointer, key pointer, data pointer, bytes left

	maxBlocks int // the key layout holds H^1 .. H^maxBlocks
	blocks    int // blocks per reduction in the main loop
}

// freeOperand frees the registers of an operand that is not resident.
func (g *gen) freeOperand(o operand) {
	if !o.resident {
		g.regs.put(o.regs...)
	}
}

// Key layout: maxBlocks power operands, then maxBlocks/2 middle operands,
// each of keyVectors() 16-byte vectors:
//
//	slot s (0 <= s < maxBlocks):       H^(maxBlocks-s) = [h0, h1]
//	slot maxBlocks+j (j < maxBlocks/2): [h0+h1 of H^(maxBlocks-2j), h0+h1 of H^(maxBlocks-2j-1)]
//
// A loop of n blocks uses the last n power slots and the last n/2 middle
// slots; the one-block tail uses H^1 (the last power slot) and the high
// half of the last middle slot. powerSlot is the slot of H^power.
func (g *gen) powerSlot(power int) int { return g.maxBlocks - power }

// midSlot is the middle slot whose first half holds h0+h1 of H^power
// (power even, or 1: then it is the second half of the last slot).
func (g *gen) midSlot(power int) int { return g.maxBlocks + (g.maxBlocks-power)/2 }

// keyLayout documents the layout above for the generated file.
func (g *gen) keyLayout() []string {
	kv := g.mul.keyVectors()
	lines := []string{fmt.Sprintf("Key layout (%d bytes); each operand is %d vector(s): %s.",
		16*kv*(g.maxBlocks+g.maxBlocks/2), kv, g.mul.keyDoc())}
	for s := 0; s < g.maxBlocks; s++ {
		lines = append(lines, fmt.Sprintf("  +%3d  H^%d = [h0, h1]", 16*kv*s, g.maxBlocks-s))
	}
	for j := 0; j < g.maxBlocks/2; j++ {
		p := g.maxBlocks - 2*j
		lines = append(lines, fmt.Sprintf("  +%3d  [h0+h1 of H^%d, h0+h1 of H^%d]", 16*kv*(g.maxBlocks+j), p, p-1))
	}
	return lines
}

// emit emits the kernel (see emitKernel). A knob setting that needs more
// registers than the machine has is an error rather than a panic.
func (g *gen) emit() (loop string, err error) {
	defer func() {
		if e := recover(); e != nil {
			if e != errOutOfRegisters {
				panic(e)
			}
			err = fmt.Errorf("%w: %d blocks per reduction need more than the %d registers", errOutOfRegisters, g.blocks, g.m.vregs())
		}
	}()
	return g.emitKernel(), nil
}

// emitKernel emits the whole function: argument loads, the n-block loop,
// the one-block tail, and the store of y. It returns the label of the
// main loop.
func (g *gen) emitKernel() string {
	m := g.m
	name := "loop"
	m.loadArgs(g.y, g.key, g.p, g.n)

	y := g.regs.get()
	m.load(y, g.y)
	m.bitrev(y)

	slots := []int{g.powerSlot(1), g.midSlot(1)}
	for i := 1; i <= g.blocks; i++ {
		slots = append(slots, g.powerSlot(i))
		if i%2 == 0 {
			slots = append(slots, g.midSlot(i))
		}
	}
	g.mul.setup(g, dedup(slots))

	step := 16 * g.blocks
	if g.blocks > 1 {
		m.cmp(g.n, step)
		m.BLO("tail")
	} else {
		m.branchZero(g.n, "done")
	}
	m.Label(name)
	m.Comment(fmt.Sprintf("Main loop: %d block(s), one reduction.", g.blocks))
	g.absorb(y, g.blocks)
	if g.blocks > 1 {
		m.sub(g.n, step)
		m.cmp(g.n, step)
		m.BHS(name)

		m.Label("tail")
		m.branchZero(g.n, "done")
		m.Label("tail1")
		m.Comment("Tail: one block at a time, with H.")
		g.absorb(y, 1)
		m.subs(g.n, 16)
		m.BNE("tail1")
	} else {
		m.subs(g.n, 16)
		m.BNE(name)
	}

	m.Label("done")
	m.bitrev(y)
	m.store(y, g.y)
	m.ret()
	return name
}

func dedup(xs []int) []int {
	seen := map[int]bool{}
	var out []int
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// absorb emits y' = (y+X1)·H^n + X2·H^(n-1) + ... + Xn·H for the next n
// blocks of p, leaving y' in y's register (the loop's carried value).
func (g *gen) absorb(y vreg, n int) {
	m := g.m
	m.Comment(fmt.Sprintf("Load %d block(s), %s each, add y to the first.", n, m.bitrevName()))
	xs := make([]vreg, n)
	for i := range xs {
		xs[i] = g.regs.get()
	}
	m.loadBlocks(xs, g.p)
	m.bitrev(xs...)
	m.xor(xs[0], xs[0], y)

	m.Comment("Karatsuba middle operands: [x0+x1, x0+x1 of the next block].")
	var mids []vreg
	if n == 1 {
		// One block: [x0+x1, x0+x1]; its key is the high half of H's middle slot.
		mid := g.regs.get()
		m.ext8(mid, xs[0], xs[0])
		m.xor(mid, mid, xs[0])
		mids = append(mids, mid)
	} else {
		for i := 0; i < n; i += 2 {
			mid := g.regs.get()
			m.karatsubaPair(mid, xs[i], xs[i+1])
			mids = append(mids, mid)
		}
	}

	m.Comment("Lo and hi products: x0·h0 and x1·h1 of every block, summed.")
	var accLo, accHi, accMid product
	for i, x := range xs {
		k := g.mul.key(g, g.powerSlot(n-i))
		a := g.mul.data(g, x)
		g.mul.mulAdd(g, &accLo, a, k, lo)
		g.mul.mulAdd(g, &accHi, a, k, hi)
		g.mul.release(g, a)
		g.mul.release(g, k)
	}
	rlo := g.mul.finish(g, &accLo)
	rhi := g.mul.finish(g, &accHi)

	m.Comment("Middle products: (x0+x1)·(h0+h1), summed.")
	for j, mid := range mids {
		power := n - 2*j // the power multiplying the first block of the pair
		if n == 1 {
			power = 1
		}
		k := g.mul.key(g, g.midSlot(power))
		a := g.mul.data(g, mid)
		if n == 1 {
			g.mul.mulAdd(g, &accMid, a, k, hi) // h0+h1 of H^1 is in the high half
		} else {
			g.mul.mulAdd(g, &accMid, a, k, lo)
			g.mul.mulAdd(g, &accMid, a, k, hi)
		}
		g.mul.release(g, a)
		g.mul.release(g, k)
	}
	rmid := g.mul.finish(g, &accMid)
	g.reduce(rlo, rhi, rmid, y)
}

// reduce combines the Karatsuba sums lo = [l0, l1], hi = [h0, h1] and
// mid (the sum of middle products, before the lo and hi terms are taken
// out) into the 256-bit product r3:r2:r1:r0 and reduces it modulo P in
// two phases into y. It frees its inputs.
//
//	r0 = l0, r1 = l1 + m0, r2 = h0 + m1, r3 = h1, where m = mid + lo + hi.
func (g *gen) reduce(rlo, rhi, rmid, y vreg) {
	m := g.m
	m.Comment("Reduction, phase 1: r3·x^192 = r3·g·x^64, added into [r1, r2].")
	p1 := g.mul.timesG(g, rhi) // r3·g
	w, s := g.regs.get(), g.regs.get()
	m.ext8(w, rlo, rhi) // [l1, h0]
	m.xor(s, rlo, rhi)  // lo + hi
	m.xor(w, w, rmid)
	m.xor(w, w, s) // [r1, r2]
	m.xor(w, w, p1)
	g.regs.put(rhi, rmid, p1, s)

	m.Comment("Phase 2: r2·x^128 = r2·g, added into [r0, r1].")
	p2 := g.mul.timesG(g, w)
	m.lowHalves(y, rlo, w) // [r0, r1]
	m.xor(y, y, p2)
	g.regs.put(rlo, w, p2)
}
