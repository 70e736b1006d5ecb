#!/usr/bin/env bash
# The speed targets of issue 21 for the gcm package, measured in one
# interleaved run with both Go toolchains the project supports: Seal then
# Open against crypto/cipher's GCM over the same plain block, the
# delegation for crypto/aes blocks, allocations, and GHASH's share of a
# Seal (gen/tools/gcmspeed says how). Arguments go to the tool, e.g.
#
#   scripts/gcm-speed.sh -rounds 10 -benchtime 200ms
#
# GOS lists the toolchains (default: the go command's own, and
# go1.27.3 through GOTOOLCHAIN). On a shared machine, run it alone:
# flock -x /tmp/machine.lock scripts/gcm-speed.sh
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
GOS=${GOS:-"local go1.27.3"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bins=()
for v in $GOS; do
	tc=$v
	[[ $v == local ]] && tc=local
	label=$(GOTOOLCHAIN=$tc "$GO" env GOVERSION)
	GOTOOLCHAIN=$tc "$GO" test -c -o "$tmp/$label.test" ./gcm
	bins+=("$label=$tmp/$label.test")
done
lscpu | sed -n 's/^Model name: *//p' | sed 's/^/cpu: /'
"$GO" -C gen run ./tools/gcmspeed -dir "$PWD/gcm" "$@" "${bins[@]}"
