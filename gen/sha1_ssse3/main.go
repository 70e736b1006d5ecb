// Command sha1_ssse3 generates the SSSE3 SHA-1 block function: the
// description of gen/internal/sha1sched through the x86 backend
// (gen/internal/sha1x86) in two-operand SSE encodings.
//
//	go -C ../gen run ./sha1_ssse3 -out ../sha1/sha1block_ssse3_amd64.s [knobs]
//	go -C ../gen run ./sha1_ssse3 -arch 386 -out ../sha1/sha1block_ssse3_386.s [knobs]
//
// -arch 386 writes the same kernel for 32-bit x86 (gen/internal/sha1x86's
// x386.go), with the same knobs. The knobs (-lookahead, -placement, -ch, -maj, -rotate, -align) are
// listed by -help. Its defaults take the XOR form of Maj (-maj xor),
// unlike the avx kernel's; see sha1x86.Kernel.Defaults.
package main

import "github.com/simdhash/simdhash/gen/internal/sha1x86"

func main() { sha1x86.Main(sha1x86.SSSE3) }
