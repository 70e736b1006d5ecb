package sha1sched

import "fmt"

const (
	wordsPerGroup  = 4
	groupsPerBlock = 80 / wordsPerGroup
	loadGroups     = 16 / wordsPerGroup // groups taken straight from the message
	windowGroups   = 8                  // W[t-32..t-1]: the live groups
)

// VReg names a vector register by its role; a backend maps each role to a
// register of its own. Window(g) holds schedule group g (words 4g..4g+3):
// eight registers form a ring, and group g overwrites group g-8, which is
// W[t-32..], the last input group g needs, so the rewrite can work in
// place. T0 and T1 are temporaries.
type VReg int

const (
	// NoReg, the zero VReg, marks an operand an operation does not have.
	NoReg VReg = 0
	// T0 and T1 are the temporaries; the window registers are
	// Window(0)..Window(7), numbered 1..8.
	T0 VReg = windowGroups + 1 + iota
	T1
)

// VRegs is one more than the largest VReg.
const VRegs = int(T1) + 1

// planRegisters is the number of registers of the plan: the window's and
// the temporaries.
const planRegisters = windowGroups + 2

// Window is the register that holds schedule group g.
func Window(g int) VReg { return VReg(1 + g%windowGroups) }

// WindowIndex is the index 0..7 of a window register, which holds the
// groups g with g mod 8 = WindowIndex; it is -1 for the others.
func (r VReg) WindowIndex() int {
	if r >= 1 && r <= windowGroups {
		return int(r) - 1
	}
	return -1
}

func (r VReg) String() string {
	switch {
	case r == NoReg:
		return "-"
	case r.WindowIndex() >= 0:
		return fmt.Sprintf("w%d", r.WindowIndex())
	}
	return fmt.Sprintf("t%d", int(r-T0))
}

// VKind is a vector operation of the description. Every operation works on
// 32-bit lanes, four per 128 bits; a target with wider registers runs the
// same operations on several blocks at once, one per 128-bit lane.
type VKind int

// The vector operations. A and B are sources, Dst the destination; a
// backend with two-operand instructions copies a source into Dst first
// when they differ.
const (
	// LoadBE sets Dst to the message words 4*Group..4*Group+3 of the block
	// being loaded, read as big-endian 32-bit words.
	LoadBE VKind = iota
	// Xor sets Dst = A ^ B.
	Xor
	// Straddle sets Dst to the four words that straddle A and B, which
	// hold consecutive groups (A the older): [A2 A3 B0 B1]. Dst is
	// neither A nor B.
	Straddle
	// WordsDown sets Dst to A moved down N lanes, zeros shifted in:
	// [A1 A2 A3 0] for N = 1.
	WordsDown
	// WordsUp sets Dst to A moved up N lanes, zeros shifted in:
	// [0 0 0 A0] for N = 3.
	WordsUp
	// Rol sets Dst = A rotated left by N bits in each lane. With the
	// RotateInPlace shape, Dst is A and Scratch is overwritten; with
	// the other shapes, Dst is not A, A is kept, and Scratch is NoReg.
	Rol
	// XorRol sets Dst ^= A rotated left by N bits in each lane,
	// overwriting A and Scratch (the RotateInPlace shape only).
	XorRol
	// AddK sets Dst = A + K, where K is the round constant of the rounds
	// that read words Word..Word+3 of a block (Word < 80).
	AddK
	// Store writes A, W+K for words Word..Word+3 of the stream (80 and up
	// for the next block), into the ring at the slot that WK records.
	Store
	// KeepW writes A, words Word..Word+3 of the block's W (Word < 80),
	// into the trace (Contract.Trace); Generate adds it to a group before
	// its AddK.
	KeepW
	// Spill writes A, words Word..Word+3 of the stream (a group's W), to
	// the group's spill slot, which WK records, when the registers hold
	// only the last groups of the window (SpillWindow); Reload sets Dst to
	// words Word..Word+3 of the block from theirs.
	Spill
	Reload
)

var vkindNames = [...]string{"LoadBE", "Xor", "Straddle", "WordsDown", "WordsUp", "Rol", "XorRol", "AddK", "Store", "KeepW", "Spill", "Reload"}

func (k VKind) String() string { return vkindNames[k] }

