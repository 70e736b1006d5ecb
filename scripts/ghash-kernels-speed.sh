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
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
command -v openssl >/dev/null || { echo "ghash-kernels-speed: no openssl command (Debian: apt-get install openssl)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$GO" test -c -o "$tmp/ghash.test" ./ghash
"$GO" -C gen run ./tools/ghashspeed -test "$tmp/ghash.test" -dir "$PWD/ghash" "$@"
