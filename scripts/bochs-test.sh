#!/usr/bin/env bash
# Runs a package's tests under bochs on an emulated CPU with AVX-512,
# VPCLMULQDQ, VAES and SHA (default: bochs's Tiger Lake), for kernels no
# CPU of this machine can run. docs/verification.md explains the harness.
#
#   bash scripts/bochs-test.sh [FLAGS] PKG [TESTFLAG...] [-- NAME=VALUE...]
#
#   PKG        ./sha1, ./ghash, ... (any package of the library module)
#   TESTFLAG   test binary flags (default -test.short; -test.v is added)
#   NAME=VALUE the tests' environment: GODEBUG=..., SIMDHASH_GHASH_KERNEL=...
#              A SIMDHASH_*_KERNEL=NAME also runs the test that checks it alone
#              first (TestDispatch; TestManyDispatch for
#              SIMDHASH_SHA1_MANY_KERNEL), which must pass: the dispatcher
#              chose NAME on this CPU model.
#   FLAGS      -cpu MODEL (tigerlake; corei7_icelake_u; see `bochs --help cpu`),
#              -v (copy the guest console to stdout), -keep (keep ISO and logs),
#              -timeout 30m, -ips N, -megs N (gen/tools/bochstest -h)
#
# Examples:
#   bash scripts/bochs-test.sh ./ghash -- SIMDHASH_GHASH_KERNEL=vpclmul512
#   bash scripts/bochs-test.sh ./sha1 -test.run 'SumMany' -- GODEBUG=cpu.sha=off SIMDHASH_SHA1_MANY_KERNEL=avx512x16
#   SIMDHASH_BOCHS_CACHE=DIR ... (where the guest kernel is cached)
#
# Exits 0 when every run passed, 1 with the reason otherwise (boot failure,
# timeout, failed or crashed test, SIGILL, no PASS line), 2 on bad usage.
# The first run installs what is missing (scripts/bochs-deps.sh) and builds
# the guest kernel (scripts/bochs-kernel.sh, a few minutes, then cached).
set -euo pipefail
cd "$(dirname "$0")/.."

if (($# < 1)); then
	sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2
	exit 2
fi
GO=${GO:-go}
export GO

bash scripts/bochs-deps.sh
kernel=$(bash scripts/bochs-kernel.sh)

tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
"$GO" -C gen build -o "$tools/bochstest" ./tools/bochstest
GOOS=linux GOARCH=amd64 CGO_ENABLED=0 "$GO" -C gen build -o "$tools/init" ./tools/bochstest/guest
"$tools/bochstest" -kernel "$kernel" -init "$tools/init" "$@"
