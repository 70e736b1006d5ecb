#!/usr/bin/env bash
# Runs one package's tests for another CPU under qemu user-mode emulation.
#
#   scripts/ci/qemu-test.sh GOARCH CPU GODEBUG EXPECT PKG [TESTFLAG...]
#
#   GOARCH   amd64, arm64, arm, ... (GOOS is linux); GOARM, GOTOOLCHAIN etc. pass through
#   CPU      qemu -cpu model (core2duo, SandyBridge, qemu64, cortex-a53, ...), or "" for qemu's default,
#            or "native": no qemu, this machine's CPU (GOARCH must be the host's), for kernels
#            no qemu model runs (VPCLMULQDQ, SHA-NI) selected in turn with GODEBUG
#   GODEBUG  GODEBUG for the test binary (e.g. cpu.pmull=off), or ""
#   EXPECT   NAME=VALUE set for the run, e.g. SIMDHASH_SHA1_KERNEL=ssse3: the package's
#            TestDispatch then checks that Kernel() chose VALUE. This script also fails
#            unless TestDispatch ran and passed. Several, separated by spaces, are set
#            together; for SIMDHASH_SHA1_MANY_KERNEL (sha1.ManyKernel) and
#            SIMDHASH_SHA1DC_MANY_KERNEL (sha1dc.ManyKernel) the test that must pass
#            is TestManyDispatch. "" sets nothing and checks nothing.
#   PKG      ./sha1, ./sha1dc, ./ghash, ./internal/ref, ...
#   TESTFLAG extra test binary flags; the default is -test.short.
#
# The test binary is built with `go test -c`. When QEMU_TEST_DIR is set, the
# binary is kept there and reused by later runs for the same GOARCH and PKG
# (scripts/ci/test-emulated.sh builds each binary once that way); otherwise it
# goes into a temporary directory removed on exit. Tests run in the package's
# directory, as under go test. qemu's "TCG doesn't support requested feature"
# warnings are dropped. QEMU_TEST_BUILD_ONLY=1 builds the binary (if it is
# not there yet) and runs nothing. A 386 binary runs with GOMAXPROCS=1 and
# GODEBUG=asyncpreemptoff=1, without which qemu-i386 crashes it at random.
set -euo pipefail
cd "$(dirname "$0")/../.."

if (($# < 5)); then
	sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2
	exit 2
fi
goarch=$1 cpu=$2 godebug=$3 expect=$4 pkg=$5
shift 5
if [[ $goarch == 386 ]]; then
	# qemu-i386 7.2 crashes Go binaries at random ("bad g in signal
	# handler") unless they run on one thread (GOMAXPROCS=1, below) without
	# asynchronous preemption: 10 of 10 runs passed so, 0 of 10 without.
	godebug=asyncpreemptoff=1${godebug:+,$godebug}
fi
testflags=("$@")
((${#testflags[@]})) || testflags=(-test.short)

GO=${GO:-go}

case $goarch in
amd64) qemu="qemu-x86_64" ;;
386) qemu="qemu-i386" ;;
arm64) qemu="qemu-aarch64" ;;
arm) qemu="qemu-arm" ;;
ppc64le) qemu="qemu-ppc64le" ;;
loong64) qemu="qemu-loongarch64" ;;
*) qemu="qemu-$goarch" ;;
esac
if [[ $cpu == native ]]; then
	if [[ $goarch != "$("$GO" env GOHOSTARCH)" ]]; then
		echo "qemu-test: CPU native needs GOARCH $("$GO" env GOHOSTARCH), not $goarch" >&2
		exit 2
	fi
else
	command -v "$qemu" >/dev/null 2>&1 || {
		echo "qemu-test: $qemu not found: run 'make deps' (installs qemu-user)" >&2
		exit 1
	}
fi
read -r -a expects <<<"$expect"
for e in "${expects[@]}"; do
	if [[ $e != *=* ]]; then
		echo "qemu-test: EXPECT must be NAME=VALUE (several separated by spaces) or empty, not '$expect'" >&2
		exit 2
	fi
done

qemu_cmd=("$qemu")
[[ -n $cpu ]] && qemu_cmd+=(-cpu "$cpu")
label="$goarch $pkg: ${qemu_cmd[*]}${godebug:+ GODEBUG=$godebug}${expect:+ $expect}"
if [[ $cpu == native ]]; then
	qemu_cmd=()
	label="$goarch $pkg: native${godebug:+ GODEBUG=$godebug}${expect:+ $expect}"
fi
[[ -n ${GOTOOLCHAIN:-} ]] && label+=" (built by $GOTOOLCHAIN)"

