// Command sha1_neon generates the "neon" SHA-1 kernel of package sha1 for
// ARM cores without the SHA-1 instructions: the vectorised message
// schedule of gen/internal/sha1sched on NEON, with the rounds in general
// registers, through its ARM backend gen/internal/sha1arm. For arm64
// (sha1block_neon_arm64.s) and 32-bit ARM (-arch arm,
// sha1block_neon_arm.s, NEON as WORDs). Usage, from the sha1 package
// directory:
//
//	go -C ../gen run ./sha1_neon [-arch arm] -out ../sha1/sha1block_neon_arm64.s [-gnu loop.s] [knobs]
//
// -gnu writes the block loop (one block) in GNU syntax, for llvm-mca
// (scripts/mca.sh). The knobs are the schedule's (-lookahead, -placement,
// -ch, -maj) and the ARM backend's own; -help lists those of the -arch
// given, with their choices and defaults.
package main

import "github.com/simdhash/simdhash/gen/internal/sha1arm"

func main() { sha1arm.Command(false).Main() }
