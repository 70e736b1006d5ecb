// Command sha1insn hashes a 64 KiB buffer a number of times with
// sha1.Sum or crypto/sha1.Sum, for scripts/insn-count.sh, which runs it
// under qemu user-mode emulation and counts the instructions each block
// function executes. Usage:
//
//	sha1insn ours|stdlib TIMES
//
// It prints the digest and the kernel that sha1 chose.
package main

import (
	stdsha1 "crypto/sha1"
	"fmt"
	"os"
	"strconv"

	"github.com/simdhash/simdhash/sha1"
)

func main() {
	n, err := strconv.Atoi(os.Args[len(os.Args)-1])
	if len(os.Args) != 3 || err != nil || n < 1 || (os.Args[1] != "ours" && os.Args[1] != "stdlib") {
		fmt.Fprintln(os.Stderr, "usage: sha1insn ours|stdlib TIMES")
		os.Exit(2)
	}
	buf := make([]byte, 64<<10)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	var sum [20]byte
	for range n {
		if os.Args[1] == "ours" {
			sum = sha1.Sum(buf)
		} else {
			sum = stdsha1.Sum(buf)
		}
	}
	fmt.Printf("%x %s\n", sum, sha1.Kernel())
}
