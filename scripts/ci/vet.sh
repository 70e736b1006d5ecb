#!/usr/bin/env bash
# go vet on every target whose files differ: amd64 (the library and the
# generators' module gen/), then the library packages on
#   arm64, arm, 386   their own assembly (asmdecl checks every frame, 386's
#                     with 12-byte slices); arm and 386 are the 32-bit targets
#   s390x             big-endian, and the files of "stdlib" (crypto/sha1's
#                     assembly), which 386 and loong64 build too
#   js/wasm           no unix system calls (the guard-page tests)
# and the whole library with -tags purego. loong64 adds no file that
# s390x does not vet, and ppc64le and the other GOARCHes without a
# kernel build exactly the files js/wasm and purego do, so they would add
# time and no coverage (test-emulated still builds and runs the tests on
# loong64). So does riscv64 built by Go 1.26; built by Go 1.27 it
# takes the stdlib kernel, and make test-newest-go vets it then. Vets every target, then fails naming those
# that failed. VET_GOARCHES overrides the list of GOARCHes after amd64, and
# VET_GEN=0 leaves out the generators' module (make test-newest-go). On
# a cold build cache each GOARCH costs a compile of the tests'
# standard-library dependencies (about 20 s of CPU here), which
# test-emulated then reuses; with a warm cache the step takes seconds.
set -euo pipefail
cd "$(dirname "$0")/../.."

GO=${GO:-go}
LIBS=(./sha1 ./sha1dc ./ghash ./gcm ./internal/...)
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
if [[ ${VET_GEN:-1} != 0 ]]; then
	vet "gen/ (linux/amd64)" GOOS=linux GOARCH=amd64 -- -C gen vet ./...
fi
for arch in ${VET_GOARCHES:-arm64 arm 386 s390x}; do
	vet "linux/$arch" GOOS=linux GOARCH="$arch" -- "${LIBS[@]}"
done
vet "js/wasm" GOOS=js GOARCH=wasm -- "${LIBS[@]}"
vet "purego" -- -tags purego ./...

if ((${#failed[@]})); then
	echo "vet: FAILED for: ${failed[*]}" >&2
	exit 1
fi
echo "vet: ok"
