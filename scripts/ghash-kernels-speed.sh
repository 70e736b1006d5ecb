#!/usr/bin/env bash
# The amd64 GHASH kernels' update loops (BenchmarkUpdate: a key made once,
# no length block) against `openssl speed ghash` and against pclmul at every
# size, as ratios within one run, with cycles per byte and each main loop's
# share of the carry-less-multiply throughput (gen/tools/ghashspeed says
# how; scripts/ghash-speed.sh measures the 128-bit kernels' Key.SumGCM for issue
# 10). Arguments
# go to the tool, e.g.
#
#   scripts/ghash-kernels-speed.sh -rounds 10 -benchtime 200ms
#
# BASE=REV also builds the test binary of commit REV (from git archive) and
# times it in the same rounds (the tool's -base), with BenchmarkKeySumGCM
# besides, for a before-and-after of a change:
#
#   BASE=main scripts/ghash-kernels-speed.sh -rounds 8
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
command -v openssl >/dev/null || { echo "ghash-kernels-speed: no openssl command (Debian: apt-get install openssl)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$GO" test -c -o "$tmp/ghash.test" ./ghash
base=()
if [[ -n ${BASE:-} ]]; then
	mkdir "$tmp/base"
	git archive "$BASE" | tar -x -C "$tmp/base"
	# This checkout's benchmarks, so that both binaries time the same sizes.
	cp ghash/bench_test.go "$tmp/base/ghash/"
	(cd "$tmp/base" && "$GO" test -c -o "$tmp/base.test" ./ghash)
	base=(-base "$tmp/base.test" -base-dir "$tmp/base/ghash" -bench '^(BenchmarkUpdate|BenchmarkKeySumGCM|BenchmarkCLMUL|BenchmarkCycles)$')
fi
"$GO" -C gen run ./tools/ghashspeed -test "$tmp/ghash.test" -dir "$PWD/ghash" "${base[@]}" "$@"
