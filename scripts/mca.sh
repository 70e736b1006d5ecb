#!/usr/bin/env bash
# Static throughput estimates of the arm64 and arm kernels with llvm-mca:
# GHASH, then SHA-1 (its sections below say how: the ce kernel, then neon).
#
# Runs the generator (gen/ghash_neon) with -gnu, which writes each kernel's
# main loop in GNU syntax, feeds each loop to llvm-mca for the Cortex-A53,
# A55 and A57 scheduling models (-iterations=200), and prints cycles per
# loop iteration, per 16-byte block and per byte. A pmull iteration absorbs
# several blocks (-pmull-blocks), so its cycles are divided by that count.
# The last column is the issue's target in cycles/byte.
#
# Arguments are passed to the generator, to try its knobs:
#   bash scripts/mca.sh -pmull-blocks 4 -neon-blocks 1 -schedule=false
# MCA_KEEP=DIR keeps the loop bodies and llvm-mca reports in DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
MCA=${LLVM_MCA:-}
if [[ -z $MCA ]]; then
	for c in llvm-mca $(compgen -c llvm-mca- 2>/dev/null | sort -t- -k3 -n -r); do
		if command -v "$c" >/dev/null 2>&1; then
			MCA=$c
			break
		fi
	done
fi
if [[ -z $MCA ]] || ! command -v "$MCA" >/dev/null 2>&1; then
	echo "mca: llvm-mca not found: install it (Debian: apt-get install llvm) or set LLVM_MCA" >&2
	exit 1
fi

dir=${MCA_KEEP:-$(mktemp -d)}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd) # absolute: the generator runs in gen/
[[ -n ${MCA_KEEP:-} ]] || trap 'rm -rf "$dir"' EXIT

"$GO" -C gen run ./ghash_neon -gnu "$dir/loops.s" "$@"

# target KERNEL MODEL: the issue's cycles/byte goal.
target() {
	case $1/$2 in
	neon/cortex-a53) echo 21.0 ;; neon/cortex-a55) echo 13.8 ;; neon/cortex-a57) echo 7.3 ;;
	pmull/cortex-a53) echo 1.34 ;; pmull/cortex-a55) echo 1.05 ;; pmull/cortex-a57) echo 0.49 ;;
	*) echo - ;;
	esac
}

echo "$("$MCA" --version | grep -i 'llvm version' | sed 's/^ *//')"
printf '%-6s %6s  %-11s %11s %12s %11s %8s\n' kernel blocks model cycles/iter cycles/block cycles/byte target
for kernel in $(awk '/^\/\/ kernel /{print $3}' "$dir/loops.s"); do
	blocks=$(awk -v k="$kernel" '$1 == "//" && $2 == "kernel" && $3 == k {print $5}' "$dir/loops.s")
	awk -v k="$kernel" '$1 == "//" && $2 == "kernel" {on = ($3 == k); next} on' "$dir/loops.s" >"$dir/$kernel.s"
	for model in cortex-a53 cortex-a55 cortex-a57; do
		report="$dir/$kernel.$model.txt"
		"$MCA" -mtriple=aarch64 -mcpu="$model" -mattr=+aes -iterations=200 "$dir/$kernel.s" >"$report" 2>&1 || {
			echo "mca: llvm-mca failed on $kernel for $model:" >&2
			cat "$report" >&2
			exit 1
		}
		total=$(awk '/^Total Cycles:/{print $3}' "$report")
		awk -v k="$kernel" -v b="$blocks" -v m="$model" -v t="$total" -v goal="$(target "$kernel" "$model")" 'BEGIN {
			it = t / 200
			printf "%-6s %6d  %-11s %11.1f %12.2f %11.3f %8s\n", k, b, m, it, it / b, it / b / 16, goal
		}'
	done
done

