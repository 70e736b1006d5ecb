package sha1shani

import (
	"fmt"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/simdhash/simdhash/gen/internal/avogen"
	"github.com/simdhash/simdhash/gen/internal/gentest"
	"github.com/simdhash/simdhash/gen/internal/sha1sched"
	"github.com/simdhash/simdhash/internal/cpuid"
)

// TestNative runs the one-stream kernel (the checked-in blockSHANI) and
// the two-stream kernel natively, in a scratch package, against
// internal/ref, around guard pages (gentest.SHA1Tests, StreamTests).
func TestNative(t *testing.T) {
	if !cpuid.SHA() {
		t.Skip("this CPU has no SHA extensions: TestEmulated runs the kernels on the emulator")
	}
	var ks []gentest.AvoKernel
	for streams := 1; streams <= 2; streams++ {
		name := fmt.Sprintf("kernel%d", streams)
		c := sha1sched.Contract{}
		if streams > 1 {
			c.Form = sha1sched.Streams
		}
		ks = append(ks, gentest.AvoKernel{Decl: c.Decl(name), Argv: []string{"TestNative", name},
			Generate: func(ctx *build.Context) error { return Generate(ctx, name, streams) }})
	}
	files := gentest.SHA1Tests("amd64", "")
	files["streams_linux_test.go"] = gentest.StreamTests("amd64", "")["streams_linux_test.go"]
	dir := gentest.AvoScratch(t, "TestNative", avogen.AMD64, ks,
		"var variants = []variant{{\"1 stream\", kernel1}}\n\nvar streamVariants = []streamVariant{{\"2 streams\", 2, kernel2}}\n", files)
	t.Logf("natively: %s", gentest.GoTest(t, dir))
}
