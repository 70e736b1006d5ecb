package sha1dc

import "unsafe"

// unsafeBytes views sums as bytes, to make a message that overlaps them.
func unsafeBytes(sums [][Size]byte) []byte {
	return unsafe.Slice(&sums[0][0], len(sums)*Size)
}

// boolBytes views flags as bytes, to make a message that overlaps them.
func boolBytes(flags []bool) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(&flags[0])), len(flags))
}
