#!/usr/bin/env bash
# Static throughput estimate of the amd64 and 386 SHA-1 kernels with llvm-mca.
#
# Builds the sha1 test binary, disassembles each kernel's block loop (from
# the target of its last backward jump up to that jump; other jumps inside,
# such as the branch out of the last block, are left out) with objdump, and
# feeds it to llvm-mca on the Sandy Bridge, Haswell, Skylake, Zen 2 and Zen 3
# models (-iterations=200).
# One iteration is one 64-byte block, two for avx2 (its loop hashes a pair),
# and one block of every lane for SumMany's avx2x8 (8 blocks; its
# cycles/byte are of all lanes together: multiply by 8 for one lane's). The
# 16-lane avx512x16 gets a line of its own, on the models with AVX-512.
# The interleaved SHA-NI kernels (shanixN) count one block of each of
# their N streams.
# A model that cannot schedule an instruction prints "-". LLVM 14 schedules
# SHA1RNDS4 even on models of cores that lack it (Sandy Bridge to Skylake):
# the shani row is a guess there. Last row: OpenSSL's SSSE3 loop measured
# the same way (the reference to beat).
#
# Then the 386 kernels (GOARCH=386, -mtriple=i686) on the Sandy Bridge,
# Haswell, Skylake and Zen 3 models: ssse3 and avx, each over its amd64
# loop (the cost of 386's registers), and crypto/sha1's 386 loop, over each
# of ours (the speed-up), with OpenSSL's published figures for
# sha1-586.pl (silicon, not models: its header's table).
#
#   bash scripts/mca-x86.sh [PKGDIR]     (default ./sha1)
# MCA_KEEP=DIR keeps the loop bodies in DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
MCA=${LLVM_MCA:-llvm-mca}
command -v "$MCA" >/dev/null || { echo "mca-x86: llvm-mca not found (Debian: apt-get install llvm)" >&2; exit 1; }
command -v objdump >/dev/null || { echo "mca-x86: objdump not found (Debian: apt-get install binutils)" >&2; exit 1; }

pkg=${1:-./sha1}
dir=${MCA_KEEP:-$(mktemp -d)}
mkdir -p "$dir"
[[ -n ${MCA_KEEP:-} ]] || trap 'rm -rf "$dir"' EXIT

GOARCH=amd64 "$GO" test -c -o "$dir/pkg.test" "$pkg"
importpath=$(GOARCH=amd64 "$GO" list "$pkg")

models=(sandybridge haswell skylake znver2 znver3)

# cpb FILE TRIPLE MODEL [BLOCKS]: llvm-mca's cycles per byte of the loop in
# FILE, which absorbs BLOCKS (1) blocks an iteration, or - if the model
# cannot schedule it.
cpb() {
	local cycles
	cycles=$("$MCA" -mtriple="$2" -mcpu="$3" -iterations=200 "$1" 2>/dev/null | awk '/^Total Cycles/ { print $3 }') || true
	if [[ -n $cycles ]]; then
		printf '%.2f' "$(echo "$cycles / 200 / 64 / ${4:-1}" | bc -l)"
	else
		echo -
	fi
}
# OpenSSL 3.0's SHA-1 SSSE3 loop, cycles/byte on the same models (issue #4).
openssl=(5.89 4.42 3.91 4.28 3.35)

