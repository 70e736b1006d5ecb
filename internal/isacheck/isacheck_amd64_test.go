//go:build amd64 && !purego

package isacheck

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/simdhash/simdhash/internal/asmtext"
	"github.com/simdhash/simdhash/internal/cpuid"
	"golang.org/x/sys/cpu"
)

// The kernels whose forms need a check: those no CPU here runs natively.
var wideKernels = []string{
	"../../ghash/ghash_vpclmul512_amd64.s",
	"../../sha1/sha1many_avx512_amd64.s",
}

// The kernels that run natively on this project's machines (against
// internal/ref and known answers) and pass under bochs too, in the same
// make test-bochs runs: their forms are emulated as the hardware executes
// them, as far as those tests reach, so a wide kernel's use of the same
// forms needs no check here.
var nativeKernels = []string{
	"../../ghash/ghash_amd64.s",
	"../../ghash/ghash_vpclmul256_amd64.s",
	"../../sha1/sha1block_ssse3_amd64.s",
	"../../sha1/sha1block_avx_amd64.s",
	"../../sha1/sha1block_avx2_amd64.s",
	"../../sha1/sha1many_avx2_amd64.s",
}

// A checkedForm is one form execForm executes, as exec_amd64.s names it.
type checkedForm struct {
	n         int    // execForm's form number
	registers string // the register set
	text      string // "VPROLD $0x1e, Z, Z"
}

var formComment = regexp.MustCompile(`^\s*// form (\d+) \(([^)]*)\): (.*)$`)

// checkedForms reads the forms of execForm from exec_amd64.s, numbered in
// order.
func checkedForms(t *testing.T) []checkedForm {
	src, err := os.ReadFile("exec_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	var forms []checkedForm
	for line := range strings.Lines(string(src)) {
		if m := formComment.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			n, _ := strconv.Atoi(m[1])
			if n != len(forms) {
				t.Fatalf("exec_amd64.s: form %d follows form %d", n, len(forms)-1)
			}
			forms = append(forms, checkedForm{n, m[2], m[3]})
		}
	}
	if len(forms) == 0 {
		t.Fatal("exec_amd64.s names no form")
	}
	return forms
}

var (
	vectorInsn = regexp.MustCompile(`^\s*((?:V|K)[A-Z0-9.]+)(?:\s+(.*))?$`)
	operandSep = regexp.MustCompile(`,\s*`)
	vectorReg  = regexp.MustCompile(`^([XYZ])\d+$`)
	opmaskReg  = regexp.MustCompile(`^K[0-7]$`)
	generalReg = regexp.MustCompile(`^(AX|BX|CX|DX|SI|DI|BP|R(8|9|1[0-5]))$`)
)

// formsOf returns the vector and opmask instruction forms in a kernel's
// text, named as checkedForm.text names them: an operand is its
// immediate, its register kind (X, Y, Z, K, r for a general register) or
// m for memory.
func formsOf(t *testing.T, file string) map[string]bool {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	forms := map[string]bool{}
	for line := range strings.Lines(string(src)) {
		m := vectorInsn.FindStringSubmatch(strings.TrimSpace(asmtext.Code(line)))
		if m == nil {
			continue
		}
		text := m[1]
		if m[2] != "" {
			var kinds []string
			for _, op := range operandSep.Split(m[2], -1) {
				switch {
				case strings.HasPrefix(op, "$"):
					kinds = append(kinds, op)
				case strings.Contains(op, "("):
					kinds = append(kinds, "m")
				case vectorReg.MatchString(op):
					kinds = append(kinds, op[:1])
				case opmaskReg.MatchString(op):
					kinds = append(kinds, "K")
				case generalReg.MatchString(op):
					kinds = append(kinds, "r")
				default:
					t.Fatalf("%s: operand %q of %q: unknown kind", file, op, strings.TrimSpace(line))
				}
			}
			text += " " + strings.Join(kinds, ", ")
		}
		forms[text] = true
	}
	return forms
}

