// Command cpuid generates a tiny amd64 routine that executes the CPUID
// instruction, for package internal/cpuid, which reads the feature bits
// that golang.org/x/sys/cpu does not export for sha1 and ghash (the SHA
// extensions, CPUID leaf 7, sub-leaf 0, EBX bit 29; VPCLMULQDQ without
// AVX-512, ECX bit 10; Intel SDM vol. 2A, "CPUID"). Usage, from the
// package directory:
//
//	go -C ../../gen run ./cpuid -out ../internal/cpuid/cpuid_amd64.s
//
// The function it writes is
//
//	func cpuid(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)
//
// and the package declares it in a file built for amd64 && !purego.
package main

import (
	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/reg"
	"github.com/simdhash/simdhash/gen/internal/avogen"
)

func main() {
	avogen.Main("cpuid", "cpuid", nil, func(ctx *build.Context) error {
		describe(ctx)
		return nil
	})
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
