#!/usr/bin/env bash
# The emulated test matrix of `make test`: every kernel on a CPU model that
# has exactly what it needs, plus the portable code on CPUs with no SIMD
# kernel, crypto/sha1's own code where sha1 hands the work to it (stdlib),
# and, natively, the kernels no model runs, selected in turn with GODEBUG.
# The `run` lines below only list the runs (see
# scripts/ci/qemu-test.sh for their fields); then each test binary is built
# once (QEMU_TEST_DIR), and the runs go EMULATED_JOBS at a time (default:
# the number of CPUs), with -test.short, one line each. Runs every entry,
# then fails naming those that failed.
set -euo pipefail
cd "$(dirname "$0")/../.."

GO=${GO:-go}
# The newest Go release, which the riscv64 runs use as well as the
# installed one (the Makefile's NEWEST_GO).
NEWEST_GO=${NEWEST_GO:-go1.27.3}
QEMU_TEST_DIR=$(mktemp -d)
export QEMU_TEST_DIR
trap 'rm -rf "$QEMU_TEST_DIR"' EXIT

# run GOARCH CPU GODEBUG EXPECT PKG [TESTFLAG...]: queue a run, with this
# moment's GOARM, GOTOOLCHAIN and QEMU_TEST_DIR (a GOARM=6 binary, or one
# built by another Go, needs a directory of its own).
specs=()
run() {
	local spec
	spec=$(printf '%s\x1f' "GOARM=${GOARM:-}" "GOTOOLCHAIN=${GOTOOLCHAIN:-}" "QEMU_TEST_DIR=$QEMU_TEST_DIR" "$@")
	specs+=("$spec")
}

run amd64 core2duo    "" "SIMDHASH_SHA1_KERNEL=ssse3 SIMDHASH_SHA1_MANY_KERNEL=single"   ./sha1 # SSSE3, no AVX
run amd64 SandyBridge "" "SIMDHASH_SHA1_KERNEL=avx SIMDHASH_SHA1_MANY_KERNEL=single"     ./sha1 # + AVX
run amd64 Haswell     "" "SIMDHASH_SHA1_KERNEL=avx2 SIMDHASH_SHA1_MANY_KERNEL=avx2x8"    ./sha1 # + AVX2, BMI1, BMI2
run amd64 Haswell     cpu.avx2=off "SIMDHASH_SHA1_KERNEL=avx SIMDHASH_SHA1_MANY_KERNEL=single" ./sha1
run amd64 qemu64      "" "SIMDHASH_SHA1_KERNEL=generic SIMDHASH_SHA1_MANY_KERNEL=single" ./sha1 # no SSSE3
run amd64 Westmere    "" SIMDHASH_GHASH_KERNEL=pclmul-sse ./ghash # PCLMULQDQ + SSSE3, no AVX
run amd64 SandyBridge "" SIMDHASH_GHASH_KERNEL=pclmul    ./ghash # + AVX
run amd64 core2duo    "" SIMDHASH_GHASH_KERNEL=generic   ./ghash # SSSE3, no PCLMULQDQ
run amd64 Westmere    cpu.pclmulqdq=off SIMDHASH_GHASH_KERNEL=generic ./ghash
run amd64 qemu64      "" SIMDHASH_GHASH_KERNEL=generic   ./ghash # no PCLMULQDQ

# Natively, every x86 kernel this machine can execute, with the kernels no
# qemu model runs (SHA-NI, AVX-512, VPCLMULQDQ) among them: one run of
# every test (with -test.short, as every run here) per GODEBUG setting that
# selects a kernel no earlier run selected, each checking the kernels that internal/oracle's rule expects
# from /proc/cpuinfo's flags under that GODEBUG (gen/tools/nativeruns).
if [[ $("$GO" env GOHOSTARCH) == amd64 ]]; then
	native=$("$GO" -C gen run ./tools/nativeruns)
	while IFS='|' read -r pkgs godebug expect; do
		if [[ -z $pkgs || -z $expect ]]; then
			echo "emulated: gen/tools/nativeruns printed a run without packages or expected kernels: '$pkgs|$godebug|$expect'" >&2
			exit 1
		fi
		for pkg in $pkgs; do
			run amd64 native "$godebug" "$expect" "$pkg"
		done
	done <<<"$native"
	cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || true)
	echo "emulated: native runs on this CPU (${cpu:-unknown}), by internal/oracle:"
	"$GO" -C gen run ./tools/nativeruns -summary | sed 's/^/emulated:   /'