// TestCoverage checks that every vector instruction form of the wide
// kernels that no natively tested kernel uses is checked here, on both
// register sets, and that every form checked has a model. It needs no
// AVX-512: it reads the kernels' generated text.
func TestCoverage(t *testing.T) {
	checked := map[string][]string{}
	for _, f := range checkedForms(t) {
		checked[f.text] = append(checked[f.text], f.registers)
		var in [4][64]byte
		var out [64]byte
		if _, _, err := model(f.text, &in, &out); err != nil {
			t.Errorf("form %d, %s: %v", f.n, f.text, err)
		}
	}
	native := map[string]bool{}
	for _, file := range nativeKernels {
		for f := range formsOf(t, file) {
			native[f] = true
		}
	}
	for _, file := range wideKernels {
		var need []string
		for f := range formsOf(t, file) {
			if !native[f] {
				need = append(need, f)
			}
		}
		if len(need) == 0 {
			t.Errorf("%s: no form that the native kernels lack: does the file hold the wide kernel?", file)
		}
		slices.Sort(need)
		for _, f := range need {
			if len(checked[f]) < 2 {
				t.Errorf("%s uses %q, which execForm checks on %d register sets, not 2: add it to gen/isacheck", file, f, len(checked[f]))
			}
		}
		t.Logf("%s: %d forms need a check here", file, len(need))
	}
}

// TestForms runs every form of execForm on random operands, at random
// alignments, and compares its result with the form's model.
func TestForms(t *testing.T) {
	x := &cpu.X86
	ok, missing := cpuid.Need(
		cpuid.Feature{Name: "AVX512F", OK: x.HasAVX512 && x.HasAVX512F}, cpuid.Feature{Name: "AVX512VL", OK: x.HasAVX512VL},
		cpuid.Feature{Name: "AVX512BW", OK: x.HasAVX512BW}, cpuid.Feature{Name: "AVX512VPCLMULQDQ", OK: x.HasAVX512VPCLMULQDQ},
		cpuid.Feature{Name: "AVX", OK: x.HasAVX})
	if !ok {
		msg := "the CPU lacks " + missing + " (or GODEBUG turns it off): the forms run under bochs, make test-bochs (docs/verification.md)"
		if os.Getenv("SIMDHASH_ISACHECK") == "require" {
			t.Fatal(msg + "; SIMDHASH_ISACHECK=require")
		}
		t.Skip(msg)
	}
	forms := checkedForms(t)
	var in [4][64]byte
	var out [64]byte
	if execForm(len(forms), &in, &out) {
		t.Fatalf("execForm(%d) executed a form; exec_amd64.s names %d", len(forms), len(forms))
	}
	trials := 400
	if testing.Short() {
		trials = 100
	}
	r := rand.New(rand.NewPCG(0x15a, 0xc4ec))
	buf := make([]byte, 5*64+64)
	for _, f := range forms {
		t.Run(fmt.Sprintf("%d %s (%s)", f.n, f.text, f.registers), func(t *testing.T) {
			for trial := 0; trial < trials; trial++ {
				off := r.IntN(64)
				in := (*[4][64]byte)(unsafe.Pointer(&buf[off]))
				out := (*[64]byte)(unsafe.Pointer(&buf[off+4*64]))
				for i := range in {
					fill(r, in[i][:], trial)
				}
				if trial%4 == 1 { // equal dwords, for the compares
					for j := 0; j < 16; j += 1 + r.IntN(3) {
						copy(in[1][4*j:4*j+4], in[0][4*j:4*j+4])
					}
				}
				fill(r, out[:], trial)
				before := *out
				want, n, err := model(f.text, in, &before)
				if err != nil {
					t.Fatal(err)
				}
				saved := *in
				if !execForm(f.n, in, out) {
					t.Fatalf("execForm(%d) has no such form", f.n)
				}
				if *in != saved {
					t.Fatalf("trial %d: the form changed its input", trial)
				}
				if got := out[:]; !slices.Equal(got, want[:]) {
					t.Fatalf("trial %d, operands %x:\n got %x\nwant %x\n(%d bytes of the destination)", trial, saved, got[:n], want[:n], n)
				}
			}
		})
	}
}

