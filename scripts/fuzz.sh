#!/usr/bin/env bash
# Runs every Fuzz target of each package, one at a time, for FUZZTIME each.
#
#   scripts/fuzz.sh [PKG...]     (default ./sha1 ./ghash ./gcm; FUZZTIME=30s)
#
# A PKG under ./gen/ runs in the generators' module (go -C gen), where the
# tests that compare with other modules (sha1cd) live.
#
# Targets are found with `go test -list '^Fuzz'`. A failure stops the run;
# go test then writes the failing input under PKG/testdata/fuzz/FuzzX/:
# commit it, and it becomes a regression test of the plain `go test`.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
FUZZTIME=${FUZZTIME:-30s}
pkgs=("$@")
((${#pkgs[@]})) || pkgs=(./sha1 ./ghash ./gcm)

n=0
for pkg in "${pkgs[@]}"; do
	gotest=("$GO" test) arg=$pkg
	if [[ $pkg == ./gen/* ]]; then
		gotest=("$GO" -C gen test) arg=./${pkg#./gen/}
	fi
	if ! list=$("${gotest[@]}" -list '^Fuzz' "$arg"); then
		echo "$list" >&2
		echo "fuzz: FAILED: could not list the fuzz targets of $pkg (does it build?)" >&2
		exit 1
	fi
	targets=$(grep -E '^Fuzz[A-Za-z0-9_]*$' <<<"$list" || true)
	if [[ -z $targets ]]; then
		echo "fuzz: $pkg has no Fuzz targets"
		continue
	fi
	for t in $targets; do
		echo "fuzz: $pkg $t for $FUZZTIME"
		corpus=$pkg/testdata/fuzz/$t
		before=$(ls "$corpus" 2>/dev/null || true)
		if ! "${gotest[@]}" -run '^$' -fuzz "^$t\$" -fuzztime "$FUZZTIME" "$arg"; then
			new=$(comm -13 <(echo "$before") <(ls "$corpus" 2>/dev/null || true))
			if [[ -n $new ]]; then
				echo "fuzz: FAILED: $pkg $t; the failing input is $corpus/$new" >&2
				echo "fuzz: replay it with: ${gotest[*]} -run '^$t/$new\$' $arg" >&2
			else
				echo "fuzz: FAILED: $pkg $t, with no failing input saved (a crash or hang of the fuzzing engine itself? see above)" >&2
			fi
			exit 1
		fi
		n=$((n + 1))
	done
done
echo "fuzz: ok: $n targets, $FUZZTIME each"
