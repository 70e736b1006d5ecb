#!/usr/bin/env bash
# sha1.Sum against crypto/sha1.Sum per CPU class, in one interleaved run:
# each class is a GODEBUG setting that both packages obey alike, and in it
# BenchmarkSum runs our kernels of that class and crypto/sha1 in the same
# process. A round runs every class once; the table gives, per kernel and
# size, the median over the rounds of that round's ratio (crypto/sha1's
# time over ours: above 1 means ours is faster) and the range.
#
#   scripts/sha1-speed.sh             ROUNDS=10 BENCHTIME=100ms
#
#   class                 GODEBUG                     our kernels    crypto/sha1 runs
#   SHA-NI                (none)                      shani          its SHA-NI code
#   AVX2                  cpu.sha=off                 avx2           its AVX2 code (portable Go below 256 B)
#   AVX, SSSE3            cpu.sha=off,cpu.avx2=off    avx, ssse3     portable Go
#
# crypto/sha1 has no AVX or SSSE3 path, so the last class is both; ssse3 is
# forced by the benchmark, as every kernel the CPU can run is. A class
# whose kernels this CPU lacks is left out. RAW=FILE keeps the benchmark
# output.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
ROUNDS=${ROUNDS:-10}
BENCHTIME=${BENCHTIME:-100ms}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
raw=${RAW:-$tmp/raw.txt}
: >"$raw"
"$GO" test -c -o "$tmp/sha1.test" ./sha1

classes=("SHA-NI||shani" "AVX2|cpu.sha=off|avx2" "AVX|cpu.sha=off,cpu.avx2=off|avx|ssse3")
echo "sha1-speed: $ROUNDS rounds of BenchmarkSum, -benchtime $BENCHTIME, in ${#classes[@]} GODEBUG classes"
for ((r = 1; r <= ROUNDS; r++)); do
	for c in "${classes[@]}"; do
		IFS='|' read -r name godebug kernels <<<"$c"
		pat="^BenchmarkSum\$/^(${kernels}|crypto-sha1)\$/"
		(cd sha1 && GODEBUG=$godebug "$tmp/sha1.test" -test.run '^$' -test.bench "$pat" -test.benchtime "$BENCHTIME" 2>/dev/null) |
			awk -v r="$r" -v c="$name" '/^BenchmarkSum\// && / ns\/op/ {
				split($1, p, "/"); sub(/-[0-9]+$/, "", p[3])
				for (i = 2; i < NF; i++) if ($(i + 1) == "ns/op") print r, c, p[2], p[3], $i
			}' >>"$raw"
	done
done

# raw: ROUND CLASS KERNEL SIZE NS
awk '
function median(s,   a, n, i, j, t) {
	n = split(s, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function lo(s,   a, n, i, m) { n = split(s, a, " "); m = a[1]; for (i = 2; i <= n; i++) if (a[i] < m) m = a[i]; return m }
function hi(s,   a, n, i, m) { n = split(s, a, " "); m = a[1]; for (i = 2; i <= n; i++) if (a[i] > m) m = a[i]; return m }
{ t[$1, $2, $3, $4] = $5; if (!(($2, $3) in seen) && $3 != "crypto-sha1") { seen[$2, $3]; rows[++nr] = $2 SUBSEP $3 }
  if (!($4 in sz)) { sz[$4]; sizes[++ns] = $4 }; if ($1 > R) R = $1 }
END {
	printf "%-8s %-7s", "class", "kernel"; for (j = 1; j <= ns; j++) printf " %18s", sizes[j] " B"; print ""
	for (i = 1; i <= nr; i++) {
		split(rows[i], k, SUBSEP)
		printf "%-8s %-7s", k[1], k[2]
		for (j = 1; j <= ns; j++) {
			s = ""
			for (r = 1; r <= R; r++) if ((r, k[1], k[2], sizes[j]) in t && (r, k[1], "crypto-sha1", sizes[j]) in t)
				s = s " " t[r, k[1], "crypto-sha1", sizes[j]] / t[r, k[1], k[2], sizes[j]]
			if (s == "") { printf " %18s", "-"; continue }
			printf " %18s", sprintf("%.2f (%.2f-%.2f)", median(s), lo(s), hi(s))
		}
		print ""
	}
	print "crypto/sha1 time / ours: median of the rounds (range); above 1, ours is faster"
}' "$raw"