// fill sets b to random bytes, or to edge values: all zeros, all ones,
// and dwords at the signed and unsigned limits.
func fill(r *rand.Rand, b []byte, trial int) {
	switch {
	case trial == 0:
		clear(b)
	case trial == 1:
		for i := range b {
			b[i] = 0xff
		}
	case trial%8 == 3:
		edges := []uint32{0, 1, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff}
		for j := 0; j+4 <= len(b); j += 4 {
			binary.LittleEndian.PutUint32(b[j:], edges[r.IntN(len(edges))])
		}
	default:
		for i := range b {
			b[i] = byte(r.Uint32())
		}
	}
}

// model computes what form text (a checkedForm's) does to operands in and
// destination memory or register out, as execForm lays them out, from the
// instruction's definition in the Intel SDM, vol. 2: the bytes execForm
// must store, of which the first n are the destination's (the rest of
// out is left as it was).
func model(text string, in *[4][64]byte, out *[64]byte) (want [64]byte, n int, err error) {
	mnemonic, rest, _ := strings.Cut(text, " ")
	imm := -1
	var kinds string
	for _, op := range strings.Split(rest, ", ") {
		if h, ok := strings.CutPrefix(op, "$0x"); ok {
			v, err := strconv.ParseUint(h, 16, 8)
			if err != nil {
				return want, 0, fmt.Errorf("immediate %q", op)
			}
			imm = int(v)
			continue
		}
		kinds += op
	}
	n = 64
	a, b, c := &in[0], &in[1], &in[2] // the operands in Go's order
	switch mnemonic + " " + kinds {
	case "VMOVDQU64 mZ", "VMOVDQU32 mZ", "VMOVDQU32 ZZ", "VMOVDQA64 ZZ":
		want = *a
	case "VMOVDQU32 mX":
		// An EVEX write of an XMM register zeroes the rest of its ZMM.
		copy(want[:16], a[:16])
	case "VMOVDQU32 ZKm":
		// A store under opmask b: dword j of a where bit j of b is set; the
		// destination memory (out, a copy of c) keeps the others.
		k := binary.LittleEndian.Uint16(b[:])
		for j := 0; j < 16; j++ {
			src := c
			if k>>j&1 != 0 {
				src = a
			}
			copy(want[4*j:4*j+4], src[4*j:4*j+4])
		}
	case "VBROADCASTI32X4 mZ":
		for l := 0; l < 4; l++ {
			copy(want[16*l:], a[:16])
		}
	case "VPBROADCASTQ mZ":
		for l := 0; l < 8; l++ {
			copy(want[8*l:], a[:8])
		}
	case "VINSERTI32X4 mZZ":
		want = *b
		copy(want[16*(imm&3):16*(imm&3)+16], a[:16])
	case "VEXTRACTI64X4 ZY":
		copy(want[:32], a[32*(imm&1):32*(imm&1)+32])
	case "VPSHUFB ZZZ", "VPSHUFB mZZ":
		// Each byte of b's 128-bit lane picked by the byte of a: zero if
		// its top bit is set, else the byte its low four bits number.
		for i := range want {
			if sel := a[i]; sel&0x80 == 0 {
				want[i] = b[i&^15+int(sel&15)]
			}
		}
	case "VPSHUFD ZZ":
		for i := 0; i < 16; i++ {
			putD(&want, i, d(a, i&^3+imm>>(2*(i&3))&3))
		}
	case "VPXORD ZZZ":
		for i := range want {
			want[i] = a[i] ^ b[i]
		}
	case "VPADDD ZZZ", "VPADDD mZZ", "VPADDD.BCST mZZ":
		for i := 0; i < 16; i++ {
			x := d(a, i)
			if strings.HasSuffix(mnemonic, ".BCST") {
				x = d(a, 0) // {1to16}: the first dword of the memory, to every lane
			}
			putD(&want, i, d(b, i)+x)
		}
	case "VPROLD ZZ":
		for i := 0; i < 16; i++ {
			putD(&want, i, bits.RotateLeft32(d(a, i), imm))
		}
	case "VPUNPCKLDQ ZZZ", "VPUNPCKHDQ ZZZ":
		// Dwords of each lane, interleaved: Intel's first source is Go's
		// second operand (b).
		h := 0
		if mnemonic == "VPUNPCKHDQ" {
			h = 2
		}
		for l := 0; l < 4; l++ {
			putD(&want, 4*l+0, d(b, 4*l+h))
			putD(&want, 4*l+1, d(a, 4*l+h))
			putD(&want, 4*l+2, d(b, 4*l+h+1))
			putD(&want, 4*l+3, d(a, 4*l+h+1))
		}
	case "VPUNPCKLQDQ ZZZ", "VPUNPCKHQDQ ZZZ":
		h := 0
		if mnemonic == "VPUNPCKHQDQ" {
			h = 1
		}
		for l := 0; l < 4; l++ {
			putQ(&want, 2*l, q(b, 2*l+h))
			putQ(&want, 2*l+1, q(a, 2*l+h))
		}
	case "VPCLMULQDQ ZZZ", "VPCLMULQDQ mZZ":
		// In each 128-bit lane, the carry-less product of a quadword of
		// Intel's first source (Go's b), chosen by bit 0 of the immediate,
		// and one of the second (a), by bit 4.
		for l := 0; l < 4; l++ {
			hi, lo := clmul(q(b, 2*l+imm&1), q(a, 2*l+imm>>4&1))
			putQ(&want, 2*l, lo)
			putQ(&want, 2*l+1, hi)
		}
	case "VPTERNLOGD ZZZ":
		// Bit i of the result is bit (x<<2 | y<<1 | z) of the immediate, for
		// the bits i of the destination (c), Intel's second operand (b) and
		// its third (a).
		for i := range want {
			for bit := 0; bit < 8; bit++ {
				idx := int(c[i]>>bit&1)<<2 | int(b[i]>>bit&1)<<1 | int(a[i]>>bit&1)
				want[i] |= byte(imm>>idx&1) << bit
			}
		}
	case "VPCMPGTD ZZK":
		// Bit j of the opmask: dword j of Intel's first source (b) is
		// greater than that of the second (a), as signed numbers. KMOVW
		// stores 16 bits; the rest of out stays.
		want = *out
		var k uint16
		for j := 0; j < 16; j++ {
			if int32(d(b, j)) > int32(d(a, j)) {
				k |= 1 << j
			}
		}
		binary.LittleEndian.PutUint16(want[:], k)
		n = 2
	default:
		return want, 0, fmt.Errorf("no model of %q", text)
	}
	return want, n, nil
}

