package oracle

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The flags lines of CPUs of each class, as Linux prints them in
// /proc/cpuinfo (the words up to the first AVX-512 or SHA flag, and every
// flag the dispatchers read, in the kernel's order). Zen 5 is this
// project's machine of 2026-12-01 (AMD EPYC, family 26), read from its
// /proc/cpuinfo; the others are the published feature sets of those
// parts written as Linux names them.
var cpus = []struct {
	name  string
	flags string
	runs  []string // "GODEBUG: EXPECT..." per run, sha1's first
}{
	{
		name: "Westmere (Xeon X5650): PCLMULQDQ and AES, no AVX",
		flags: "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx " +
			"rdtscp lm constant_tsc pni pclmulqdq ssse3 cx16 sse4_1 sse4_2 popcnt aes lahf_lm",
		runs: []string{
			": SIMDHASH_SHA1_KERNEL=ssse3 SIMDHASH_SHA1_MANY_KERNEL=single",
			"cpu.sha=off,cpu.avx=off,cpu.ssse3=off: SIMDHASH_SHA1_KERNEL=generic SIMDHASH_SHA1_MANY_KERNEL=single",
			": SIMDHASH_GHASH_KERNEL=pclmul-sse",
			"cpu.pclmulqdq=off: SIMDHASH_GHASH_KERNEL=generic",
			": SIMDHASH_SHA1DC_KERNEL=ssse3 SIMDHASH_SHA1DC_MANY_KERNEL=single",
			"cpu.sha=off,cpu.avx=off,cpu.ssse3=off: SIMDHASH_SHA1DC_KERNEL=generic SIMDHASH_SHA1DC_MANY_KERNEL=single",
		},
	},
	{
		name: "Haswell (Xeon E5 v3): AVX2, BMI1, BMI2, no SHA-NI",
		flags: "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx " +
			"pdpe1gb rdtscp lm constant_tsc pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt aes xsave avx " +
			"f16c rdrand lahf_lm abm fsgsbase bmi1 avx2 smep bmi2 erms invpcid xsaveopt",
		runs: []string{
			": SIMDHASH_SHA1_KERNEL=avx2 SIMDHASH_SHA1_MANY_KERNEL=avx2x8",
			"cpu.sha=off,cpu.avx2=off: SIMDHASH_SHA1_KERNEL=avx SIMDHASH_SHA1_MANY_KERNEL=single",
			"cpu.sha=off,cpu.avx=off: SIMDHASH_SHA1_KERNEL=ssse3 SIMDHASH_SHA1_MANY_KERNEL=single",
			"cpu.sha=off,cpu.avx=off,cpu.ssse3=off: SIMDHASH_SHA1_KERNEL=generic SIMDHASH_SHA1_MANY_KERNEL=single",
			": SIMDHASH_GHASH_KERNEL=pclmul",
			"cpu.vpclmulqdq=off,cpu.avx=off: SIMDHASH_GHASH_KERNEL=pclmul-sse",
			"cpu.pclmulqdq=off: SIMDHASH_GHASH_KERNEL=generic",
			": SIMDHASH_SHA1DC_KERNEL=avx2 SIMDHASH_SHA1DC_MANY_KERNEL=avx2x8",
			"cpu.sha=off,cpu.avx2=off: SIMDHASH_SHA1DC_KERNEL=avx SIMDHASH_SHA1DC_MANY_KERNEL=single",
			"cpu.sha=off,cpu.avx=off: SIMDHASH_SHA1DC_KERNEL=ssse3 SIMDHASH_SHA1DC_MANY_KERNEL=single",
			"cpu.sha=off,cpu.avx=off,cpu.ssse3=off: SIMDHASH_SHA1DC_KERNEL=generic SIMDHASH_SHA1DC_MANY_KERNEL=single",
		},
	},
	{
		name: "Skylake-SP or Cascade Lake (Xeon Scalable 1st/2nd gen): AVX-512 without VPCLMULQDQ or SHA-NI",
		flags: "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ss ht syscall " +
			"nx pdpe1gb rdtscp lm constant_tsc pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt aes xsave " +
			"avx f16c rdrand lahf_lm abm 3dnowprefetch fsgsbase bmi1 hle avx2 smep bmi2 erms invpcid rtm mpx avx512f avx512dq " +
			"rdseed adx smap clflushopt clwb avx512cd avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves avx512_vnni",
		runs: []string{
			": SIMDHASH_SHA1_KERNEL=avx2 SIMDHASH_SHA1_MANY_KERNEL=avx512x16",
			"cpu.avx512=off: SIMDHASH_SHA1_KERNEL=avx2 SIMDHASH_SHA1_MANY_KERNEL=avx2x8",
			"cpu.sha=off,cpu.avx2=off: SIMDHASH_SHA1_KERNEL=avx SIMDHASH_SHA1_MANY_KERNEL=single",
			"cpu.sha=off,cpu.avx=off: SIMDHASH_SHA1_KERNEL=ssse3 SIMDHASH_SHA1_MANY_KERNEL=single",
			"cpu.sha=off,cpu.avx=off,cpu.ssse3=off: SIMDHASH_SHA1_KERNEL=generic SIMDHASH_SHA1_MANY_KERNEL=single",
			": SIMDHASH_GHASH_KERNEL=pclmul",
			"cpu.vpclmulqdq=off,cpu.avx=off: SIMDHASH_GHASH_KERNEL=pclmul-sse",
			"cpu.pclmulqdq=off: SIMDHASH_GHASH_KERNEL=generic",
			": SIMDHASH_SHA1DC_KERNEL=avx2 SIMDHASH_SHA1DC_MANY_KERNEL=avx512x16",
			"cpu.avx512=off: SIMDHASH_SHA1DC_KERNEL=avx2 SIMDHASH_SHA1DC_MANY_KERNEL=avx2x8",
			"cpu.sha=off,cpu.avx2=off: SIMDHASH_SHA1DC_KERNEL=avx SIMDHASH_SHA1DC_MANY_KERNEL=single",
			"cpu.sha=off,cpu.avx=off: SIMDHASH_SHA1DC_KERNEL=ssse3 SIMDHASH_SHA1DC_MANY_KERNEL=single",
			"cpu.sha=off,cpu.avx=off,cpu.ssse3=off: SIMDHASH_SHA1DC_KERNEL=generic SIMDHASH_SHA1DC_MANY_KERNEL=single",
		},
	},
	{
		name: "Zen 3 (EPYC 7003): SHA-NI and the 256-bit VPCLMULQDQ, no AVX-512",
		flags: "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx " +
			"mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 " +
			"x2apic movbe popcnt aes xsave avx f16c rdrand hypervisor lahf_lm cmp_legacy abm sse4a misalignsse 3dnowprefetch " +
			"fsgsbase bmi1 avx2 smep bmi2 erms invpcid rdseed adx smap clflushopt clwb sha_ni xsaveopt xsavec xgetbv1 xsaves " +
			"clzero xsaveerptr umip vaes vpclmulqdq rdpid fsrm",
		runs: []string{
			": SIMDHASH_SHA1_KERNEL=shani SIMDHASH_SHA1_MANY_KERNEL=avx2x8",
			"cpu.sha=off: SIMDHASH_SHA1_KERNEL=avx2 SIMDHASH_SHA1_MANY_KERNEL=avx2x8",
			"cpu.sha=off,cpu.avx2=off: SIMDHASH_SHA1_KERNEL=avx SIMDHASH_SHA1_MANY_KERNEL=single",
			"cpu.avx2=off: SIMDHASH_SHA1_KERNEL=shani SIMDHASH_SHA1_MANY_KERNEL=shanix3",
			"cpu.sha=off,cpu.avx=off: SIMDHASH_SHA1_KERNEL=ssse3 SIMDHASH_SHA1_MANY_KERNEL=single",
			"cpu.sha=off,cpu.avx=off,cpu.ssse3=off: SIMDHASH_SHA1_KERNEL=generic SIMDHASH_SHA1_MANY_KERNEL=single",
			": SIMDHASH_GHASH_KERNEL=vpclmul256",
			"cpu.vpclmulqdq=off: SIMDHASH_GHASH_KERNEL=pclmul",
			"cpu.vpclmulqdq=off,cpu.avx=off: SIMDHASH_GHASH_KERNEL=pclmul-sse",
			"cpu.pclmulqdq=off: SIMDHASH_GHASH_KERNEL=generic",
			": SIMDHASH_SHA1DC_KERNEL=shani-avx SIMDHASH_SHA1DC_MANY_KERNEL=avx2x8",
			"cpu.sha=off: SIMDHASH_SHA1DC_KERNEL=avx2 SIMDHASH_SHA1DC_MANY_KERNEL=avx2x8",
			"cpu.sha=off,cpu.avx2=off: SIMDHASH_SHA1DC_KERNEL=avx SIMDHASH_SHA1DC_MANY_KERNEL=single",
			"cpu.sha=off,cpu.avx=off: SIMDHASH_SHA1DC_KERNEL=ssse3 SIMDHASH_SHA1DC_MANY_KERNEL=single",
			"cpu.sha=off,cpu.avx=off,cpu.ssse3=off: SIMDHASH_SHA1DC_KERNEL=generic SIMDHASH_SHA1DC_MANY_KERNEL=single",
			"cpu.avx=off: SIMDHASH_SHA1DC_KERNEL=shani SIMDHASH_SHA1DC_MANY_KERNEL=single",
		},
	},
	{
		name: "Ice Lake-SP or Zen 4: AVX-512 with VPCLMULQDQ, and SHA-NI",
		flags: "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ss ht syscall " +
			"nx pdpe1gb rdtscp lm constant_tsc pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt aes xsave " +
			"avx f16c rdrand lahf_lm abm 3dnowprefetch fsgsbase bmi1 avx2 smep bmi2 erms invpcid avx512f avx512dq rdseed adx " +
			"smap avx512ifma clflushopt clwb avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves wbnoinvd " +
			"avx512vbmi umip pku ospke avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq rdpid",
		runs: zen5Runs,
	},
	{
		name: "Zen 5 (EPYC, family 26), this project's machine of 2026-12-01",
		flags: "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx " +
			"mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology nonstop_tsc cpuid extd_apicid " +
			"tsc_known_freq pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave " +
			"avx f16c rdrand hypervisor lahf_lm cmp_legacy cr8_legacy abm sse4a misalignsse 3dnowprefetch osvw topoext " +
			"vmmcall fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid avx512f avx512dq adx smap avx512ifma clflushopt " +
			"clwb avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves avx_vnni avx512_bf16 clzero xsaveerptr " +
			"arat avx512vbmi umip avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq rdpid fsrm " +
			"avx512_vp2intersect",
		runs: zen5Runs,
	},
}

