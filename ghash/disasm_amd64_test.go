//go:build linux && amd64 && !purego

package ghash

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/internal/asmtext"
)

// TestWideEncodings disassembles the wide kernels and calibration loops of
// this package's test binary (built again with go test -c, since go test
// strips the symbols of the one it runs) with GNU objdump and compares each with its generated
// .s file, instruction by instruction: the same vector mnemonics on
// registers of the same widths and numbers, in order. Every instruction on
// XMM and YMM registers must be VEX-encoded (so that the 256-bit kernel,
// and the narrower loops of the 512-bit one, run on AVX2 cores without
// AVX-512) and every one on ZMM registers EVEX-encoded. This is how the
// 512-bit kernel's encodings are checked on a machine that cannot run it;
// gen/ghash_pclmul's emulator checks what the instructions compute.
func TestWideEncodings(t *testing.T) {
	objdump, err := exec.LookPath("objdump")
	if err != nil {
		t.Skip("no objdump (GNU binutils) to disassemble with")
	}
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the test binary with")
	}
	if testing.Short() {
		t.Skip("builds the test binary again; not with -short")
	}
	exe := t.TempDir() + "/ghash.test"
	if out, err := exec.Command(gocmd, "test", "-c", "-vet=off", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	// Referenced here, so that the linker keeps them in the binary.
	fns := []struct {
		name, file string
		fn         any
	}{
		{"ghashVPCLMUL256", "ghash_vpclmul256_amd64.s", ghashVPCLMUL256},
		{"ghashVPCLMUL512", "ghash_vpclmul512_amd64.s", ghashVPCLMUL512},
		{"clmulLoop256", "ghash_vpclmul256_amd64.s", clmulLoop256},
		{"clmulLoop512", "ghash_vpclmul512_amd64.s", clmulLoop512},
	}
	for _, f := range fns {
		t.Run(f.name, func(t *testing.T) {
			src, err := os.ReadFile(f.file)
			if err != nil {
				t.Fatal(err)
			}
			want := sourceVector(t, string(src), f.name)
			sym := "github.com/simdhash/simdhash/ghash." + f.name + ".abi0"
			out, err := exec.Command(objdump, "-d", "--disassemble="+sym, exe).Output()
			if err != nil {
				t.Fatalf("objdump: %v", err)
			}
			got := objdumpVector(t, string(out))
			if len(got) != len(want) {
				t.Fatalf("%d vector instructions in the binary, %d in %s", len(got), len(want), f.file)
			}
			zmm := 0
			for i := range want {
				if got[i].text != want[i].text {
					t.Fatalf("vector instruction %d: binary %q, %s %q", i, got[i].text, f.file, want[i].text)
				}
				wide := strings.Contains(want[i].text, "Z")
				switch {
				case wide && got[i].prefix != 0x62:
					t.Errorf("%q is not EVEX-encoded (first byte %#x)", got[i].text, got[i].prefix)
				case !wide && got[i].prefix != 0xc4 && got[i].prefix != 0xc5:
					t.Errorf("%q is not VEX-encoded (first byte %#x): it would need AVX-512", got[i].text, got[i].prefix)
				}
				if wide {
					zmm++
				}
			}
			if strings.HasSuffix(f.name, "512") && zmm == 0 {
				t.Error("no instruction on ZMM registers: is this the 512-bit code?")
			}
		})
	}
}

// vecInst is a vector instruction as "mnemonic R R ..." (lower-case
// mnemonic, its registers in Go's names and order) and, from the binary,
// its first encoding byte.
type vecInst struct {
	text   string
	prefix byte
}

var (
	goVecReg  = regexp.MustCompile(`\b([XYZ])(\d+)\b`)
	gnuVecReg = regexp.MustCompile(`%([xyz])mm(\d+)`)
	gnuLine   = regexp.MustCompile(`^\s*[0-9a-f]+:\t([0-9a-f]{2})[0-9a-f ]*\t(\S+)\s*(.*)$`)
	gnuClmul  = regexp.MustCompile(`^vpclmul[lh]q[lh]qdq$`)
)

// sourceVector returns the vector instructions of TEXT name in a
// generated file.
func sourceVector(t *testing.T, src, name string) []vecInst {
	t.Helper()
	body, ok := asmtext.Body(src, name)
	if !ok {
		t.Fatalf("no TEXT ·%s(SB)", name)
	}
	var out []vecInst
	for _, line := range body {
		f := strings.Fields(asmtext.Code(line))
		if len(f) == 0 || !strings.HasPrefix(f[0], "V") {
			continue
		}
		text := strings.ToLower(f[0])
		for _, m := range goVecReg.FindAllStringSubmatch(strings.Join(f[1:], " "), -1) {
			text += " " + m[1] + m[2]
		}
		out = append(out, vecInst{text: text})
	}
	return out
}

// objdumpVector returns the vector instructions of objdump's listing.
func objdumpVector(t *testing.T, listing string) []vecInst {
	t.Helper()
	var out []vecInst
	for _, line := range strings.Split(listing, "\n") {
		m := gnuLine.FindStringSubmatch(line)
		if m == nil || !strings.HasPrefix(m[2], "v") {
			continue
		}
		mnem := m[2]
		if gnuClmul.MatchString(mnem) { // objdump names the immediate's choice
			mnem = "vpclmulqdq"
		}
		text := mnem
		for _, r := range gnuVecReg.FindAllStringSubmatch(m[3], -1) {
			text += " " + strings.ToUpper(r[1]) + r[2]
		}
		var b byte
		fmt.Sscanf(m[1], "%02x", &b)
		out = append(out, vecInst{text: text, prefix: b})
	}
	return out
}
