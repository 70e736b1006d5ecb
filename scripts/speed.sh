#!/usr/bin/env bash
# A short speed table: runs the benchmarks whose names end in /64 or /8192
# (BenchmarkSum/<kernel>/<size> and alike) for SPEED_ROUNDS rounds, each
# round running every benchmark once, so that the rounds interleave; then
# prints one table per benchmark, a row per kernel and a column per size:
# the median in MB/s with the lowest and highest round beside it, and a
# warning when the spread is over 10% (gen/tools/benchtable).
#
#   scripts/speed.sh [PKG...]     (default ./sha1 ./ghash)
#   SPEED_BENCH   the -bench pattern (default '.*/.*/^(64|8192)$')
#   SPEED_TIME    the -benchtime of one round (default 100ms)
#   SPEED_ROUNDS  the number of rounds (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
pkgs=("$@")
((${#pkgs[@]})) || pkgs=(./sha1 ./ghash)
bench=${SPEED_BENCH:-'.*/.*/^(64|8192)$'}
benchtime=${SPEED_TIME:-100ms}
rounds=${SPEED_ROUNDS:-5}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "speed: $rounds rounds of -bench '$bench' -benchtime $benchtime for ${pkgs[*]} (about $((rounds * ${#pkgs[@]} * 4)) s)"
for pkg in "${pkgs[@]}"; do
	"$GO" test -c -o "$tmp/$(basename "$pkg").test" "$pkg"
done
for ((r = 1; r <= rounds; r++)); do
	for pkg in "${pkgs[@]}"; do
		dir=$("$GO" list -f '{{.Dir}}' "$pkg")
		if ! (cd "$dir" && "$tmp/$(basename "$pkg").test" -test.run '^$' -test.bench "$bench" -test.benchtime "$benchtime") >>"$tmp/out" 2>&1; then
			cat "$tmp/out" >&2
			echo "speed: FAILED: the benchmarks of $pkg did not run (see above)" >&2
			exit 1
		fi
	done
done
"$GO" -C gen run ./tools/benchtable <"$tmp/out"