# loop FUNC [BINARY]: the instructions of FUNC's block loop in BINARY (the
# amd64 test binary by default), AT&T syntax, addresses and RIP-relative
# targets replaced by a plain register base.
loop() {
	local dis
	dis=$(objdump -d --no-show-raw-insn "${2:-$dir/pkg.test}" --disassemble="$1")
	# The loop: the last jump (conditional or not) to an earlier address,
	# other than the morestack path's jump back to the function's entry.
	local from="" target="" a t entry
	entry=$(awk '/^[0-9a-f]+ </ { sub(/^0+/, "", $1); print $1; exit }' <<<"$dis")
	while read -r a t; do
		a=${a%:}
		if ((16#$t < 16#$a && 16#$t != 16#$entry)); then from=$a target=$t; fi
	done < <(awk '$2 ~ /^j/ { print $1, $3 }' <<<"$dis")
	[[ -n $target ]] || { echo "mca-x86: no loop found in $1" >&2; exit 1; }
	awk -v t="$target" -v f="$from" '
		$1 ~ /:$/ { a = $1; sub(":", "", a); if (a == t) on = 1; if (a == f) exit }
		on && $2 ~ /^j/ { next }
		on { sub(/^ *[0-9a-f]+:\t/, ""); sub(/ *#.*/, ""); gsub(/0x[0-9a-f]+\(%rip\)/, "(%r15)"); print }
	' <<<"$dis"
}

printf '%-8s' kernel
for m in "${models[@]}"; do printf ' %12s' "$m"; done
printf '   (cycles/byte, llvm-mca %s)\n' "$("$MCA" --version | awk '/version/ { print $NF; exit }')"
for k in ssse3 avx avx2 shani avx2x8 shanix2 shanix3 shanix4; do
	blocks=1
	fn="$importpath.block${k^^}.abi0"
	case $k in
	avx2) blocks=2 ;;
	avx2x8) blocks=8 fn="$importpath.manyAVX2.abi0" ;;
	shanix*) blocks=${k#shanix} fn="$importpath.manySHANI${k#shanix}.abi0" ;;
	esac
	loop "$fn" >"$dir/$k.s"
	printf '%-8s' "$k"
	for m in "${models[@]}"; do
		printf ' %12s' "$(cpb "$dir/$k.s" x86_64 "$m" "$blocks")"
	done
	echo
done
printf '%-8s' openssl
for o in "${openssl[@]}"; do printf ' %12s' "$o"; done
echo "   (its SSSE3 loop, same method)"
# The 16-lane kernel on the models that have AVX-512 (llvm-mca schedules
# EVEX instructions even on models of cores without it, so the table's
# models would give a meaningless figure).
loop "$importpath.manyAVX512.abi0" >"$dir/avx512x16.s"
printf 'avx512x16, cycles/byte of all 16 lanes:'
for m in skylake-avx512 icelake-server; do
	cycles=$("$MCA" -mtriple=x86_64 -mcpu="$m" -iterations=200 "$dir/avx512x16.s" 2>/dev/null | awk '/^Total Cycles/ { print $3 }') || true
	printf ' %s %.2f' "$m" "$(echo "${cycles:-0} / 200 / 64 / 16" | bc -l)"
done
echo

# The 386 kernels. Symbols of a 386 binary carry no ABI suffix.
GOARCH=386 "$GO" test -c -o "$dir/pkg386.test" "$pkg"
models386=(sandybridge haswell skylake znver3)
# OpenSSL's sha1-586.pl, the table in its header (cycles/byte measured on
# the CPUs, not modelled; none for Zen 3): the SSSE3 path, the AVX path
# (with SHLD, on Intel CPUs only) and its integer x86 path.
openssl386=("6.2 4.3 4.1 -" "5.1 4.1 4.1 -" "8.8 6.5 6.4 -")
loop crypto/sha1.block "$dir/pkg386.test" >"$dir/stdlib-386.s"
echo
printf '%-18s' "386 (i686)"
for m in "${models386[@]}"; do printf ' %12s' "$m"; done
echo '   (cycles/byte; "over" rows are ratios)'
declare -A std=()
for m in "${models386[@]}"; do std[$m]=$(cpb "$dir/stdlib-386.s" i686 "$m"); done
for k in ssse3 avx; do
	loop "$importpath.block${k^^}" "$dir/pkg386.test" >"$dir/$k-386.s"
	declare -A c386=()
	printf '%-18s' "$k"
	for m in "${models386[@]}"; do
		c386[$m]=$(cpb "$dir/$k-386.s" i686 "$m")
		printf ' %12s' "${c386[$m]}"
	done
	echo
	printf '%-18s' "  over amd64 $k"
	for m in "${models386[@]}"; do
		printf ' %12.3f' "$(echo "${c386[$m]} / $(cpb "$dir/$k.s" x86_64 "$m")" | bc -l)"
	done
	echo "   (target: at most 1.15)"
	printf '%-18s' "  crypto/sha1 over"
	for m in "${models386[@]}"; do
		printf ' %12.3f' "$(echo "${std[$m]} / ${c386[$m]}" | bc -l)"
	done
	echo "   (target: at least 2)"
done
printf '%-18s' "crypto/sha1 386"
for m in "${models386[@]}"; do printf ' %12s' "${std[$m]}"; done
echo
for i in 0 1 2; do
	printf '%-18s' "openssl $(echo ssse3 avx x86 | cut -d' ' -f$((i + 1)))"
	for o in ${openssl386[$i]}; do printf ' %12s' "$o"; done
	echo "   (sha1-586.pl's published figures, silicon)"
done
