#!/usr/bin/env bash
# The GHASH speed targets of issue 10, measured in one interleaved run on
# this machine's amd64 kernels:
#
#   - Key.SumGCM on a key made beforehand (BenchmarkKeySumGCM: a GMAC of N
#     bytes, length block included) against `openssl speed -seconds 1
#     -bytes N ghash`, which times GMAC updates on a key set once;
#   - the same against OLD_REV's ghash.Sum (BenchmarkGHASH there), which
#     expanded the key on every call, built from a scratch copy of OLD_REV;
#     with the same kernel, or with pclmul (what OLD_REV chose here) for a
#     kernel it did not have.
#
#   scripts/ghash-speed.sh            ROUNDS=10 SIZES='16 64 1024 8192' BUDGET=0.5
#
# Every round runs each measurement once, in turn; the table gives, per
# kernel and size, the ratio of the best (least) times over the rounds,
# and the median of the rounds' own ratios with their range. Both sides are timed in user CPU time, as `openssl speed`
# does by default: on a machine shared with other work, wall-clock time
# also counts the time a program waits for a core (a Go benchmark's
# ns/op does), which made the same code look twice as slow here. Each Go
# measurement runs a fixed COUNT of operations, about BUDGET seconds'
# worth, under bash's `time`, less a run of one operation (start-up).
# RAW=FILE keeps every measurement (ns per operation) for re-analysis.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
ROUNDS=${ROUNDS:-10}
SIZES=${SIZES:-16 64 1024 8192}
BUDGET=${BUDGET:-0.5}
# The last commit before the Key type: ghash.Sum(&H, A, C) and BenchmarkGHASH.
OLD_REV=${OLD_REV:-e008fa9}

