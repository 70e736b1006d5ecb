// Command cpuid generates a tiny amd64 routine that executes the CPUID
// instruction, for packages whose kernels need a feature bit that
// golang.org/x/sys/cpu does not export (such as the SHA extensions, CPUID
// leaf 7, sub-leaf 0, EBX bit 29; Intel SDM vol. 2A, "CPUID"). Usage, from
// the package directory:
//
//	go run github.com/simdhash/simdhash/gen/cpuid -out cpuid_amd64.s [-pkg sha1]
//
// The function it writes is
//
//	func cpuid(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)
//
// and the package declares it in a file built for amd64 && !purego.
package main

import (
	"flag"
	"os"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/avogen"
)

func main() {
	fs := flag.NewFlagSet("cpuid", flag.ExitOnError)
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
	describe(ctx)
	if err := avogen.Write(ctx, *out, *pkg, avogen.Command(os.Args[1:])); err != nil {
		avogen.Fatal("cpuid", err)
	}
}

// describe emits cpuid: leaf goes in EAX and sub-leaf in ECX, and the four
// registers CPUID writes are the results.
func describe(ctx *build.Context) {
	ctx.Function("cpuid")
	ctx.Attributes(attr.NOSPLIT)
	ctx.SignatureExpr("func(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)")
	ctx.Doc("cpuid executes CPUID with EAX = leaf and ECX = subleaf.")
	ctx.Load(ctx.Param("leaf"), reg.EAX)
	ctx.Load(ctx.Param("subleaf"), reg.ECX)
	ctx.CPUID()
	ctx.Store(reg.EAX, ctx.Return("eax"))
	ctx.Store(reg.EBX, ctx.Return("ebx"))
	ctx.Store(reg.ECX, ctx.Return("ecx"))
	ctx.Store(reg.EDX, ctx.Return("edx"))
	ctx.RET()
}