// VOp is one vector operation of a group.
type VOp struct {
	Kind      VKind
	Dst, A, B VReg
	Scratch   VReg
	N         int // lanes for WordsDown and WordsUp, bits for Rol and XorRol
	// Group is the group of the block, 0..19, that the operation computes
	// (the next block's groups 20..23 are its groups 0..3): a LoadBE loads
	// its words, and a backend may rename the temporaries by it.
	Group   int
	Word    int // AddK and Store: the first of the four words
	WK      RingAccess
	Comment string // printed before the operation
}

func (op VOp) String() string {
	switch op.Kind {
	case LoadBE:
		return fmt.Sprintf("%v = LoadBE(group %d)", op.Dst, op.Group)
	case AddK:
		return fmt.Sprintf("%v = %v + K(W[%d])", op.Dst, op.A, op.Word)
	case Spill, Reload:
		return fmt.Sprintf("%v(%v, W[%d..%d])", op.Kind, op.Dst+op.A, op.Word, op.Word+3)
	case Store:
		return fmt.Sprintf("Store(W[%d..%d]+K = %v)", op.Word, op.Word+3, op.A)
	case Rol, XorRol, WordsDown, WordsUp:
		return fmt.Sprintf("%v = %v(%v, %d; scratch %v)", op.Dst, op.Kind, op.A, op.N, op.Scratch)
	}
	return fmt.Sprintf("%v = %v(%v, %v)", op.Dst, op.Kind, op.A, op.B)
}

// RotateShape is how a target rotates the 32-bit lanes of a vector
// register, which decides where the description keeps the values it
// rotates.
type RotateShape int

const (
	// RotateInPlace: a rotate is two shifts and an OR, which can work in
	// place with a scratch register for one half (SSE and AVX: PSLLD,
	// PSRLD, POR). The description rotates a register in place, and folds
	// a rotated value into another by XORing in its two halves.
	RotateInPlace RotateShape = iota
	// RotateInto: a rotate is a shift into a register other than its
	// source and a shift-and-insert into that register (NEON: SHL then
	// SRI, or SHL then USRA), two instructions that cannot work in place.
	// The description keeps the value to rotate in another register and
	// rotates it into the register that keeps the result.
	RotateInto
	// RotateInstruction: a rotate is one instruction, from any register
	// into any (AVX-512: VPROLD). Group writes its operations as for
	// RotateInto.
	RotateInstruction
)

func (s RotateShape) String() string { return [...]string{"in place", "into", "instruction"}[s] }

// A target with fewer vector registers than the ten of the plan (eight
// window groups, T0 and T1; Backend.Registers) has the description spill:
// its registers then hold the window's last SpillWindow groups, W[t-20..
// t-1], group g in register 1 + g%5 (a block is a multiple of 5 groups,
// so that every block finds them alike), and T0 and T1: SpillRegisters
// in all. Each group that a later one reads from further back (W[t-28]
// and W[t-32]: the block's groups 0..12) is spilled to a slot of its own
// (SpillSlot) once computed, and reloaded where it is read.
const (
	SpillWindow    = 5
	SpillRegisters = SpillWindow + 2
)

// SpillSlot is the spill slot of group g: 16 bytes of buffer SpillBuf,
// one for each of the 8 groups of the window.
func SpillSlot(g int) Slot { return Slot{SpillBuf, 16 * (g % windowGroups)} }

// SpillBuf is the buffer of the spill slots (Slot.Buf), beside the ring's.
const SpillBuf = 2

