#!/usr/bin/env bash
# go vet on every target the packages are built for: amd64 (the library
# and the generators' module gen/), the library packages on the other GOARCHes
# and js/wasm, and the whole module with -tags purego. Vets every target,
# then fails naming those that failed (asmdecl catches wrong frame offsets).
# VET_GOARCHES overrides the list of other GOARCHes. On a cold build cache
# each GOARCH costs a compile of the tests' standard-library dependencies
# (about 45 s of CPU here); with a warm cache the whole step takes
# seconds.
set -euo pipefail
cd "$(dirname "$0")/../.."

GO=${GO:-go}
LIBS=(./sha1 ./ghash ./internal/...)
failed=()

vet() { # vet LABEL ENV... -- ARGS...
	local label=$1
	shift
	local envs=()
	while [[ $1 != -- ]]; do envs+=("$1"); shift; done
	shift
	# "-C DIR vet ARGS" vets another module: go's -C must come first.
	local cmd=(vet "$@")
	[[ $1 == -C ]] && cmd=("$@")
	echo "vet: $label: go ${cmd[*]}"
	local out rc=0
	out=$(env "${envs[@]}" "$GO" "${cmd[@]}" 2>&1) || rc=$?
	# Drop the "matched no packages" warning for ./internal/... while it is empty.
	if [[ -n $out ]]; then
		grep -v 'matched no packages' <<<"$out" || true
	fi
	if ((rc != 0)); then
		failed+=("$label")
	fi
}

vet "linux/amd64" GOOS=linux GOARCH=amd64 -- ./...
vet "gen/ (linux/amd64)" GOOS=linux GOARCH=amd64 -- -C gen vet ./...
for arch in ${VET_GOARCHES:-386 arm arm64 riscv64 ppc64le s390x}; do
	vet "linux/$arch" GOOS=linux GOARCH="$arch" -- "${LIBS[@]}"
done
vet "js/wasm" GOOS=js GOARCH=wasm -- "${LIBS[@]}"
vet "purego" -- -tags purego ./...

if ((${#failed[@]})); then
	echo "vet: FAILED for: ${failed[*]}" >&2
	exit 1
fi
echo "vet: ok"
