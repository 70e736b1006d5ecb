#!/usr/bin/env bash
# Installs what scripts/bochs-test.sh needs and is missing (Debian packages):
#   bochs bochs-term bochsbios vgabios   the emulator, its text-mode display
#                                        (the Debian build has no "nogui"), BIOSes
#   isolinux syslinux-common xorriso     the bootable ISO image
#   linux-source gcc make flex bison bc libelf-dev lz4
#                                        the guest kernel (scripts/bochs-kernel.sh)
# DEPS_FORCE=1 installs them all even if they seem to be there.
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=()
need() { # need PACKAGE PATH-OR-TOOL...: queue PACKAGE if any is missing
	local pkg=$1 x
	shift
	for x in "$@"; do
		if [[ ${DEPS_FORCE:-} == 1 ]] || { [[ $x == /* ]] && ! compgen -G "$x" >/dev/null; } ||
			{ [[ $x != /* ]] && ! command -v "$x" >/dev/null 2>&1; }; then
			pkgs+=("$pkg")
			return
		fi
	done
}
need bochs bochs-bin
need bochs-term '/usr/lib/*/bochs/plugins/libbx_term_gui.so'
need bochsbios /usr/share/bochs/BIOS-bochs-latest
need vgabios /usr/share/vgabios/vgabios.bin
need isolinux /usr/lib/ISOLINUX/isolinux.bin
need syslinux-common /usr/lib/syslinux/modules/bios/ldlinux.c32
need xorriso xorriso
need linux-source '/usr/src/linux-source-*.tar.xz'
need gcc gcc
need make make
need flex flex
need bison bison
need bc bc
need libelf-dev /usr/include/gelf.h
need lz4 lz4

if ((${#pkgs[@]})); then
	# shellcheck source=scripts/ci/apt.sh
	source scripts/ci/apt.sh
	apt_install "${pkgs[@]}"
fi
