#!/usr/bin/env bash
# The SHA-1 speed table of make speed: every sha1 kernel this CPU can run,
# crypto/sha1 and OpenSSL (when the openssl command exists: its default
# dispatch and its AVX2 and SSSE3 paths), in the message sizes and update
# patterns of Linux's tcrypt hash speed test, in MB/s and cycles/byte (the
# clock measured by a calibration loop in the same run). Writes the figures
# to docs/speed.json for make plot. See gen/tools/speedtable.
#
#   scripts/speed-table.sh [speedtable flags]
#   SPEED_ROUNDS     rounds; each figure is the best of them (default 3)
#   SPEED_BENCHTIME  time of one of our measurements (default 100ms)
#   SPEED_OUT        the JSON file (default docs/speed.json)
# About three minutes with the defaults, most of it OpenSSL's one-second runs.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
if [[ $("$GO" env GOARCH) != amd64 ]]; then
	echo "speed-table: the SHA-1 kernels are amd64 code; this is $("$GO" env GOARCH)" >&2
	exit 1
fi
command -v openssl >/dev/null || echo "speed-table: no openssl command: the table leaves OpenSSL out (Debian: apt-get install openssl)" >&2
exec "$GO" -C gen run ./tools/speedtable -rounds "${SPEED_ROUNDS:-3}" -benchtime "${SPEED_BENCHTIME:-100ms}" -out "${SPEED_OUT:-docs/speed.json}" "$@"
