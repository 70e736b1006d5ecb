package sha1many

import (
	"fmt"

	. "github.com/simdhash/simdhash/gen/internal/arm64"
	"github.com/simdhash/simdhash/gen/internal/armemit"
	"github.com/simdhash/simdhash/gen/internal/sha1arm"
)

// neonBackend is the 4-lane kernel "neonx4" of arm64, for cores without
// the SHA1 instructions: the NEON ISA (neon.go) and its scalar code, in
// the general registers below. vregs 0..26 are the description's; V27-V30
// hold K and V31 is the ISA's scratch register, so the W ring is on the
// stack (256 bytes at 16(RSP), addressed from RSP so that the list
// scheduler tells its slots from the messages' memory).
type neonBackend struct {
	neon
	file  *File
	kTab  *Global
	ones  VReg // 1 in every word, for the block number
	mask  VReg // the last Retire mask
	frame int
}

// The general registers of the NEON kernel.
const (
	nH   = R0  // h
	nP   = R1  // p
	nC   = R2  // c
	nN   = R3  // n
	nOff = R4  // the blocks done
	nT   = R9  // a lane's next block pointer
	nCnt = R10 // a lane's count
	nAlt = R11 // a lane's p[1]
	nTmp = R13 // the address of K; the prefetches' addresses
)

// nPtr is lane l's block pointer.
func nPtr(l int) Reg { return [...]Reg{R5, R6, R7, R8}[l] }

// NEON returns the backend of the 4-lane "neonx4" kernel, emitting into
// file (gen/sha1_many_neon).
func NEON(file *File) Backend {
	return &neonBackend{file: file, ones: V26, neon: neon{ring: RSP, ringOff: 16, k: [4]VReg{V27, V28, V29, V30}, scratch: V31}}
}

func (*neonBackend) Name() string  { return "neonx4" }
func (*neonBackend) Lanes() int    { return 4 }
func (*neonBackend) NumVec() int   { return 26 } // V26 holds the ones
func (b *neonBackend) Func() *Func { return b.f }

func (b *neonBackend) Constants() { b.kTab = sha1arm.KTable(b.file.File, "sha1ManyNEONK") }

func (b *neonBackend) Begin(name, sig string, ring, gather bool, comment ...string) {
	if gather {
		panic("sha1many: NEON has no gathers") // GatherTemps refuses -load=gather first
	}
	f, err := b.file.Func(name, sig)
	if err != nil {
		panic("sha1many: " + err.Error())
	}
	b.f = f
	if ring {
		// Locals are at 8(RSP)..; RSP is 16-byte aligned, so the ring at
		// 16(RSP) is too.
		f.SetFrame(8 + 16*ringWords)
	}
	f.Comment(comment...)
	f.LoadArg(f.Arg("h"), nH)
	f.LoadArg(f.Arg("p"), nP)
	f.LoadArg(f.Arg("c"), nC)
	f.LoadArg(f.Arg("n"), nN)
	f.Comment("Nothing to do without a block.")
	f.CBZ(nN, "done")
	f.MOVDConst(0, nOff)
	f.LoadAddr(b.kTab, nTmp)
	f.VLD1(nTmp, b.k[0].S4(), b.k[1].S4(), b.k[2].S4(), b.k[3].S4())
	for l := 0; l < 4; l++ {
		f.LDR(nP.At(8*l), nPtr(l))
	}
}

func (b *neonBackend) Setup(counts, blk vreg) {
	f := b.f
	f.Comment("The lanes' block counts, and block 0, for the masks of the lanes that absorb each block; 1 in every word.")
	f.LDRQ(nC.At(4*maxLanes), vr(counts))
	f.VEOR(vr(blk).B16(), vr(blk).B16(), vr(blk).B16())
	f.VMOVI(0xff, b.ones.B16())
	f.VUSHR(31, b.ones.S4(), b.ones.S4())
}