// zen5Runs are the runs on a CPU with every x86 kernel: each sha1, SumMany,
// ghash and sha1dc kernel the dispatchers choose, once.
var zen5Runs = []string{
	": SIMDHASH_SHA1_KERNEL=shani SIMDHASH_SHA1_MANY_KERNEL=avx512x16",
	"cpu.sha=off: SIMDHASH_SHA1_KERNEL=avx2 SIMDHASH_SHA1_MANY_KERNEL=avx512x16",
	"cpu.avx512=off: SIMDHASH_SHA1_KERNEL=shani SIMDHASH_SHA1_MANY_KERNEL=avx2x8",
	"cpu.sha=off,cpu.avx2=off: SIMDHASH_SHA1_KERNEL=avx SIMDHASH_SHA1_MANY_KERNEL=single",
	"cpu.avx2=off: SIMDHASH_SHA1_KERNEL=shani SIMDHASH_SHA1_MANY_KERNEL=shanix3",
	"cpu.sha=off,cpu.avx=off: SIMDHASH_SHA1_KERNEL=ssse3 SIMDHASH_SHA1_MANY_KERNEL=single",
	"cpu.sha=off,cpu.avx=off,cpu.ssse3=off: SIMDHASH_SHA1_KERNEL=generic SIMDHASH_SHA1_MANY_KERNEL=single",
	": SIMDHASH_GHASH_KERNEL=vpclmul512",
	"cpu.avx512=off: SIMDHASH_GHASH_KERNEL=vpclmul256",
	"cpu.vpclmulqdq=off: SIMDHASH_GHASH_KERNEL=pclmul",
	"cpu.vpclmulqdq=off,cpu.avx=off: SIMDHASH_GHASH_KERNEL=pclmul-sse",
	"cpu.pclmulqdq=off: SIMDHASH_GHASH_KERNEL=generic",
	": SIMDHASH_SHA1DC_KERNEL=shani512 SIMDHASH_SHA1DC_MANY_KERNEL=avx512x16",
	"cpu.avx512=off: SIMDHASH_SHA1DC_KERNEL=shani-avx SIMDHASH_SHA1DC_MANY_KERNEL=avx2x8",
	"cpu.sha=off: SIMDHASH_SHA1DC_KERNEL=avx2 SIMDHASH_SHA1DC_MANY_KERNEL=avx512x16",
	"cpu.sha=off,cpu.avx2=off: SIMDHASH_SHA1DC_KERNEL=avx SIMDHASH_SHA1DC_MANY_KERNEL=single",
	"cpu.sha=off,cpu.avx=off: SIMDHASH_SHA1DC_KERNEL=ssse3 SIMDHASH_SHA1DC_MANY_KERNEL=single",
	"cpu.sha=off,cpu.avx=off,cpu.ssse3=off: SIMDHASH_SHA1DC_KERNEL=generic SIMDHASH_SHA1DC_MANY_KERNEL=single",
	"cpu.avx=off: SIMDHASH_SHA1DC_KERNEL=shani SIMDHASH_SHA1DC_MANY_KERNEL=single",
}