if [[ -n ${QEMU_TEST_DIR:-} ]]; then
	dir=$QEMU_TEST_DIR
else
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi
pkgdir=$("$GO" list -f '{{.Dir}}' "$pkg")
name=$("$GO" list -f '{{.ImportPath}}' "$pkg")
bin=$dir/$goarch/${name//\//_}.test
log=$dir/$goarch/${name//\//_}.$$.log
mkdir -p "$dir/$goarch"

if [[ ! -x $bin ]]; then
	echo "qemu-test: GOOS=linux GOARCH=$goarch $GO test -c -o $bin $pkg"
	if ! GOOS=linux GOARCH=$goarch CGO_ENABLED=0 "$GO" test -c -o "$bin" "$pkg"; then
		echo "FAIL $label: the test binary did not build (see above)" >&2
		exit 1
	fi
	if [[ ! -x $bin ]]; then
		echo "FAIL $label: go test -c wrote no binary: $pkg has no tests" >&2
		exit 1
	fi
fi
[[ ${QEMU_TEST_BUILD_ONLY:-} == 1 ]] && exit 0

# A clean environment for what the tests read: only what this run asks for.
envs=(-u GODEBUG -u SIMDHASH_SHA1_KERNEL -u SIMDHASH_SHA1_MANY_KERNEL -u SIMDHASH_SHA1DC_KERNEL -u SIMDHASH_SHA1DC_MANY_KERNEL -u SIMDHASH_GHASH_KERNEL)
[[ $goarch == 386 ]] && envs+=(GOMAXPROCS=1)
[[ -n $godebug ]] && envs+=(GODEBUG="$godebug")
envs+=("${expects[@]}")

start=$SECONDS
rc=0
(cd "$pkgdir" && env "${envs[@]}" ${qemu_cmd[@]+"${qemu_cmd[@]}"} "$bin" -test.v -test.timeout 10m "${testflags[@]}") \
	>"$log" 2>&1 || rc=$?
grep -v "TCG doesn't support requested feature" "$log" >"$log.f" || true
mv "$log.f" "$log"
secs=$((SECONDS - start))

passed=$(grep -c -E '^ *--- PASS' "$log" || true)
skipped=$(grep -c -E '^ *--- SKIP' "$log" || true)
failed=$(grep -c -E '^ *--- FAIL' "$log" || true)

fail() {
	# The verbose log less the passing and skipping lines; for a crash, its
	# first lines and the failing goroutine rather than every goroutine.
	local quiet='^ *(=== (RUN|PAUSE|CONT|NAME)|--- (PASS|SKIP))'
	local crash
	crash=$(grep -n -m1 -E '^(panic: |fatal error: |SIG[A-Z]+: )' "$log" | cut -d: -f1 || true)
	if [[ -n $crash ]]; then
		head -n $((crash - 1)) "$log" | grep -v -E "$quiet" | tail -n 60 >&2
		tail -n +"$crash" "$log" | awk 'NR > 1 && /^goroutine / { g++ } g < 2' | head -n 80 >&2
	else
		grep -v -E "$quiet" "$log" | tail -n 300 >&2
	fi
	echo "FAIL $label: $*" >&2
	rm -f "$log"
	exit 1
}
if ((rc != 0)); then
	why="exit status $rc"
	if grep -q 'SIGILL' "$log"; then
		why+="; SIGILL: code used an instruction that -cpu ${cpu:-default} lacks (a dispatch flag that does not test every extension the kernel uses?)"
	fi
	fail "$why ($failed failed, $passed passed)"
fi
for e in "${expects[@]}"; do
	test=TestDispatch
	[[ ${e%%=*} == SIMDHASH_SHA1_MANY_KERNEL || ${e%%=*} == SIMDHASH_SHA1DC_MANY_KERNEL ]] && test=TestManyDispatch
	if ! grep -q -E "^--- PASS: $test " "$log"; then
		fail "$test did not run and pass, so the kernel chosen under $e was not checked"
	fi
done
if ((passed == 0)); then
	fail "no test ran"
fi
# What was skipped says what the CPU model lacks: count the skipped
# subtests by their last name element (the kernel), e.g. "avx x11".
skips=$(grep -E '^ *--- SKIP: ' "$log" | sed -E 's/^ *--- SKIP: ([^ ]*).*/\1/; s#.*/##' |
	sort | uniq -c | sort -k2 | awk '{ printf "%s%s x%d", sep, $2, $1; sep = ", " }' || true)
rm -f "$log"
echo "ok   $label ($passed passed, $skipped skipped${skips:+: $skips}; ${secs}s)"
