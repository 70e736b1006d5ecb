package sha1sched

// Func is the function f_t of a round (FIPS 180-4, 4.1.1).
type Func int

// The round functions.
const (
	FCh     Func = iota // rounds 0..19: Ch(b, c, d) = (b & c) | (~b & d)
	FParity             // rounds 20..39 and 60..79: b ^ c ^ d
	FMaj                // rounds 40..59: Maj(b, c, d) = (b & c) | (b & d) | (c & d)
)

func (f Func) String() string { return [...]string{"Ch", "Parity", "Maj"}[f] }

// F returns the function of round t (0..79).
func F(t int) Func {
	switch t / 20 {
	case 0:
		return FCh
	case 2:
		return FMaj
	}
	return FParity
}

// K returns SHA-1's constant for round t (FIPS 180-4, 4.2.1).
func K(t int) uint32 {
	return [4]uint32{0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6}[t/20]
}

// KTable is the kernels' table of K: the constants of rounds 0, 20, 40 and
// 60, each repeated copies times, so that row i adds K(20i) to every lane.
func KTable(copies int) []uint32 {
	var t []uint32
	for i := 0; i < 4*copies; i++ {
		t = append(t, K(20*(i/copies)))
	}
	return t
}

// ByteSwapTable is the byte indexes (as PSHUFB takes them, counting
// within each 16 bytes) that reverse the bytes of each of words 32-bit
// words: the little-endian word i holds 4i+3, 4i+2, 4i+1, 4i.
func ByteSwapTable(words int) []uint32 {
	var t []uint32
	for i := 0; i < words; i++ {
		b := uint32(4 * (i % 4))
		t = append(t, b+3|(b+2)<<8|(b+1)<<16|b<<24)
	}
	return t
}

// Round is what a backend needs to emit round t:
//
//	e += W[t]+K;  e += f_t(b, c, d);  e += rol5(a);  b = rol30(b)
//
// after which the registers are renamed, not moved: the register that
// received the new value (e) is the next round's a, a is its b, and so on.
// The backend keeps that naming; it is a function of t alone, since 80 is
// a multiple of the five names.
type Round struct {
	T   int
	F   Func
	Ch  Ch  // the form of f in rounds 0..19
	Maj Maj // the form of f in rounds 40..59
	// WK is where W[t]+K waits: the step that reads it calls WK.Record.
	WK RingAccess
	// Ahead are the reads of W+K for the next rounds of the block, t+1,
	// t+2, ... (up to three, none past round 79): a target that loads
	// several rounds' words at once records their reads in the first step
	// of round t, and those rounds then record none. Each word is read
	// once (Generate checks it).
	Ahead []RingAccess
}