func format(runs []Run) []string {
	var s []string
	for _, r := range runs {
		s = append(s, r.GODEBUG+": "+strings.Join(r.Expect, " "))
	}
	return s
}

// TestNativeRuns checks the runs each class of CPU gets, and that they run
// each kernel the CPU can execute.
func TestNativeRuns(t *testing.T) {
	for _, c := range cpus {
		t.Run(strings.Fields(c.name)[0], func(t *testing.T) {
			runs := NativeRuns(ParseFlags(c.flags))
			if got := format(runs); !slices.Equal(got, c.runs) {
				t.Fatalf("%s: runs\n\t%s\nwant\n\t%s", c.name, strings.Join(got, "\n\t"), strings.Join(c.runs, "\n\t"))
			}
			for _, r := range runs {
				want := []string{"./sha1"}
				switch {
				case strings.Contains(r.Expect[0], "GHASH"):
					want = []string{"./ghash", "./gcm"}
				case strings.Contains(r.Expect[0], "SHA1DC"):
					want = []string{"./sha1dc"}
				}
				if !slices.Equal(r.Packages, want) {
					t.Errorf("run %q expects %v but runs %v, want %v", r.GODEBUG, r.Expect, r.Packages, want)
				}
			}
		})
	}
}

// TestX86 checks single choices that the runs above do not reach: the
// GODEBUG keys that name no flag, and features missing one at a time.
func TestX86(t *testing.T) {
	all := ParseFlags(cpus[len(cpus)-1].flags)
	without := func(flags ...string) Flags {
		f := Flags{}
		for k := range all {
			f[k] = !slices.Contains(flags, k)
		}
		return f
	}
	for _, c := range []struct {
		f       Flags
		godebug string
		want    Choice
	}{
		{all, "", Choice{"shani", "avx512x16", "vpclmul512", "shani512", "avx512x16"}},
		{all, "cpu.all=off", Choice{"generic", "single", "generic", "generic", "single"}},
		{all, "cpu.all=off,cpu.ssse3=on", Choice{"ssse3", "single", "generic", "ssse3", "single"}}, // SSE2 stays on
		{all, "cpu.avx512vpclmulqdq=off", Choice{"shani", "avx512x16", "vpclmul256", "shani512", "avx512x16"}},
		{all, "cpu.avx512bw=off", Choice{"shani", "avx2x8", "vpclmul256", "shani-avx", "avx2x8"}},
		{all, "cpu.avx2=off", Choice{"shani", "shanix3", "pclmul", "shani-avx", "single"}},
		{all, "cpu.avx=off", Choice{"shani", "shanix3", "pclmul-sse", "shani", "single"}},
		{all, "cpu.avx2=off,cpu.sha=off", Choice{"avx", "single", "pclmul", "avx", "single"}},
		{without("avx", "avx2", "avx512f"), "", Choice{"shani", "shanix3", "pclmul-sse", "shani", "single"}}, // SHA-NI without AVX (Goldmont, Tremont)
		{all, "cpu.sse41=off", Choice{"avx2", "avx512x16", "vpclmul512", "avx2", "avx512x16"}},
		{all, "cpu.bmi2=off,cpu.sha=off", Choice{"avx", "avx512x16", "vpclmul512", "avx", "avx512x16"}},
		{all, "cpu.vpclmulqdq=off,cpu.vpclmulqdq=on", Choice{"shani", "avx512x16", "vpclmul512", "shani512", "avx512x16"}},
		{without("sse4_1"), "", Choice{"avx2", "avx512x16", "vpclmul512", "avx2", "avx512x16"}},
		{without("avx512vl"), "", Choice{"shani", "avx2x8", "vpclmul256", "shani-avx", "avx2x8"}},
		{without("bmi1", "sha_ni"), "", Choice{"avx", "avx512x16", "vpclmul512", "avx", "avx512x16"}},
		{without("ssse3", "avx"), "", Choice{"generic", "single", "generic", "generic", "single"}},
		{Flags{}, "", Choice{"generic", "single", "generic", "generic", "single"}},
	} {
		if got := X86(c.f, c.godebug); got != c.want {
			missing := []string{}
			for k := range all {
				if !c.f[k] {
					missing = append(missing, k)
				}
			}
			t.Errorf("X86(without %v, GODEBUG %q) = %+v, want %+v", missing, c.godebug, got, c.want)
		}
	}
}

