#!/usr/bin/env bash
# A short speed table: runs the benchmarks whose names end in /64 or /8192
# (BenchmarkSum/<kernel>/<size> and alike) briefly and prints one table per
# benchmark, a row per kernel and a column per size, in MB/s.
#
#   scripts/speed.sh [PKG...]     (default ./sha1 ./ghash)
#   SPEED_BENCH   the -bench pattern (default '.*/.*/^(64|8192)$')
#   SPEED_TIME    the -benchtime (default 200ms)
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
pkgs=("$@")
((${#pkgs[@]})) || pkgs=(./sha1 ./ghash)
bench=${SPEED_BENCH:-'.*/.*/^(64|8192)$'}
benchtime=${SPEED_TIME:-200ms}

out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "speed: go test -run '^\$' -bench '$bench' -benchtime $benchtime ${pkgs[*]}"
if ! "$GO" test -run '^$' -bench "$bench" -benchtime "$benchtime" "${pkgs[@]}" >"$out" 2>&1; then
	cat "$out" >&2
	echo "speed: FAILED: the benchmarks did not run (see above)" >&2
	exit 1
fi
"$GO" -C gen run ./tools/benchtable <"$out"
