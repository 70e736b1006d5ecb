#!/usr/bin/env bash
# Checks what a user's module inherits from ours: builds a scratch client
# module that imports sha1, sha1dc, ghash and gcm (with a replace onto this checkout),
# and fails if `go list -m all` there lists any module besides the client,
# this library and golang.org/x/sys. The generators and the tooling, with
# avo, x/tools and benchstat, live in gen/go.mod, which a client never sees.
set -euo pipefail
cd "$(dirname "$0")/../.."

GO=${GO:-go}
root=$PWD
client=$(mktemp -d)
trap 'rm -rf "$client"' EXIT

cat >"$client/main.go" <<'GO'
package main

import (
	"crypto/aes"
	"fmt"

	"github.com/simdhash/simdhash/gcm"
	"github.com/simdhash/simdhash/ghash"
	"github.com/simdhash/simdhash/sha1"
	"github.com/simdhash/simdhash/sha1dc"
)

func main() {
	b, _ := aes.NewCipher(make([]byte, 16))
	a, err := gcm.NewWithSizes(b, 16, 12)
	fmt.Println(sha1.Kernel(), sha1dc.Kernel(), ghash.Kernel(), a.Overhead(), err)
}
GO
cat >"$client/go.mod" <<GOMOD
module example.com/client

go 1.26

require github.com/simdhash/simdhash v0.0.0

replace github.com/simdhash/simdhash => $root
GOMOD

(cd "$client" && GOFLAGS=-mod=mod "$GO" mod tidy >/dev/null)
(cd "$client" && "$GO" build -o /dev/null .)
mods=$(cd "$client" && "$GO" list -m all | awk '{ print $1 }')
extra=$(grep -v -x -E 'example.com/client|github.com/simdhash/simdhash|golang.org/x/sys' <<<"$mods" || true)
if [[ -n $extra ]]; then
	echo "check-deps: FAILED: a module importing sha1, sha1dc, ghash and gcm also requires:" >&2
	sed 's/^/  /' <<<"$extra" >&2
	echo "check-deps: the library's go.mod must require golang.org/x/sys alone; tooling belongs in gen/go.mod" >&2
	exit 1
fi
echo "check-deps: ok: a client module of sha1, sha1dc, ghash and gcm lists only: $(tr '\n' ' ' <<<"$mods")"