# 32-bit arm: the kernels of gen/ghash_neon -arch arm (ghash_arm.s), with the
# generator's defaults or MCA_ARM_ARGS (e.g. MCA_ARM_ARGS='-neon-blocks 1').
# LLVM's AArch32 scheduling data covers the Cortex-A57 (and Apple's Swift)
# only: its cortex-a9 and cortex-a15 models have no core-specific data and
# the cortex-a8 none, so the A57 is the one model quoted. The neon target is
# the issue's 7 cycles/byte (OpenSSL's 32-bit NEON GHASH: 7.61 on an A57).
# shellcheck disable=SC2086
"$GO" -C gen run ./ghash_neon -arch arm -gnu "$dir/loops-arm.s" ${MCA_ARM_ARGS:-}
echo
echo "32-bit arm (AArch32, -mtriple=armv7a):"
printf '%-6s %6s  %-11s %11s %12s %11s %8s\n' kernel blocks model cycles/iter cycles/block cycles/byte target
for kernel in $(awk '/^\/\/ kernel /{print $3}' "$dir/loops-arm.s"); do
	blocks=$(awk -v k="$kernel" '$1 == "//" && $2 == "kernel" && $3 == k {print $5}' "$dir/loops-arm.s")
	awk -v k="$kernel" '$1 == "//" && $2 == "kernel" {on = ($3 == k); next} on' "$dir/loops-arm.s" >"$dir/arm-$kernel.s"
	model=cortex-a57
	report="$dir/arm-$kernel.$model.txt"
	"$MCA" -mtriple=armv7a -mcpu="$model" -mattr=+neon,+crypto -iterations=200 "$dir/arm-$kernel.s" >"$report" 2>&1 || {
		echo "mca: llvm-mca failed on the arm $kernel kernel for $model:" >&2
		cat "$report" >&2
		exit 1
	}
	goal=-
	[[ $kernel == neon ]] && goal=7.0
	total=$(awk '/^Total Cycles:/{print $3}' "$report")
	awk -v k="$kernel" -v b="$blocks" -v m="$model" -v t="$total" -v goal="$goal" 'BEGIN {
		it = t / 200
		printf "%-6s %6d  %-11s %11.1f %12.2f %11.3f %8s\n", k, b, m, it, it / b, it / b / 16, goal
	}'
done

# SHA-1 with the SHA1 instructions: the block loop of gen/sha1_ce (two
# blocks per iteration; -gnu, with SHA1_ARGS passed on, e.g.
# SHA1_ARGS='-copied none'), beside the loops of Go's crypto/sha1 and of our
# portable block function, compiled for arm64 and taken from a test binary
# with objdump (scripts/objdump-loop.sh), and the figures of BoringSSL that
# issue 11 gives. Every loop is modelled the same way: the steady-state loop
# body, branches dropped, -iterations=200. The target of each model is the
# lower of the BoringSSL and Go figures.
sha1mca() { # sha1mca TRIPLE MODEL FILE BYTES: cycles/byte of the loop in FILE, which absorbs BYTES
	local total
	total=$("$MCA" -mtriple="$1" -mcpu="$2" -mattr="$([[ $1 == aarch64 ]] && echo +sha2,+crypto || echo +neon,+crypto)" \
		-iterations=200 "$3" 2>"$3.err" | awk '/^Total Cycles:/{print $3}') || true
	[[ -n $total ]] || { echo "mca: llvm-mca failed on $3 for $2:" >&2; cat "$3.err" >&2; exit 1; }
	awk -v t="$total" -v n="$4" 'BEGIN { printf " %10.3f", t / 200 / n }'
}
nobranch() { grep -v -E '^[[:space:]]*(b(\.[a-z]+)?|cbn?z|tbn?z|b(eq|ne|hs|lo|cs|cc|hi|ls))[[:space:]]' "$1"; }
# shellcheck disable=SC2086
for arch in arm64 arm; do
	"$GO" -C gen run ./sha1_ce -arch "$arch" -gnu "$dir/sha1-$arch.s" ${SHA1_ARGS:-}
	nobranch "$dir/sha1-$arch.s" >"$dir/sha1-$arch.loop.s"
