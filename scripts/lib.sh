# lib.sh — shared by the scripts: Debian dependencies, the build.
# Sourced, not run.

SB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SB_BUILD_PKGS="cmake make gcc g++ pkg-config git libbenchmark-dev libhwloc-dev libpfm4-dev libjansson-dev"

sb_die() { echo "$(basename "$0"): $*" >&2; exit "${SB_DIE_RC:-1}"; }

# sb_need_pkgs PKG...: install what is missing when root, else print the
# exact apt-get line and exit 2.
sb_need_pkgs() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "$(basename "$0"): missing Debian packages; run:" >&2
		echo "  sudo apt-get install -y ${missing[*]}" >&2
		exit 2
	fi
	echo "installing: ${missing[*]}" >&2
	if [ -z "${SB_APT_UPDATED:-}" ]; then
		DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || sb_die "apt-get update failed"
		SB_APT_UPDATED=1
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 ||
		sb_die "apt-get install ${missing[*]} failed"
}

# sb_need_cross ARCH: what a full cross build for Debian's ARCH (ppc64el,
# arm64) needs: dpkg's foreign architecture, the cross compilers, the
# harness's libraries for ARCH (multiarch), qemu-user for the man page.
sb_need_cross() {
	if ! dpkg --print-foreign-architectures | grep -qx "$1"; then
		[ "$(id -u)" -eq 0 ] ||
			sb_die "dpkg has no $1 architecture; run: sudo dpkg --add-architecture $1 && sudo apt-get update"
		dpkg --add-architecture "$1"
		SB_APT_UPDATED=
	fi
	sb_need_pkgs cmake make pkg-config dpkg-dev file qemu-user "crossbuild-essential-$1" \
		"libbenchmark-dev:$1" "libhwloc-dev:$1" "libpfm4-dev:$1" "libjansson-dev:$1"
}

# sb_build DIR [cmake args...]: configure (once) and build.
sb_build() {
	local dir=$1; shift
	mkdir -p "$dir" || sb_die "cannot create $dir"
	cmake -S "$SB_ROOT" -B "$dir" "$@" >"$dir/configure.log" 2>&1 ||
		{ cat "$dir/configure.log" >&2; sb_die "cmake configure failed ($dir)"; }
	cmake --build "$dir" -j"$(nproc)" ||
		sb_die "build failed ($dir)"
}
