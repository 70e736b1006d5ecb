#!/usr/bin/env bash
# Prints the block loop of a function in a binary, for llvm-mca: the
# instructions from the target of the function's last backward branch up to
# that branch (other than the morestack path's jump back to the entry), with
# every branch left out, as the issues' anchors were modelled (steady-state
# loop body, branches dropped). Comments and symbol annotations are removed.
#
#   bash scripts/objdump-loop.sh OBJDUMP BINARY SYMBOL
#
# OBJDUMP is a GNU objdump for the binary's architecture (aarch64-linux-gnu-
# objdump, arm-linux-gnueabihf-objdump); SYMBOL as go tool nm prints it,
# e.g. crypto/sha1.sha1block.abi0.
set -euo pipefail
(($# == 3)) || { sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }
objdump=$1 bin=$2 sym=$3
branch='^(b|b\.[a-z]+|bl|cbz|cbnz|tbz|tbnz|b(eq|ne|hs|lo|cs|cc|hi|ls|gt|lt|ge|le|mi|pl))$'
dis=$("$objdump" -d --no-show-raw-insn "$bin" --disassemble="$sym" | sed -E 's#[[:space:]]*(//|;|@).*$##; s# <[^>]*>$##')
entry=$(awk '/^[0-9a-f]+ </ { sub(/^0+/, "", $1); print $1; exit }' <<<"$dis")
[[ -n $entry ]] || { echo "objdump-loop: no function $sym in $bin" >&2; exit 1; }
from="" target=""
while read -r a t; do
	a=${a%:}
	if ((16#$t < 16#$a && 16#$t != 16#$entry)); then from=$a target=$t; fi
done < <(awk -v re="$branch" '$2 ~ re && $NF ~ /^[0-9a-f]+$/ { print $1, $NF }' <<<"$dis")
[[ -n $target ]] || { echo "objdump-loop: no loop in $sym" >&2; exit 1; }
awk -v t="$target" -v f="$from" -v re="$branch" '
	$1 ~ /:$/ { a = $1; sub(":", "", a); if (a == t) on = 1; if (a == f) exit }
	on && $2 ~ re { next }
	on { sub(/^ *[0-9a-f]+:\t/, ""); print }
' <<<"$dis"