else
	echo "emulated: the host is not amd64: no native runs of the x86 kernels" >&2
fi

run arm64 "" ""            "SIMDHASH_SHA1_KERNEL=ce SIMDHASH_SHA1_MANY_KERNEL=cex2"     ./sha1 # every model has the SHA1 instructions
run arm64 "" cpu.sha1=off  "SIMDHASH_SHA1_KERNEL=neon SIMDHASH_SHA1_MANY_KERNEL=neonx4" ./sha1 # as on a core without them
run arm64 "" cpu.sha1=off,cpu.asimd=off "SIMDHASH_SHA1_KERNEL=generic SIMDHASH_SHA1_MANY_KERNEL=single" ./sha1

run arm64 "" ""            SIMDHASH_GHASH_KERNEL=pmull ./ghash
run arm64 "" cpu.pmull=off SIMDHASH_GHASH_KERNEL=neon  ./ghash

export GOARM=7
run arm cortex-a15 "" "SIMDHASH_SHA1_KERNEL=neon SIMDHASH_SHA1_MANY_KERNEL=single" ./sha1 # NEON, no SHA1 instructions (they raise SIGILL there)
run arm cortex-a15 "" SIMDHASH_GHASH_KERNEL=neon    ./ghash # NEON, no VMULL.P64 (it raises SIGILL there)
run arm max        "" SIMDHASH_SHA1_KERNEL=ce       ./sha1  # + the SHA1 instructions
run arm max        "" SIMDHASH_GHASH_KERNEL=pmull   ./ghash # + VMULL.P64
unset GOARM
# GOARM=6 on qemu-arm -cpu arm1176: no NEON, the portable code.
GOARM=6 QEMU_TEST_DIR=$QEMU_TEST_DIR/goarm6 run arm arm1176 "" SIMDHASH_SHA1_KERNEL=generic ./sha1
GOARM=6 QEMU_TEST_DIR=$QEMU_TEST_DIR/goarm6 run arm arm1176 "" SIMDHASH_GHASH_KERNEL=generic ./ghash

