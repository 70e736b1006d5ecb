#!/usr/bin/env bash
# Draws docs/speed.svg from docs/speed.json (gen/tools/plot): MB/s against
# message size, one line per SHA-1 implementation. Runs the speed table
# first if the JSON file is missing. Then renders the SVG to PNG with
# rsvg-convert (installing Debian's librsvg2-bin if it is missing) and
# fails if that does not give a PNG image: the check that the SVG is valid.
#
#   scripts/plot.sh
#   PLOT_DATA  the JSON file (default docs/speed.json)
#   PLOT_SVG   the SVG file (default docs/speed.svg)
#   PLOT_PNG   where the PNG goes (default $TMPDIR/simdhash-speed.png)
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
data=${PLOT_DATA:-docs/speed.json}
svg=${PLOT_SVG:-docs/speed.svg}
png=${PLOT_PNG:-${TMPDIR:-/tmp}/simdhash-speed.png}

if [[ ! -f $data ]]; then
	echo "plot: no $data yet: running the speed table first (scripts/speed-table.sh)"
	SPEED_OUT=$data bash scripts/speed-table.sh
fi
"$GO" -C gen run ./tools/plot -in "$PWD/$data" -out "$PWD/$svg"

if ! command -v rsvg-convert >/dev/null 2>&1; then
	echo "plot: installing librsvg2-bin (rsvg-convert), to check that the SVG renders"
	command -v apt-get >/dev/null 2>&1 || { echo "plot: no rsvg-convert and no apt-get: install librsvg2-bin (or its equivalent) by hand" >&2; exit 1; }
	sudo=()
	if [[ $(id -u) != 0 ]]; then
		command -v sudo >/dev/null 2>&1 || { echo "plot: not root and no sudo: run 'apt-get install librsvg2-bin' as root" >&2; exit 1; }
		sudo=(sudo -n)
		[[ -t 0 ]] && sudo=(sudo)
	fi
	export DEBIAN_FRONTEND=noninteractive
	"${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq
	"${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends librsvg2-bin </dev/null
fi
rm -f "$png"
if ! rsvg-convert -o "$png" "$svg"; then
	echo "plot: FAILED: rsvg-convert could not render $svg" >&2
	exit 1
fi
# A PNG starts with \x89PNG\r\n\x1a\n; its IHDR gives the size.
if [[ ! -s $png || $(head -c 8 "$png" | od -An -tx1 | tr -d ' \n') != 89504e470d0a1a0a ]]; then
	echo "plot: FAILED: rsvg-convert wrote no PNG image for $svg" >&2
	exit 1
fi
size=$(od -An -tu1 -j16 -N8 "$png" | awk '{ printf "%dx%d", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }')
echo "plot: wrote $svg from $data; it renders: $png ($size)"
