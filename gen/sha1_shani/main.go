// Command sha1_shani generates the SHA-1 block function of package sha1
// that uses the Intel SHA extensions: SHA1RNDS4 runs four rounds at a time,
// SHA1NEXTE derives the next four rounds' E, and SHA1MSG1 and SHA1MSG2
// compute the message schedule four words at a time. Usage, from the sha1
// package directory:
//
//	go run github.com/simdhash/simdhash/gen/sha1_shani -out sha1block_shani_amd64.s
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
	"flag"
	"os"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
)

func main() {
	fs := flag.NewFlagSet("sha1_shani", flag.ExitOnError)
	out := fs.String("out", "", "write the Go assembly to `file` (required)")
	pkg := fs.String("pkg", "sha1", "Go package of the output")
	fs.Parse(os.Args[1:])
	if *out == "" || fs.NArg() != 0 {
		fs.Usage()
		os.Exit(2)
	}
	ctx := build.NewContext()
	ctx.Package("github.com/simdhash/simdhash/" + *pkg)
	ctx.ConstraintExpr("amd64,!purego")
	if err := generate(ctx); err != nil {
		avogen.Fatal("sha1_shani", err)
	}
	if err := avogen.Write(ctx, *out, *pkg, avogen.Command(os.Args[1:])); err != nil {
		avogen.Fatal("sha1_shani", err)
	}
}
