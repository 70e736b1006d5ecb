// Command sha1_shani generates the SHA-1 block function of package sha1
// that uses the Intel SHA extensions: SHA1RNDS4 runs four rounds at a time,
// SHA1NEXTE derives the next four rounds' E, and SHA1MSG1 and SHA1MSG2
// compute the message schedule four words at a time. Usage, from the sha1
// package directory:
//
//	go -C ../gen run ./sha1_shani -out ../sha1/sha1block_shani_amd64.s
//
// The instructions are described in S. Gulley, V. Gopal, K. Yap, W. Feghali,
// J. Guilford and G. Wolrich, "Intel SHA Extensions: New Instructions
// Supporting the Secure Hash Algorithm on Intel Architecture Processors"
// (Intel, July 2013), and in the Intel SDM, vol. 2. shani.go holds the
// description of the block function; emulate_test.go runs that description
// on a model of the four instructions, so the schedule is checked on any
// machine.
package main

import (
	"github.com/simdhash/simdhash/gen/internal/avogen"
)

func main() { avogen.Main("sha1_shani", "sha1", nil, generate) }