// Group returns the vector operations that compute W[4g..4g+3] + K and
// store it into the ring, for a target whose rotates have the given shape,
// with the window in registers, or, if spill, only its last groups
// (Spills). g may also be 20..23: the first groups of the next block,
// which are its groups 0..3 (their Store words are 80 and up). Each
// group's first operation carries a comment naming the recurrence.
//
// The operations are the recurrences as algebra (see the package doc):
//
//   - groups 0..3 load the block's words;
//   - groups 4..7 compute rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]) for
//     lanes 0..2, then fix lane 3 up with rol2 of lane 0's XOR;
//   - groups 8..19 compute rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]).
func Group(g int, shape RotateShape, spill bool) []VOp {
	word := wordsPerGroup * g // the group's first word in the stream
	if g >= groupsPerBlock {
		g -= groupsPerBlock // the next block's groups are its groups 0..3
	}
	Window := Window
	if spill {
		Window = func(h int) VReg { return VReg(1 + h%SpillWindow) }
	}
	w := Window(g)
	first := fmt.Sprintf("W[%d..%d]: ", 4*g, 4*g+3)
	var ops []VOp
	switch {
	case g < loadGroups:
		// W[t..t+3] = the big-endian message words.
		ops = []VOp{{Kind: LoadBE, Dst: w, Group: g, Comment: first + "load and byte-swap"}}
	case g < 2*loadGroups:
		// W[t] = rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]), t = 4g..4g+3.
		w16, w12, w8, w4 := Window(g-4), Window(g-3), Window(g-2), Window(g-1)
		ops = []VOp{op2(Straddle, w, w16, w12)} // W[t-14..t-11]
		if shape == RotateInPlace {
			ops = append(ops,
				op1(WordsDown, T0, w4, 1), // W[t-3..t-1], 0
				op2(Xor, w, w, w16),
				op2(Xor, T0, T0, w8),
				op2(Xor, w, w, T0))
		} else {
			// The newest words, from the previous group, last: the chain
			// from one group to the next runs through one XOR.
			ops = append(ops,
				op2(Xor, w, w, w16),
				op2(Xor, w, w, w8),
				op1(WordsDown, T0, w4, 1), // W[t-3..t-1], 0
				op2(Xor, w, w, T0))
		}
		// x: lanes 0..2 complete, lane 3 lacks W[t].
		ops = append(ops, op1(WordsUp, T1, w, 3)) // x0 alone, in lane 3
		// rol1(x) ^ rol2(x0 in lane 3): rol1(x3 ^ W[t]) = rol1(x3) ^ rol2(x0),
		// since W[t] = rol1(x0).
		if shape == RotateInPlace {
			ops = append(ops,
				rol(w, w, 1, T0),
				VOp{Kind: XorRol, Dst: w, A: T1, Scratch: T0, N: 2},
			)
		} else {
			ops = append(ops,
				rol(T0, w, 1, NoReg),
				rol(w, T1, 2, NoReg),
				op2(Xor, w, w, T0),
			)
		}
		ops[0].Comment = first + "rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16])"
	default:
		// W[t] = rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]); w holds W[t-32..].
		// The XOR gathers in w for a rotate in place, or in T0 for a
		// rotate into w. Either way the newest words, W[t-6..t-3], which
		// come from the previous group, are XORed in last, so that the
		// chain of dependences from one group to the next runs through one
		// XOR and the rotate.
		w28, w16, w8, w4 := Window(g-7), Window(g-4), Window(g-2), Window(g-1)
		var reload []VOp
		if spill { // w holds W[t-20..]: reload W[t-32..] into it, W[t-28..] into T1
			reload = []VOp{{Kind: Reload, Dst: w, Word: 4 * (g - 8)}, {Kind: Reload, Dst: T1, Word: 4 * (g - 7)}}
			w28 = T1
		}
		if shape == RotateInPlace {
			ops = []VOp{
				op2(Straddle, T0, w8, w4), // W[t-6..t-3]
				op2(Xor, w, w, w28),
				op2(Xor, w, w, w16),
				op2(Xor, w, w, T0),
				rol(w, w, 2, T0),
			}
		} else {
			ops = []VOp{
				op2(Xor, T0, w, w28),
				op2(Xor, T0, T0, w16),
				op2(Straddle, T1, w8, w4), // W[t-6..t-3]
				op2(Xor, T0, T0, T1),
				rol(w, T0, 2, NoReg),
			}
		}
		ops = append(reload, ops...)
		ops[0].Comment = first + "rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32])"
	}
	if spill && g <= 12 { // read back by groups 8..19 as W[t-28] or W[t-32]
		ops = append(ops, VOp{Kind: Spill, A: w, Word: word})
	}
	ops = append(ops,
		VOp{Kind: AddK, Dst: T0, A: w, Word: 4 * g},
		VOp{Kind: Store, A: T0, Word: word},
	)
	for i := range ops {
		ops[i].Group = g
	}
	return ops
}

func op2(k VKind, dst, a, b VReg) VOp { return VOp{Kind: k, Dst: dst, A: a, B: b} }

func op1(k VKind, dst, a VReg, n int) VOp { return VOp{Kind: k, Dst: dst, A: a, N: n} }

func rol(dst, a VReg, n int, scratch VReg) VOp {
	return VOp{Kind: Rol, Dst: dst, A: a, Scratch: scratch, N: n}
}