func d(v *[64]byte, i int) uint32 { return binary.LittleEndian.Uint32(v[4*i:]) }
func q(v *[64]byte, i int) uint64 { return binary.LittleEndian.Uint64(v[8*i:]) }

func putD(v *[64]byte, i int, x uint32) { binary.LittleEndian.PutUint32(v[4*i:], x) }
func putQ(v *[64]byte, i int, x uint64) { binary.LittleEndian.PutUint64(v[8*i:], x) }

// clmul is the carry-less product of x and y, bit by bit.
func clmul(x, y uint64) (hi, lo uint64) {
	for i := 0; i < 64; i++ {
		if y>>i&1 != 0 {
			lo ^= x << i
			if i > 0 {
				hi ^= x >> (64 - i)
			}
		}
	}
	return hi, lo
}

// TestClmul checks the model's carry-less multiply on products known by
// hand: x^63 * x = x^64, and (x+1)^2 = x^2+1.
func TestClmul(t *testing.T) {
	for _, c := range []struct{ x, y, hi, lo uint64 }{
		{1 << 63, 2, 1, 0},
		{3, 3, 0, 5},
		{0xffffffffffffffff, 1, 0, 0xffffffffffffffff},
		{0xffffffffffffffff, 0xffffffffffffffff, 0x5555555555555555, 0x5555555555555555},
	} {
		if hi, lo := clmul(c.x, c.y); hi != c.hi || lo != c.lo {
			t.Errorf("clmul(%#x, %#x) = %#x:%#x, want %#x:%#x", c.x, c.y, hi, lo, c.hi, c.lo)
		}
	}
}