# 386: the ssse3 and avx kernels, and crypto/sha1's assembly behind stdlib
# without SSSE3 (coreduo has SSE3 and no SSSE3; a Go 386 binary needs SSE2,
# so pentium3 cannot run it); GODEBUG chooses as on amd64, which the last
# two runs check with the dispatch tests alone.
run 386 core2duo    ""            SIMDHASH_SHA1_KERNEL=ssse3  ./sha1 # SSSE3, no AVX
run 386 SandyBridge ""            SIMDHASH_SHA1_KERNEL=avx    ./sha1 # + AVX
run 386 coreduo     ""            SIMDHASH_SHA1_KERNEL=stdlib ./sha1 # SSE3, no SSSE3
run 386 SandyBridge cpu.avx=off   SIMDHASH_SHA1_KERNEL=ssse3  ./sha1 -test.short -test.run '^(TestDispatch|TestRegistry|TestEveryKernelDispatches)$'
run 386 core2duo    cpu.ssse3=off SIMDHASH_SHA1_KERNEL=stdlib ./sha1 -test.short -test.run '^(TestDispatch|TestRegistry|TestEveryKernelDispatches)$'
# crypto/sha1's assembly behind the stdlib kernel; s390x is big-endian.
run s390x   "" "" SIMDHASH_SHA1_KERNEL=stdlib ./sha1
run loong64 "" "" SIMDHASH_SHA1_KERNEL=stdlib ./sha1
# riscv64, built by the installed Go and by the newest: crypto/sha1 is
# portable Go up to Go 1.26, slower than ours (generic), and assembly from
# Go 1.27, which sha1 hands the work to (stdlib; scripts/insn-count.sh).
riscv64_kernel() { # riscv64_kernel [GOTOOLCHAIN]: the kernel its Go builds for riscv64
	local v
	v=$(GOTOOLCHAIN=${1:-${GOTOOLCHAIN:-}} "$GO" env GOVERSION)
	v=${v#go1.}
	if ((${v%%[.a-z]*} >= 27)); then echo stdlib; else echo generic; fi
}
run riscv64 "" "" "SIMDHASH_SHA1_KERNEL=$(riscv64_kernel)" ./sha1
GOTOOLCHAIN=$NEWEST_GO QEMU_TEST_DIR=$QEMU_TEST_DIR/$NEWEST_GO run riscv64 "" "" "SIMDHASH_SHA1_KERNEL=$(riscv64_kernel "$NEWEST_GO")" ./sha1

# --- gcm (issue 21) ---------------------------------------------------------
# The gcm package's suite on every ghash kernel, each chosen by the CPU model
# or GODEBUG as for ghash's runs above (gcm cannot select ghash's kernel; its
# TestDispatch checks ghash.Kernel()); natively, internal/oracle's runs of
# the ghash family include ./gcm. s390x: big-endian.
run amd64 Westmere    "" SIMDHASH_GHASH_KERNEL=pclmul-sse ./gcm
run amd64 SandyBridge "" SIMDHASH_GHASH_KERNEL=pclmul     ./gcm
run amd64 core2duo    "" SIMDHASH_GHASH_KERNEL=generic    ./gcm
run arm64 "" ""            SIMDHASH_GHASH_KERNEL=pmull ./gcm
run arm64 "" cpu.pmull=off SIMDHASH_GHASH_KERNEL=neon  ./gcm
GOARM=7 run arm cortex-a15 "" SIMDHASH_GHASH_KERNEL=neon  ./gcm
GOARM=7 run arm max        "" SIMDHASH_GHASH_KERNEL=pmull ./gcm
GOARM=6 QEMU_TEST_DIR=$QEMU_TEST_DIR/goarm6 run arm arm1176 "" SIMDHASH_GHASH_KERNEL=generic ./gcm
run s390x "" "" SIMDHASH_GHASH_KERNEL=generic ./gcm
# --- end of gcm -------------------------------------------------------------
# sha1dc (issue 22): its kernels, package sha1's with the collision check,
# on the same CPU models as sha1's (its SumMany's lane kernels beside
# them), each run checking Kernel() and ManyKernel() (TestDispatch,
# TestManyDispatch); natively, internal/oracle's runs of the sha1dc family
# add shani512, shani-avx, shani and avx512x16. The portable code on 32-bit and
# big-endian (s390x) targets.
run amd64 core2duo    "" "SIMDHASH_SHA1DC_KERNEL=ssse3 SIMDHASH_SHA1DC_MANY_KERNEL=single"   ./sha1dc # SSSE3, no AVX
run amd64 SandyBridge "" "SIMDHASH_SHA1DC_KERNEL=avx SIMDHASH_SHA1DC_MANY_KERNEL=single"     ./sha1dc # + AVX
run amd64 Haswell     "" "SIMDHASH_SHA1DC_KERNEL=avx2 SIMDHASH_SHA1DC_MANY_KERNEL=avx2x8"    ./sha1dc # + AVX2, BMI1, BMI2
run amd64 qemu64      "" "SIMDHASH_SHA1DC_KERNEL=generic SIMDHASH_SHA1DC_MANY_KERNEL=single" ./sha1dc # no SSSE3
run arm64 ""         ""           "SIMDHASH_SHA1DC_KERNEL=ce SIMDHASH_SHA1DC_MANY_KERNEL=single"      ./sha1dc
run arm64 ""         cpu.sha1=off "SIMDHASH_SHA1DC_KERNEL=neon SIMDHASH_SHA1DC_MANY_KERNEL=single"    ./sha1dc
run arm64 ""         cpu.sha1=off,cpu.asimd=off "SIMDHASH_SHA1DC_KERNEL=generic SIMDHASH_SHA1DC_MANY_KERNEL=single" ./sha1dc
GOARM=7 run arm cortex-a15 "" SIMDHASH_SHA1DC_KERNEL=generic ./sha1dc
run 386   ""         "" SIMDHASH_SHA1DC_KERNEL=generic ./sha1dc
run s390x ""         "" SIMDHASH_SHA1DC_KERNEL=generic ./sha1dc

failed=()
# runspec SPEC [ENV...]: one queued run through scripts/ci/qemu-test.sh.
runspec() {
	local a
	IFS=$'\x1f' read -r -a a <<<"$1"
	shift
	env "$@" "${a[0]}" "${a[1]}" "${a[2]}" bash scripts/ci/qemu-test.sh "${a[@]:3}"
}
label() {
	local a
	IFS=$'\x1f' read -r -a a <<<"$1"
	local goarm=${a[0]#GOARM=} toolchain=${a[1]#GOTOOLCHAIN=}
	echo "${a[3]}${goarm:+ GOARM=$goarm}${toolchain:+ GOTOOLCHAIN=$toolchain} ${a[7]}${a[4]:+ -cpu ${a[4]}}${a[5]:+ GODEBUG=${a[5]}}${a[6]:+ ${a[6]}}"
}

# Each test binary once (runs that share a directory, GOARCH and package
# share it), EMULATED_JOBS at a time.
jobs=${EMULATED_JOBS:-$(nproc 2>/dev/null || echo 2)}
declare -A seen=()
builds=()
for spec in "${specs[@]}"; do
	IFS=$'\x1f' read -r -a a <<<"$spec"
	key="${a[2]}|${a[3]}|${a[7]}" # QEMU_TEST_DIR, GOARCH, PKG
	if [[ -z ${seen[$key]:-} ]]; then
		seen[$key]=1
		builds+=("$spec")
	fi
done
echo "emulated: building ${#builds[@]} test binaries for ${#specs[@]} runs, $jobs at a time"
out=$QEMU_TEST_DIR/out
mkdir -p "$out"
for i in "${!builds[@]}"; do
	while (($(jobs -rp | wc -l) >= jobs)); do
		wait -n || true
	done
	(runspec "${builds[$i]}" QEMU_TEST_BUILD_ONLY=1 >"$out/build$i" 2>&1; echo $? >"$out/build$i.rc") &
done
wait
for i in "${!builds[@]}"; do
	if [[ $(cat "$out/build$i.rc" 2>/dev/null) != 0 ]]; then
		cat "$out/build$i" >&2
		failed+=("$(label "${builds[$i]}"): build")
	fi
done

echo "emulated: ${#specs[@]} qemu runs, $jobs at a time"
for i in "${!specs[@]}"; do
	while (($(jobs -rp | wc -l) >= jobs)); do
		wait -n || true
	done
	(runspec "${specs[$i]}" >"$out/$i" 2>&1; echo $? >"$out/$i.rc") &
done
wait
for i in "${!specs[@]}"; do
	cat "$out/$i"
	[[ $(cat "$out/$i.rc" 2>/dev/null) == 0 ]] || failed+=("$(label "${specs[$i]}")")
done

# Last, through go test itself, so that the run ends with go test's own lines.
echo "emulated: arm64 go test -exec qemu-aarch64 ./internal/ref ./sha1 (SIMDHASH_SHA1_KERNEL=ce SIMDHASH_SHA1_MANY_KERNEL=cex2)"
if ! env -u GODEBUG -u SIMDHASH_GHASH_KERNEL SIMDHASH_SHA1_KERNEL=ce SIMDHASH_SHA1_MANY_KERNEL=cex2 GOOS=linux GOARCH=arm64 CGO_ENABLED=0 \
	"$GO" test -count=1 -short -exec qemu-aarch64 ./internal/ref ./sha1; then
	failed+=("arm64 go test ./internal/ref ./sha1")
fi

if ((${#failed[@]})); then
	echo "emulated: FAILED:" >&2
	printf '  %s\n' "${failed[@]}" >&2
	exit 1
fi
