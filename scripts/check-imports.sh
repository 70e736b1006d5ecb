#!/usr/bin/env bash
# The library packages must not depend on the generators' tools: fails if
# github.com/mmcloughlin/avo is among the dependencies of ./sha1 or ./ghash
# on any of the checked targets, and names the importing package.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
PKGS=(./sha1 ./ghash)
FORBIDDEN=github.com/mmcloughlin/avo
bad=0

for target in linux/amd64 linux/arm64 linux/arm purego; do
	envs=() flags=()
	case $target in
	purego) flags=(-tags purego) ;;
	*) envs=(GOOS="${target%/*}" GOARCH="${target#*/}") ;;
	esac
	list=$(env "${envs[@]}" "$GO" list "${flags[@]}" -deps -f '{{.ImportPath}}: {{join .Imports " "}}' "${PKGS[@]}") || {
		echo "check-imports: FAILED: go list failed for $target (see above)" >&2
		exit 1
	}
	if grep -q "^$FORBIDDEN" <<<"$list"; then
		echo "check-imports: FAILED: ${PKGS[*]} depend on $FORBIDDEN on $target; imported by:" >&2
		grep -v "^$FORBIDDEN" <<<"$list" | grep -E " $FORBIDDEN(/| |\$)" | cut -d: -f1 | sed 's/^/  /' >&2
		bad=1
	fi
done
((bad == 0)) || exit 1
echo "check-imports: ok: ${PKGS[*]} do not depend on $FORBIDDEN"
