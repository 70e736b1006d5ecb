package arm64

import (
	"fmt"
	"strings"
)

// The instructions of the multi-lane kernels (gen/internal/sha1many's NEON
// backend, sha1ce's lanes): interleaving permutes, a vector compare, the
// prefetch, and the conditional mask of a general register.

// VZIP1 interleaves the low halves of n and m: n[0], m[0], n[1], m[1], ...
func (f *Func) VZIP1(m, n, d Vec) { f.permute("VZIP1", "zip1", m, n, d) }

// VZIP2 interleaves the high halves of n and m.
func (f *Func) VZIP2(m, n, d Vec) { f.permute("VZIP2", "zip2", m, n, d) }

// VCMGT sets each element of d to all ones where n's is greater than m's
// (signed), else zero: CMGT Vd, Vn, Vm, which Go's assembler lacks (WORD).
func (f *Func) VCMGT(m, n, d Vec) {
	sameArr("VCMGT", m, n, d)
	oneOf("VCMGT", d, B8, B16, H4, H8, S2, S4, D2)
	f.word(0x0e203400|d.Arr.q()<<30|d.Arr.size()<<22|uint32(m.Reg)<<16|uint32(n.Reg)<<5|uint32(d.Reg),
		fmt.Sprintf("cmgt %s, %s, %s", d.gnuText(), n.gnuText(), m.gnuText())).rw(rs(m, n), rs(d)...)
}

// PRFM prefetches the line at m into the level 1 data cache, to keep
// (PLDL1KEEP).
func (f *Func) PRFM(m Mem) {
	loadStoreOffset("PRFM", 8, m)
	f.scalar("PRFM", []string{m.goText(), "PLDL1KEEP"}, fmt.Sprintf("prfm pldl1keep, %s", m.gnuText())).rw(append(rs(m.Base), memRes(m, 8)...), "prefetch") // no architectural result: a pseudo-resource keeps the prefetches in order
}

// CSETMW sets the 32-bit d to all ones if the flags satisfy c, else to
// zero (Go: CSETMW c, Rd; GNU: csetm wd, c).
func (f *Func) CSETMW(c Cond, d Reg) {
	d.check()
	need(c.Valid(), "CSETMW: no condition %q", c)
	_, du := d.name(false)
	f.scalar("CSETMW", []string{string(c), d.String()}, fmt.Sprintf("csetm %s, %s", du, strings.ToLower(string(c)))).rw(rs("flags"), rs(d)...)
}
