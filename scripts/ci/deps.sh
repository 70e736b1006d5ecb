#!/usr/bin/env bash
# Installs the system tools that `make test` needs and are missing:
#   qemu-user                   qemu-x86_64, qemu-aarch64, qemu-arm, qemu-riscv64, ... (emulated test runs)
#   binutils-aarch64-linux-gnu  aarch64-linux-gnu-as (the ghash encoding tests)
#   binutils-arm-linux-gnueabihf arm-linux-gnueabihf-as (the 32-bit arm encoding tests)
#   gcc                         cgo, for the race detector (make test-race)
# and downloads the Go modules and the newest Go release (NEWEST_GO, which
# make test-newest-go and the riscv64 runs use). Debian/Ubuntu only (apt-get, through
# scripts/ci/apt.sh). DEPS_FORCE=1 installs the packages even if the tools exist.
set -euo pipefail
cd "$(dirname "$0")/../.."

GO=${GO:-go}

if ! command -v "$GO" >/dev/null 2>&1; then
	echo "deps: '$GO' not found: install Go 1.26 (https://go.dev/dl/) and put it on PATH" >&2
	exit 1
fi
echo "deps: $("$GO" version)"

pkgs=()
need() { # need PACKAGE TOOL...: queue PACKAGE if any TOOL is missing
	local pkg=$1 tool
	shift
	for tool in "$@"; do
		if [[ ${DEPS_FORCE:-} == 1 ]] || ! command -v "$tool" >/dev/null 2>&1; then
			pkgs+=("$pkg")
			return
		fi
	done
}
need qemu-user qemu-x86_64 qemu-aarch64 qemu-arm qemu-riscv64
need binutils-aarch64-linux-gnu aarch64-linux-gnu-as
need binutils-arm-linux-gnueabihf arm-linux-gnueabihf-as arm-linux-gnueabihf-objdump
need gcc gcc

if ((${#pkgs[@]})); then
	# shellcheck source=scripts/ci/apt.sh
	source scripts/ci/apt.sh
	apt_install "${pkgs[@]}"
fi

for tool in qemu-x86_64 qemu-aarch64 qemu-arm qemu-riscv64 aarch64-linux-gnu-as arm-linux-gnueabihf-as gcc; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "deps: $tool is still missing after the install" >&2
		exit 1
	fi
done
echo "deps: $(qemu-x86_64 --version | head -n1)"
echo "deps: $(aarch64-linux-gnu-as --version | head -n1)"
echo "deps: $(arm-linux-gnueabihf-as --version | head -n1)"

# Fetch the modules now, so that a proxy failure shows up here and not as a
# confusing build error later.
"$GO" mod download
"$GO" -C gen mod download
echo "deps: $(GOTOOLCHAIN=${NEWEST_GO:-go1.27.3} "$GO" version) (GOTOOLCHAIN=${NEWEST_GO:-go1.27.3})"
echo "deps: ok"