command -v openssl >/dev/null || { echo "ghash-speed: no openssl command" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
raw=${RAW:-$tmp/raw.txt}
: >"$raw"

echo "ghash-speed: building this checkout's ghash test binary and $OLD_REV's (git archive into $tmp/old)"
"$GO" test -c -o "$tmp/new.test" ./ghash
mkdir -p "$tmp/old"
git archive "$OLD_REV" go.mod go.sum ghash internal | tar -x -C "$tmp/old"
# Its benchmark loops as ours do, to b.N: b.Loop doubled the time of small
# sizes in some builds (docs/performance.md).
sed -i 's/for b\.Loop() {/for range b.N {/' "$tmp/old/ghash/bench_test.go"
(cd "$tmp/old" && "$GO" test -c -o "$tmp/old.test" ./ghash)
kernels=$(cd ghash && "$tmp/new.test" -test.run '^$' -test.bench '^BenchmarkKeySumGCM$/^(pclmul|vpclmul)' -test.benchtime 1x |
	awk -F/ '/^BenchmarkKeySumGCM\//{print $2}' | sort -u)
[[ -n $kernels ]] || { echo "ghash-speed: this CPU runs no amd64 kernel (vpclmul*, pclmul, pclmul-sse)" >&2; exit 1; }
oldkernels=$(cd ghash && "$tmp/old.test" -test.run '^$' -test.bench '^BenchmarkGHASH$/^pclmul' -test.benchtime 1x |
	awk -F/ '/^BenchmarkGHASH\//{print $2}' | sort -u)
# old KERNEL: the kernel of OLD_REV's Sum to compare KERNEL's Key.SumGCM
# with: the same one, or, for a kernel OLD_REV did not have (vpclmul*),
# what OLD_REV's dispatch chose on this CPU, pclmul.
old() { if grep -qx -- "$1" <<<"$oldkernels"; then echo "$1"; else echo pclmul; fi; }

# cpu BINARY NAME KERNEL N COUNT: user CPU seconds to run COUNT operations
# of Benchmark<NAME>/<KERNEL>/<N>.
cpu() {
	local TIMEFORMAT=%U
	{ time (cd ghash && "$1" -test.run '^$' -test.bench "^Benchmark$2\$/^$3\$/^$4\$" -test.benchtime "$5x" >/dev/null); } 2>&1
}

# count BINARY NAME KERNEL N: how many operations take about BUDGET seconds.
count() {
	(cd ghash && "$1" -test.run '^$' -test.bench "^Benchmark$2\$/^$3\$/^$4\$" -test.benchtime 100ms) |
		awk -v n="$4" -v b="$BUDGET" '$1 ~ /^Benchmark/ && $1 ~ "/" n "-" {printf "%d", b * 1e9 / $3 + 1; found = 1} END {exit !found}'
}

# bench BINARY NAME KERNEL N COUNT: user CPU ns per operation.
bench() {
	local t1 tn
	t1=$(cpu "$1" "$2" "$3" "$4" 1)
	tn=$(cpu "$1" "$2" "$3" "$4" "$5")
	awk -v a="$t1" -v b="$tn" -v c="$5" 'BEGIN {printf "%.3f", (b - a) * 1e9 / (c - 1)}'
}

declare -A nkey nold
for n in $SIZES; do
	for k in $kernels; do
		nkey[$k/$n]=$(count "$tmp/new.test" KeySumGCM "$k" "$n")
		nold[$k/$n]=$(count "$tmp/old.test" GHASH "$(old "$k")" "$n")
	done
done

echo "ghash-speed: $ROUNDS rounds of: openssl speed ghash, then per kernel ($(echo $kernels)) Key.SumGCM and $OLD_REV's Sum, at $SIZES bytes"
for ((r = 1; r <= ROUNDS; r++)); do
	for n in $SIZES; do
		ns=$(openssl speed -mr -seconds 1 -bytes "$n" ghash 2>/dev/null | awk -F: -v n="$n" '/^\+F:/{printf "%.3f", n / $4 * 1e9}')
		echo "$r openssl - $n $ns" >>"$raw"
		for k in $kernels; do
			echo "$r key $k $n $(bench "$tmp/new.test" KeySumGCM "$k" "$n" "${nkey[$k/$n]}")" >>"$raw"
			echo "$r old $k $n $(bench "$tmp/old.test" GHASH "$(old "$k")" "$n" "${nold[$k/$n]}")" >>"$raw"
		done
	done
	echo "ghash-speed: round $r/$ROUNDS done"
done

# The ratios: OpenSSL's time / Key.SumGCM's, and old Sum's / Key.SumGCM's:
# of the best (least) time of each over the rounds, and the median of the
# rounds' own ratios with their range.
awk '
function sort(list, a,   m, i, j, t) {
	m = split(list, a, " ")
	for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	return m
}
function median(list,   a, m) { m = sort(list, a); return m % 2 ? a[(m+1)/2] : (a[m/2] + a[m/2+1]) / 2 }
function least(list,   a) { sort(list, a); return a[1] }
function most(list,   a, m) { m = sort(list, a); return a[m] }
{ t[$1, $2, $3, $4] = $5; rounds[$1]; if ($2 == "key") { kern[$3]; size[$4] } }
END {
	printf "%-10s %5s | %8s %8s %8s | %-24s | %-24s\n", "", "", "best ns/op", "", "", "Key vs OpenSSL", "Key vs old Sum"
	printf "%-10s %5s | %8s %8s %8s | %5s %18s | %5s %18s\n", "kernel", "bytes", "Key", "OpenSSL", "old Sum", "bests", "median (range)", "bests", "median (range)"
	for (k in kern) for (n in size) {
		ro = ""; rs = ""; kk = ""; oo = ""; ss = ""
		for (r in rounds) {
			ro = ro " " t[r, "openssl", "-", n] / t[r, "key", k, n]
			rs = rs " " t[r, "old", k, n] / t[r, "key", k, n]
			kk = kk " " t[r, "key", k, n]; oo = oo " " t[r, "openssl", "-", n]; ss = ss " " t[r, "old", k, n]
		}
		bk = least(kk); bo = least(oo); bs = least(ss)
		printf "%-10s %5d | %8.1f %8.1f %8.1f | %5.2f %5.2f (%4.2f..%4.2f) | %5.2f %5.2f (%4.2f..%4.2f)\n", k, n, bk, bo, bs,
			bo / bk, median(ro), least(ro), most(ro), bs / bk, median(rs), least(rs), most(rs)
	}
}' "$raw" | (read -r h1; read -r h2; echo "$h1"; echo "$h2"; sort -k1,1 -k2,2n)
