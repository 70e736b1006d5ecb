package sha1dc

import (
	"fmt"
	"unsafe"
)

// SumMany sets sums[i], detected[i] to Sum(msgs[i]) for every i: the
// checksum of each message (the safe hash where a collision was detected)
// and whether one was.
//
// The messages may have any lengths, including zero, and may share or
// overlap their memory; sums and detected must not overlap any message, or
// SumMany panics. It panics if len(sums) or len(detected) differs from
// len(msgs). It does not allocate, and it reads nothing outside the
// messages. With the "generic" kernel it is a loop of Sum.
func SumMany(sums [][Size]byte, detected []bool, msgs [][]byte) {
	if len(sums) != len(msgs) || len(detected) != len(msgs) {
		panic(fmt.Sprintf("sha1dc: SumMany: len(sums) = %d, len(detected) = %d but len(msgs) = %d: want one sum and one flag per message",
			len(sums), len(detected), len(msgs)))
	}
	if len(msgs) == 0 {
		return
	}
	checkOverlap("sums", unsafe.Pointer(&sums[0]), uintptr(len(sums))*Size, msgs)
	checkOverlap("detected", unsafe.Pointer(&detected[0]), uintptr(len(detected)), msgs)
	for i, m := range msgs {
		sums[i], detected[i] = Sum(m)
	}
}

// checkOverlap panics if the n bytes at p, the output called name, overlap
// any message.
func checkOverlap(name string, p unsafe.Pointer, n uintptr, msgs [][]byte) {
	lo := uintptr(p)
	hi := lo + n
	for i, m := range msgs {
		if len(m) == 0 {
			continue
		}
		if q := uintptr(unsafe.Pointer(unsafe.SliceData(m))); q < hi && lo < q+uintptr(len(m)) {
			panic(fmt.Sprintf("sha1dc: SumMany: %s overlaps msgs[%d]: the results would overwrite messages not yet hashed", name, i))
		}
	}
}
