#!/usr/bin/env bash
# Prints the path of the guest kernel (a bzImage) that scripts/bochs-test.sh
# boots under bochs, building it first if it is not cached yet.
#
#   scripts/bochs-kernel.sh            # path of the cached bzImage, built if missing
#   BOCHS_KERNEL_REBUILD=1 scripts/bochs-kernel.sh
#
# The kernel is Debian's linux-source package configured with `make
# allnoconfig` plus scripts/bochs/kernel.config: a few hundred kilobytes
# that bochs boots in well under a second of guest time, where Debian's
# generic linux-image spends billions of emulated instructions just
# decompressing itself (docs/verification.md). The build takes a few
# minutes on two cores, once: the result is cached under
# $SIMDHASH_BOCHS_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/simdhash-bochs),
# keyed by the source package's version and the configuration fragment.
# The build needs gcc, make, flex, bison, bc, libelf-dev and lz4
# (scripts/bochs-deps.sh installs them). Progress goes to stderr; stdout
# gets only the path.
set -euo pipefail
cd "$(dirname "$0")/.."

cache=${SIMDHASH_BOCHS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/simdhash-bochs}
fragment=scripts/bochs/kernel.config

tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n1 || true)
if [[ -z $tarball ]]; then
	echo "bochs-kernel: no /usr/src/linux-source-*.tar.xz: run scripts/bochs-deps.sh (installs linux-source)" >&2
	exit 1
fi
srcpkg=$(basename "$tarball" .tar.xz)
version=$(dpkg-query -W -f='${Version}' "$srcpkg" 2>/dev/null || stat -c %Y "$tarball")
key=$(printf '%s\n' "$srcpkg" "$version" | cat - "$fragment" | sha256sum | cut -c1-16)
out=$cache/kernel-$key
if [[ -s $out/bzImage && ${BOCHS_KERNEL_REBUILD:-} != 1 ]]; then
	echo "$out/bzImage"
	exit 0
fi

echo "bochs-kernel: building $srcpkg $version with $fragment into $out (a few minutes, once)" >&2
mkdir -p "$cache"
build=$(mktemp -d "$cache/build.XXXXXX")
trap 'rm -rf "$build"' EXIT
start=$SECONDS
tar -xf "$tarball" -C "$build"
src=$build/$srcpkg
log=$build/build.log
if ! make -C "$src" -s allnoconfig KCONFIG_ALLCONFIG="$PWD/$fragment" >"$log" 2>&1; then
	tail -n 30 "$log" >&2
	echo "bochs-kernel: make allnoconfig failed" >&2
	exit 1
fi
# Kconfig drops an option whose dependencies are unmet without a word:
# check that every line of the fragment made it into the configuration.
missing=()
while IFS= read -r line; do
	[[ $line == CONFIG_* ]] || continue
	grep -qx -- "$line" "$src/.config" || missing+=("$line")
done <"$fragment"
if ((${#missing[@]})); then
	echo "bochs-kernel: $fragment asks for options the configuration does not have:" >&2
	printf '  %s\n' "${missing[@]}" >&2
	exit 1
fi
if ! make -C "$src" -j"$(nproc)" bzImage >"$log" 2>&1; then
	tail -n 40 "$log" >&2
	echo "bochs-kernel: the kernel build failed (log above)" >&2
	exit 1
fi
rm -rf "$out"
mkdir -p "$out"
cp "$src/arch/x86/boot/bzImage" "$src/.config" "$out/"
echo "bochs-kernel: built $(stat -c %s "$out/bzImage") bytes in $((SECONDS - start)) s" >&2
echo "$out/bzImage"