func ExampleNativeRuns() {
	haswell := ParseFlags("sse2 ssse3 sse4_1 pclmulqdq avx avx2 bmi1 bmi2")
	for _, r := range NativeRuns(haswell) {
		fmt.Println(r.Packages, r.GODEBUG, r.Expect)
	}
	// Output:
	// [./sha1]  [SIMDHASH_SHA1_KERNEL=avx2 SIMDHASH_SHA1_MANY_KERNEL=avx2x8]
	// [./sha1] cpu.sha=off,cpu.avx2=off [SIMDHASH_SHA1_KERNEL=avx SIMDHASH_SHA1_MANY_KERNEL=single]
	// [./sha1] cpu.sha=off,cpu.avx=off [SIMDHASH_SHA1_KERNEL=ssse3 SIMDHASH_SHA1_MANY_KERNEL=single]
	// [./sha1] cpu.sha=off,cpu.avx=off,cpu.ssse3=off [SIMDHASH_SHA1_KERNEL=generic SIMDHASH_SHA1_MANY_KERNEL=single]
	// [./ghash ./gcm]  [SIMDHASH_GHASH_KERNEL=pclmul]
	// [./ghash ./gcm] cpu.vpclmulqdq=off,cpu.avx=off [SIMDHASH_GHASH_KERNEL=pclmul-sse]
	// [./ghash ./gcm] cpu.pclmulqdq=off [SIMDHASH_GHASH_KERNEL=generic]
	// [./sha1dc]  [SIMDHASH_SHA1DC_KERNEL=avx2 SIMDHASH_SHA1DC_MANY_KERNEL=avx2x8]
	// [./sha1dc] cpu.sha=off,cpu.avx2=off [SIMDHASH_SHA1DC_KERNEL=avx SIMDHASH_SHA1DC_MANY_KERNEL=single]
	// [./sha1dc] cpu.sha=off,cpu.avx=off [SIMDHASH_SHA1DC_KERNEL=ssse3 SIMDHASH_SHA1DC_MANY_KERNEL=single]
	// [./sha1dc] cpu.sha=off,cpu.avx=off,cpu.ssse3=off [SIMDHASH_SHA1DC_KERNEL=generic SIMDHASH_SHA1DC_MANY_KERNEL=single]
}
