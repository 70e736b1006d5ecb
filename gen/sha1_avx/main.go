// Command sha1_avx generates the AVX SHA-1 block function: the description
// of gen/internal/sha1sched through the x86 backend (gen/internal/sha1x86)
// in three-operand VEX encodings.
//
//	go -C ../gen run ./sha1_avx -out ../sha1/sha1block_avx_amd64.s [knobs]
//	go -C ../gen run ./sha1_avx -arch 386 -out ../sha1/sha1block_avx_386.s [knobs]
//
// -arch 386 writes the same kernel for 32-bit x86 (gen/internal/sha1x86's
// x386.go), with the same knobs. The knobs (-lookahead, -placement, -ch, -maj, -rotate, -align) are
// listed by -help.
package main

import "github.com/simdhash/simdhash/gen/internal/sha1x86"

func main() { sha1x86.Main(sha1x86.AVX) }
