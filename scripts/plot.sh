#!/usr/bin/env bash
# Draws docs/speed.svg from docs/speed.json (gen/tools/plot, with
# gonum/plot): MB/s against message size, one line per implementation, and
# a PNG of the same chart to look at.
#
#   scripts/plot.sh               (make plot)
#   PLOT_DATA  the speed table (default docs/speed.json; make speed writes it,
#              and this script runs it first when it is missing)
#   PLOT_SVG   the SVG to write (default docs/speed.svg)
#   PLOT_PNG   the PNG to write (default $TMPDIR/simdhash-speed.png)
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
data=${PLOT_DATA:-docs/speed.json}
svg=${PLOT_SVG:-docs/speed.svg}
png=${PLOT_PNG:-${TMPDIR:-/tmp}/simdhash-speed.png}

if [[ ! -f $data ]]; then
	echo "plot: no $data yet: running the speed table first (scripts/speed-table.sh, about 3 minutes)"
	SPEED_OUT=$data bash scripts/speed-table.sh
fi
abs() { [[ $1 == /* ]] && echo "$1" || echo "$PWD/$1"; }
"$GO" -C gen run ./tools/plot -in "$(abs "$data")" -out "$(abs "$svg")" -png "$(abs "$png")"
echo "plot: wrote $svg from $data, and $png to look at"
