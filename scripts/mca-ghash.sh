#!/usr/bin/env bash
# llvm-mca's estimates of the amd64 GHASH kernels' main loops, beside
# OpenSSL's gcm_ghash_avx loop from the system's libcrypto, on the
# skylake, icelake-server and znver3 models, with each loop's floor on
# each model (gen/tools/ghashmca says how it is derived).
#
#   bash scripts/mca-ghash.sh                          the checked-in kernels
#   bash scripts/mca-ghash.sh -width 512 -fold once    a variant of one width's file
#
# With arguments, the width's file (-width 128, 256 or 512; 128 if none)
# is regenerated in place with them, as gen/ghash_pclmul's knobs, modelled,
# and put back. MCA_ARGS go to the tool, e.g. MCA_ARGS='-kernels pclmul
# -ports=false'; MCA_KEEP=DIR keeps the loops' instructions there.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
command -v "${LLVM_MCA:-llvm-mca}" >/dev/null || { echo "mca-ghash: llvm-mca not found (Debian: apt-get install llvm)" >&2; exit 1; }
command -v objdump >/dev/null || { echo "mca-ghash: objdump not found (Debian: apt-get install binutils)" >&2; exit 1; }

tmp=$(mktemp -d)
restore=""
cleanup() {
	[[ -z $restore ]] || cp -p -- "$tmp/checked-in.s" "$restore"
	rm -rf "$tmp"
}
trap cleanup EXIT
if (($#)); then
	width=128
	args=("$@")
	for ((i = 0; i < ${#args[@]}; i++)); do
		case ${args[i]} in
		-width | --width) width=${args[i + 1]:-} ;;
		-width=* | --width=*) width=${args[i]#*=} ;;
		esac
	done
	case $width in
	128) file=ghash/ghash_amd64.s ;;
	256 | 512) file=ghash/ghash_vpclmul${width}_amd64.s ;;
	*) echo "mca-ghash: -width $width: want 128, 256 or 512" >&2; exit 2 ;;
	esac
	cp -p -- "$file" "$tmp/checked-in.s"
	restore=$file
	(cd ghash && "$GO" -C ../gen run ./ghash_pclmul "$@" -out "../$file")
	echo "mca-ghash: variant $file: $(grep -m1 'Knobs:' "$file" | sed 's/^[[:space:]]*\/\/ //')"
fi
GOARCH=amd64 "$GO" test -c -o "$tmp/ghash.test" ./ghash
keep=()
[[ -z ${MCA_KEEP:-} ]] || { mkdir -p "$MCA_KEEP"; keep=(-keep "$(cd "$MCA_KEEP" && pwd)"); }
# shellcheck disable=SC2086
"$GO" -C gen run ./tools/ghashmca -test "$tmp/ghash.test" -dir "$PWD/ghash" -mca "${LLVM_MCA:-llvm-mca}" "${keep[@]}" ${MCA_ARGS:-}