func (b *neonBackend) Prefetch() {
	b.f.Comment("Prefetch the lanes' next messages (p[2], p[3]).")
	for i := 0; i < 8; i++ {
		b.f.LDR(nP.At(8*(2*maxLanes+i%4+maxLanes*(i/4))), nTmp)
		b.f.PRFM(nTmp.At(0))
	}
}

func (b *neonBackend) Label(name string) { b.f.Label(name) }
func (b *neonBackend) Jump(label string) { b.f.B(label) }

// NextBlock moves every lane on as amd64's does: p += 64, or p[1] at block
// c[0]; but not from block c[1] on.
func (b *neonBackend) NextBlock(label string) {
	f := b.f
	f.ADD(1, nOff, nOff)
	f.CMPReg(nN, nOff)
	f.BHS(label)
	f.Comment("Each lane's next block: the one after, or p[1] at block c[0]; none from block c[1] on.")
	for l := 0; l < 4; l++ {
		p := nPtr(l)
		f.ADD(blockBytes, p, nT)
		f.LDRW(nC.At(4*l), nCnt)
		f.LDR(nP.At(8*(maxLanes+l)), nAlt)
		f.CMPReg(nCnt, nOff)
		f.CSEL(armemit.EQ, nAlt, nT, nT)
		f.LDRW(nC.At(4*(maxLanes+l)), nCnt)
		f.CMPReg(nCnt, nOff) // off - count: LO while the lane absorbs blocks
		f.CSEL(armemit.LO, nT, p, p)
	}
}

func (b *neonBackend) Retire(counts, blk, mask vreg) {
	b.f.VCMGT(vr(blk).S4(), vr(counts).S4(), vr(mask).S4()) // counts > blk
	b.f.VADD(b.ones.S4(), vr(blk).S4(), vr(blk).S4())
	b.mask = vr(mask)
}

func (b *neonBackend) LoadH(dst vreg, row int) { b.f.LDRQ(nH.At(hRowBytes*row), vr(dst)) }

// UpdateH adds x in the masked lanes only: dst = (x & mask) + h.
func (b *neonBackend) UpdateH(dst, x vreg, row int) {
	f := b.f
	f.VAND(b.mask.B16(), vr(x).B16(), vr(dst).B16())
	f.LDRQ(nH.At(hRowBytes*row), b.scratch)
	f.VADD(b.scratch.S4(), vr(dst).S4(), vr(dst).S4())
	f.STRQ(vr(dst), nH.At(hRowBytes*row))
}

func (b *neonBackend) ByteSwap(dst, a vreg) { b.f.VREV32(vr(a).B16(), vr(dst).B16()) }

func (b *neonBackend) LoadPart(dst vreg, lane, g, q int) {
	if q != 0 {
		panic(fmt.Sprintf("sha1many: a NEON register has one 128-bit part, not part %d", q))
	}
	b.f.LDRQ(nPtr(lane).At(16*g), vr(dst))
}

// Unpack is ZIP1 (low halves) or ZIP2 of the words (size 4) or
// doublewords (size 8) of a and x, a's first.
func (b *neonBackend) Unpack(dst, a, x vreg, size int, hi bool) {
	arr := map[int]Arrangement{4: S4, 8: D2}[size]
	if arr == 0 {
		panic(fmt.Sprintf("sha1many: no unpack of %d-byte elements", size))
	}
	if hi {
		b.f.VZIP2(vr(x).As(arr), vr(a).As(arr), vr(dst).As(arr))
		return
	}
	b.f.VZIP1(vr(x).As(arr), vr(a).As(arr), vr(dst).As(arr))
}

// GatherTemps is more than the plan has: NEON has no gathers, so
// Generate refuses -load=gather.
func (*neonBackend) GatherTemps() int { return workRegs }
func (*neonBackend) Gather(vreg, int, []vreg) []step {
	panic("sha1many: NEON has no gathers")
}

func (b *neonBackend) Finish() { b.f.RET() }
