#!/usr/bin/env bash
# time-make-test.sh [REV]: how long each step of `make test` takes, cold and
# warm. Clones this repository at REV (default HEAD) into a new directory,
# with an empty Go build cache and module cache there (GOCACHE, GOMODCACHE)
# and CI=true, runs the steps one by one with /usr/bin/time in the order
# `make test` runs them, then all of them again on the now warm caches.
# Prints "pass step wall user sys" per step and each pass's total; a
# failed step is reported with its log's tail. docs/verification.md has
# the last measurement. Run it with the machine otherwise idle.
set -u
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
rev=${1:-HEAD}
d=$(mktemp -d "${TMPDIR:-/tmp}/time-make-test.XXXXXX")
git clone -q "$repo" "$d/src" && git -C "$d/src" checkout -q "$rev" || exit 1
export GOCACHE=$d/cache GOMODCACHE=$d/mod CI=true
cd "$d/src" || exit 1
steps="deps check-generated vet test-native test-race test-purego check-deps test-newest-go test-emulated"
failed=0
for pass in cold warm; do
	start=$(date +%s)
	for t in $steps; do
		if ! /usr/bin/time -f "$pass $t %e %U %S" -o "$d/time" make -s "$t" >"$d/$pass-$t.log" 2>&1; then
			failed=1
			echo "FAILED: $pass $t (log: $d/$pass-$t.log)"
			tail -20 "$d/$pass-$t.log"
		fi
		cat "$d/time"
	done
	echo "$pass total $(($(date +%s) - start)) s"
done
echo "logs and caches: $d (remove it when done: the module cache is read-only, chmod -R u+w first)"
exit $failed
