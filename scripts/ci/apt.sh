# Sourced by scripts/ci/deps.sh and scripts/bochs-deps.sh: apt_install
# PACKAGE... installs Debian packages, with sudo only when not root (and
# `sudo -n`, which fails instead of prompting, when there is no terminal, as
# in CI). Debian/Ubuntu only.
apt_install() {
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "deps: no apt-get here: install $* (or their equivalents) by hand" >&2
		return 1
	fi
	local sudo=()
	if [[ $(id -u) != 0 ]]; then
		if ! command -v sudo >/dev/null 2>&1; then
			echo "deps: not root and no sudo: run 'apt-get install $*' as root" >&2
			return 1
		fi
		sudo=(sudo -n)
		[[ -t 0 ]] && sudo=(sudo)
	fi
	echo "deps: installing $*"
	export DEBIAN_FRONTEND=noninteractive
	"${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq
	"${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 \
		install -y -qq --no-install-recommends "$@" </dev/null
}
