#!/usr/bin/env bash
# Instructions executed per GCM GHASH on the arm64 and 32-bit arm kernels,
# counted under qemu-user (this machine cannot time ARM code): for one
# message of SIZE bytes (default 64) as additional data,
#
#   key      Key.SumGCM on a key made beforehand
#   newkey   NewKey, then Key.SumGCM (one message per key)
#   oneshot  SumGCM(H, A, nil), which expands only the powers of H it uses
#
# and the ratios newkey/key and oneshot/key. A scratch program (a client of
# this checkout) runs each mode N and 2N times under `qemu -d
# in_asm,exec,nochain`; every executed translation block is logged, and
# its instruction count comes from the in_asm listing of its address. The
# count of one operation is (count(2N) - count(N)) / N, so start-up and
# exit cancel out; only the functions the operations run are counted
# (KEEP below). Instructions are not cycles: the neon kernel's 8-bit
# multiplies and the Go code around the kernels weigh alike here.
#
#   scripts/ghash-arm-count.sh        SIZE=64 N=200
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
SIZE=${SIZE:-64}
N=${N:-200}
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/main.go" <<'GO'
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/simdhash/simdhash/ghash"
)

var sink [16]byte

func main() {
	mode := os.Args[1]
	size, _ := strconv.Atoi(os.Args[2])
	n, _ := strconv.Atoi(os.Args[3])
	h := [16]byte{0x66, 0xe9, 0x4b, 0xd4, 0xef, 0x8a, 0x2c, 0x3b, 0x88, 0x4c, 0xfa, 0x59, 0xca, 0x34, 0x2b, 0x2e}
	data := make([]byte, size)
	key := ghash.NewKey(h)
	for i := 0; i < n; i++ {
		switch mode {
		case "key":
			sink = key.SumGCM(data, nil)
		case "newkey":
			k := ghash.NewKey(h)
			sink = k.SumGCM(data, nil)
		case "oneshot":
			sink = ghash.SumGCM(h, data, nil)
		}
	}
	fmt.Println(ghash.Kernel())
}
GO
cat >"$tmp/go.mod" <<GOMOD
module example.com/count

go 1.26

require github.com/simdhash/simdhash v0.0.0

replace github.com/simdhash/simdhash => $root
GOMOD
(cd "$tmp" && GOFLAGS=-mod=mod "$GO" mod tidy >/dev/null 2>&1)

# What is counted: the translation blocks of the functions the operations
# run (the ghash package, the program's loop, the copying and zeroing
# helpers of the runtime), not those of the runtime's background work
# (sysmon, the scheduler), which would grow with N as well.
KEEP='^(github\.com/simdhash/simdhash/ghash\.|main\.main|math/bits\.|encoding/binary\.|runtime\.(memmove|memclrNoHeapPointers|duffcopy|duffzero))'

# count QEMU MODE COUNT: instructions executed by the program.
count() {
	local qemu=() mode=$2 n=$3
	read -r -a qemu <<<"$1"
	local log=$tmp/log
	GOMAXPROCS=1 GOGC=off "${qemu[@]}" -d in_asm,exec,nochain -D "$log" "$bin" "$mode" "$SIZE" "$n" >"$tmp/out"
	awk -v keep="$KEEP" '
		/^IN:/ { tb = ""; sym = $2; next }
		/^0x[0-9a-f]+:/ { a = $1; sub(":", "", a); sub(/^0x0*/, "", a); if (tb == "") { tb = a; len[tb] = 0; name[tb] = sym } len[tb]++; next }
		/^Trace / { if (match($0, /\/[0-9a-f]+\//)) { pc = substr($0, RSTART + 1, RLENGTH - 2); sub(/^0*/, "", pc); runs[pc]++ } }
		END { for (pc in runs) if (name[pc] ~ keep) total += runs[pc] * len[pc]; print total + 0 }
	' "$log"
}

printf '%-6s %-40s %-8s %10s %10s %10s %8s %8s\n' goarch run kernel key newkey oneshot new/key one/key
for run in \
	"arm64|qemu-aarch64|" \
	"arm64|qemu-aarch64|cpu.pmull=off" \
	"arm|qemu-arm -cpu max|" \
	"arm|qemu-arm -cpu cortex-a15|"; do
	IFS='|' read -r goarch qemu godebug <<<"$run"
	bin=$tmp/count.$goarch
	[[ -x $bin ]] || (cd "$tmp" && GOOS=linux GOARCH=$goarch GOARM=7 CGO_ENABLED=0 "$GO" build -o "$bin" .)
	export GODEBUG=$godebug
	declare -A per=()
	for mode in key newkey oneshot; do
		a=$(count "$qemu" "$mode" "$N")
		b=$(count "$qemu" "$mode" $((2 * N)))
		per[$mode]=$(((b - a) / N))
	done
	kernel=$(cat "$tmp/out")
	label="$qemu${godebug:+ GODEBUG=$godebug}"
	awk -v g="$goarch" -v r="$label" -v k="$kernel" -v a="${per[key]}" -v b="${per[newkey]}" -v c="${per[oneshot]}" \
		'BEGIN { printf "%-6s %-40s %-8s %10d %10d %10d %8.2f %8.2f\n", g, r, k, a, b, c, b / a, c / a }'
	unset GODEBUG
done