done
blocks=$(awk '$1 == "//" && $2 == "blocks" {print $3}' "$dir/sha1-arm64.s")
GOOS=linux GOARCH=arm64 "$GO" test -c -o "$dir/sha1-arm64.test" ./sha1
for s in crypto/sha1.sha1block.abi0 github.com/simdhash/simdhash/sha1.blockGeneric; do
	bash scripts/objdump-loop.sh aarch64-linux-gnu-objdump "$dir/sha1-arm64.test" "$s" >"$dir/sha1-${s##*.}.s"
done
echo
echo "SHA-1, cycles/byte of the block loop (arm64):"
printf '%-34s %10s %10s %10s\n' loop cortex-a53 cortex-a55 cortex-a57
row() { # row LABEL FILE BYTES
	printf '%-34s' "$1"
	for model in cortex-a53 cortex-a55 cortex-a57; do sha1mca aarch64 "$model" "$2" "$3"; done
	echo
}
row "ce (gen/sha1_ce, $blocks blocks)" "$dir/sha1-arm64.loop.s" $((64 * blocks))
# SumMany's two interleaved streams (gen/sha1_many_ce): the same loop of
# two blocks, of each of two lanes; cycles/byte of both lanes together.
"$GO" -C gen run ./sha1_many_ce -gnu "$dir/many-ce.s" ${SHA1_ARGS:-}
nobranch "$dir/many-ce.s" >"$dir/many-ce.loop.s"
row "cex2 (gen/sha1_many_ce, 2 lanes)" "$dir/many-ce.loop.s" $((64 * blocks * 2))
row "Go crypto/sha1" "$dir/sha1-abi0.s" 64
row "generic (our portable code)" "$dir/sha1-blockGeneric.s" 64
printf '%-34s %10s %10s %10s\n' "BoringSSL sha1-armv8 (issue 11)" 2.52 1.91 2.25
printf '%-34s %10s %10s %10s\n' "target" 2.52 1.91 2.14

# SHA-1 without the SHA1 instructions: the block loop of gen/sha1_neon (one
# block per iteration; -gnu, with NEON_ARGS passed on, e.g.
# NEON_ARGS='-order description'), modelled as above, beside issue 12's
# anchors: BoringSSL's integer loop (sha1-armv8, for cores without the
# instructions) and 32-bit NEON loop, Linux's sha1-armv7-neon, and Go's
# crypto/sha1 on 32-bit arm (its scalar assembly).
# shellcheck disable=SC2086
for arch in arm64 arm; do
	"$GO" -C gen run ./sha1_neon -arch "$arch" -gnu "$dir/neon-$arch.s" ${NEON_ARGS:-}
	nobranch "$dir/neon-$arch.s" >"$dir/neon-$arch.loop.s"
done
row "neon (gen/sha1_neon, 1 block)" "$dir/neon-arm64.loop.s" 64
# SumMany's four NEON lanes (gen/sha1_many_neon): one block of each lane
# per iteration; cycles/byte of the four lanes together.
"$GO" -C gen run ./sha1_many_neon -gnu "$dir/many-neon.s"
nobranch "$dir/many-neon.s" >"$dir/many-neon.loop.s"
row "neonx4 (gen/sha1_many_neon)" "$dir/many-neon.loop.s" 256
printf '%-34s %10s %10s %10s\n' "BoringSSL sha1-armv8 integer" 10.38 10.30 7.71
printf '%-34s %10s %10s %10s\n' "target (issue 12)" 7.8 7.7 4.47
echo
echo "SHA-1, cycles/byte of the block loop (32-bit arm, AArch32, cortex-a57):"
printf "%-34s%s\n" "ce (gen/sha1_ce, $blocks blocks)" "$(sha1mca armv7a cortex-a57 "$dir/sha1-arm.loop.s" $((64 * blocks)))"
printf '%-34s %10s\n' "BoringSSL sha1-armv4 (issue 11)" 2.24 "target" 2.24
printf "%-34s%s\n" "neon (gen/sha1_neon, 1 block)" "$(sha1mca armv7a cortex-a57 "$dir/neon-arm.loop.s" 64)"
printf '%-34s %10s\n' "BoringSSL sha1-armv4 NEON" 4.47 "Linux sha1-armv7-neon" 5.02 "Go crypto/sha1 (scalar)" 11.7 "target (issue 12)" 4.47
