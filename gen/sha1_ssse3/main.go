// Command sha1_ssse3 generates the SSSE3 SHA-1 block function: the schedule
// of gen/internal/sha1x86 in two-operand SSE encodings.
//
//	go -C ../gen run ./sha1_ssse3 -out ../sha1/sha1block_ssse3_amd64.s [schedule flags]
//
// The schedule flags (-lookahead, -placement, -ch, -maj, -rotate, -align)
// are listed by -help. Its default schedule takes the XOR form of Maj
// (-maj xor), unlike the avx kernel's; see sha1x86.DefaultParams.
package main

import "github.com/simdhash/simdhash/gen/internal/sha1x86"

func main() { sha1x86.Main(sha1x86.SSSE3) }
