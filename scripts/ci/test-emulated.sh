#!/usr/bin/env bash
# The emulated test matrix of `make test`: every kernel on a CPU model that
# has exactly what it needs, plus the portable code on CPUs with no SIMD
# kernel. Each test binary is built once (scripts/ci/qemu-test.sh, with
# QEMU_TEST_DIR) and run with -test.short. Runs every entry, then fails
# naming those that failed.
set -euo pipefail
cd "$(dirname "$0")/../.."

GO=${GO:-go}
QEMU_TEST_DIR=$(mktemp -d)
export QEMU_TEST_DIR
trap 'rm -rf "$QEMU_TEST_DIR"' EXIT

failed=()
run() { # run GOARCH CPU GODEBUG EXPECT PKG: see scripts/ci/qemu-test.sh
	if ! bash scripts/ci/qemu-test.sh "$@"; then
		failed+=("$1 ${5}${2:+ -cpu $2}${3:+ GODEBUG=$3}${4:+ $4}")
	fi
}

echo "emulated: amd64 under qemu-x86_64"
run amd64 core2duo    "" SIMDHASH_SHA1_KERNEL=ssse3   ./sha1 # SSSE3, no AVX
run amd64 SandyBridge "" SIMDHASH_SHA1_KERNEL=avx     ./sha1 # + AVX
run amd64 Haswell     "" SIMDHASH_SHA1_KERNEL=avx2    ./sha1 # + AVX2, BMI1, BMI2
run amd64 qemu64      "" SIMDHASH_SHA1_KERNEL=generic ./sha1 # no SSSE3
run amd64 Westmere    "" SIMDHASH_GHASH_KERNEL=pclmul-sse ./ghash # PCLMULQDQ + SSSE3, no AVX
run amd64 SandyBridge "" SIMDHASH_GHASH_KERNEL=pclmul    ./ghash # + AVX
run amd64 core2duo    "" SIMDHASH_GHASH_KERNEL=generic   ./ghash # SSSE3, no PCLMULQDQ
run amd64 Westmere    cpu.pclmulqdq=off SIMDHASH_GHASH_KERNEL=generic ./ghash
run amd64 qemu64      "" SIMDHASH_GHASH_KERNEL=generic   ./ghash # no PCLMULQDQ

echo "emulated: arm64 under qemu-aarch64"
run arm64 "" ""            SIMDHASH_GHASH_KERNEL=pmull ./ghash
run arm64 "" cpu.pmull=off SIMDHASH_GHASH_KERNEL=neon  ./ghash

echo "emulated: 32-bit arm (GOARM=7) under qemu-arm"
export GOARM=7
run arm cortex-a15 "" SIMDHASH_SHA1_KERNEL=generic  ./sha1
run arm cortex-a15 "" SIMDHASH_GHASH_KERNEL=neon    ./ghash # NEON, no VMULL.P64 (it raises SIGILL there)
run arm max        "" SIMDHASH_GHASH_KERNEL=pmull   ./ghash # + VMULL.P64
unset GOARM
echo "emulated: 32-bit arm (GOARM=6) under qemu-arm -cpu arm1176: no NEON, the portable code"
GOARM=6 QEMU_TEST_DIR=$QEMU_TEST_DIR/goarm6 run arm arm1176 "" SIMDHASH_GHASH_KERNEL=generic ./ghash

# Last, through go test itself, so that the run ends with go test's own lines.
echo "emulated: arm64 go test -exec qemu-aarch64 ./internal/ref ./sha1 (SIMDHASH_SHA1_KERNEL=generic)"
if ! env -u GODEBUG -u SIMDHASH_GHASH_KERNEL SIMDHASH_SHA1_KERNEL=generic GOOS=linux GOARCH=arm64 CGO_ENABLED=0 \
	"$GO" test -count=1 -short -exec qemu-aarch64 ./internal/ref ./sha1; then
	failed+=("arm64 go test ./internal/ref ./sha1")
fi

if ((${#failed[@]})); then
	echo "emulated: FAILED:" >&2
	printf '  %s\n' "${failed[@]}" >&2
	exit 1
fi
