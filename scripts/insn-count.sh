#!/usr/bin/env bash
# Counts the instructions that sha1's portable block function and
# crypto/sha1's execute per byte, under qemu user-mode emulation, for a
# GOARCH on which sha1 has no assembly (riscv64 by default): the evidence
# for the kernel sha1 chooses there (docs/sha1.md). crypto/sha1's is
# portable Go built by Go 1.26, and assembly on riscv64 from Go 1.27:
#
#   bash scripts/insn-count.sh [GOARCH]
#   GOTOOLCHAIN=go1.27.3 bash scripts/insn-count.sh
#
# gen/tools/sha1insn hashes 64 KiB once, then three times, with each package;
# qemu logs every translation block it translates (-d in_asm) and every
# execution of one (-d exec, with nochain so that none is skipped); the
# count of a function is the sum, over the executions of blocks that start
# inside it, of the instructions in the block, and the figure is the
# difference between the two runs per byte hashed in between (so that
# whatever runs at start-up does not count). Needs qemu-user; takes a few
# seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
goarch=${1:-riscv64}
qemu=qemu-$goarch
command -v "$qemu" >/dev/null || { echo "insn-count: $qemu not found (make deps installs qemu-user)" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

GOOS=linux GOARCH=$goarch CGO_ENABLED=0 "$GO" -C gen build -o "$dir/sha1insn" ./tools/sha1insn
printf '%-8s %-48s %10s\n' run function instr/byte
# count WHO TIMES LO HI: the instructions executed in [LO, HI) by sha1insn WHO TIMES.
count() {
	"$qemu" -d in_asm,exec,nochain -D "$dir/log" "$dir/sha1insn" "$1" "$2" >/dev/null
	awk -v lo="$3" -v hi="$4" '
		/^IN:/ { cur = ""; next }
		/^0x[0-9a-f]+:/ { a = substr($1, 3, 16); if (cur == "") { cur = a; n[cur] = 0 } n[cur]++; next }
		/^$/ { cur = ""; next }
		/^Trace / { split($0, f, "/"); pc = f[2]; if (pc >= lo && pc < hi) total += n[pc] }
		END { print total + 0 }
	' "$dir/log"
}
for who in ours stdlib; do
	# crypto/sha1's portable block function, or (Go 1.27 on riscv64) its
	# assembly, block (an ABI0 symbol).
	fns=(github.com/simdhash/simdhash/sha1.blockGeneric)
	[[ $who == stdlib ]] && fns=(crypto/sha1.blockGeneric crypto/sha1.block.abi0)
	start=
	for fn in "${fns[@]}"; do
		read -r start size < <("$GO" tool nm -size "$dir/sha1insn" | awk -v s="$fn" '$4 == s { print $1, $2 }') || true
		[[ -n $start ]] && break
	done
	[[ -n $start ]] || { echo "insn-count: none of ${fns[*]} in the $goarch binary" >&2; exit 1; }
	# Addresses compare as strings once they have 16 hex digits, as qemu prints them.
	lo=$(printf '%016x' $((16#$start)))
	hi=$(printf '%016x' $((16#$start + size)))
	once=$(count "$who" 1 "$lo" "$hi")
	thrice=$(count "$who" 3 "$lo" "$hi")
	if ((once == 0 || thrice <= once)); then
		echo "insn-count: counted no instructions in $fn under $qemu: its log does not look like qemu-riscv64's" >&2
		exit 1
	fi
	awk -v who="$who" -v fn="$fn" -v d=$((thrice - once)) 'BEGIN { printf "%-8s %-48s %10.2f\n", who, fn, d / (2 * 65536) }'
done
