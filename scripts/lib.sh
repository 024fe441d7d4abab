# lib.sh — shared by the scripts: Debian dependencies, the build.
# Sourced, not run.

SB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SB_BUILD_PKGS="cmake make gcc g++ pkg-config git libbenchmark-dev libhwloc-dev libpfm4-dev libjansson-dev"
# what the tests call besides the build: gnuplot (figures), chromium (the
# HTML page, headless), man (the installed man page)
SB_TEST_PKGS="gnuplot-nox chromium man-db"

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
		sb_apt_update
		SB_APT_UPDATED=1
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 ||
		sb_multiarch_align "${missing[@]}" ||
		sb_die "apt-get install ${missing[*]} failed"
}

# sb_multiarch_align PKG...: only with SB_CROSS_ALIGN=1 (.ci/run, on a
# machine thrown away after): the last try of an install of foreign
# packages (NAME:ARCH) that apt could not resolve.  A Multi-Arch: same
# library must have one version on every architecture, and when the
# mirror's list for ARCH lags (bookworm-security's ppc64el list once did
# not match its InRelease) the host's copy is at a version ARCH cannot
# get.  Each such library is then installed on the host, on ARCH and on
# any other architecture that has it, at the newest version all of them
# can get: a downgrade on the host, and apt may remove -dev packages bound
# to the old one.  Said in a warning; 1 where it does not apply.
sb_multiarch_align() {
	local arch pins=() out y v try more ok=0
	[ "${SB_CROSS_ALIGN:-}" = 1 ] || return 1
	arch=$(printf '%s\n' "$@" | sed -n 's/^[^:]*:\([a-z0-9]*\)$/\1/p' | head -1)
	[ -n "$arch" ] || return 1
	for try in 1 2 3 4; do
		if out=$(LC_ALL=C apt-get install -s --no-install-recommends --allow-downgrades "$@" \
			"${pins[@]}" 2>&1); then
			ok=1
			break
		fi
		# "X:ARCH : Depends: Y:ARCH (>= 3) but it is not going to be installed";
		# a library found one level deeper each try
		more=0
		for y in $(echo "$out" | sed -n "s/.*Depends: \([^ :]*\):$arch.* but it is not going to be installed.*/\1/p" |
			sort -u); do
			case " ${pins[*]} " in *" $y:$arch="*) continue ;; esac
			v=$(sb_common_version "$y" "$arch") || continue
			pins+=($(sb_arches_of "$y" "$arch" | sed "s/.*/$y:&=$v/"))
			more=1
		done
		[ "$more" -eq 1 ] || return 1	# nothing (more) to align: the error stands
	done
	# only what apt's dry run took, and only if something was aligned
	[ "$ok" -eq 1 ] && [ ${#pins[@]} -gt 0 ] || return 1
	echo "$(basename "$0"): warning: SB_CROSS_ALIGN=1: libraries set to a version every architecture has: ${pins[*]}" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends --allow-downgrades \
		"$@" "${pins[@]}" >&2
}

# sb_arches_of PKG ARCH: ARCH and every architecture PKG is installed for
# (the host's, an earlier cross build's), a line each
sb_arches_of() {
	{ echo "$2"
	  dpkg-query -W -f='${Architecture} ${db:Status-Status}\n' "$1:*" 2>/dev/null |
		awk '$2 == "installed" { print $1 }' || true; } | awk '!seen[$0]++'
}

# sb_common_version PKG ARCH: the newest version of PKG (in ARCH's version
# table, which apt-cache policy lists newest first) that apt can get for
# every architecture sb_arches_of names; fails where there is none
sb_common_version() {
	local a arches
	sb_versions() {
		apt-cache policy "$1" | awk '/Version table:/ { t = 1; next }
			t && $NF ~ /^[0-9]+$/ { print ($1 == "***") ? $2 : $1 }'
	}
	arches=$(sb_arches_of "$1" "$2")
	for a in $arches; do
		sb_versions "$1:$a" | awk '!seen[$0]++'
	done | awk -v n="$(echo "$arches" | wc -l)" 'NR == FNR { c[$0]++; next }
		c[$0] == n { print; exit }' - <(sb_versions "$1:$2") | grep .
}

# sb_retry N CMD...: CMD up to N times, 20 s apart, saying each retry;
# CMD's last status.  For apt-get update: a mirror caught in a sync ("File
# has unexpected size ... Mirror sync in progress?") is usually whole again
# in a minute.
sb_retry() {
	local n=$1 try
	shift
	for ((try = 1; ; try++)); do
		"$@" && return 0
		[ "$try" -lt "$n" ] || return 1
		echo "$(basename "$0"): $* failed (try $try of $n); again in 20 s" >&2
		sleep 20
	done
}

# sb_apt_update: apt-get update, tried 3 times.  If it still fails, apt
# keeps the lists it did get (and the old ones of the rest), so the install
# goes on with a warning: it fails by itself, naming the package, if what
# it needs is not there.
sb_apt_update() {
	DEBIAN_FRONTEND=noninteractive sb_retry 3 apt-get update -qq >&2 ||
		echo "$(basename "$0"): warning: apt-get update failed 3 times (above); installing from the package lists apt has" >&2
}

# sb_kernel_pkg META [PREFIX...]: the linux-image-N-FLAVOUR package Debian's
# kernel metapackage META depends on (its :ARCH cut), through PREFIX (a
# private apt) if given; empty if apt has no such list (apt-cache then
# exits 100, which pipefail must not turn into a silent exit: the caller's
# error names the package).
sb_kernel_pkg() {
	local meta=$1
	shift
	"$@" apt-cache depends "$meta" 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { sub(/:[a-z0-9]+$/, "", $2); print $2; exit }' ||
		true
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

# sb_fresh_root ROOT CACHE: a new minimal Debian bookworm root in the empty
# directory ROOT, as a machine where nothing was installed: debootstrap
# --variant=minbase once, cached as the tarball CACHE; the host's apt
# mirrors and resolv.conf; dpkg without fsync (a throwaway root: a third
# of the time here); /proc, /sys, /dev bound; apt's downloads kept in
# CACHE's -archives/ for the next root.  Root only.  sb_fresh_root_done
# (set it as the EXIT trap) unmounts and removes ROOT.
SB_FRESH_ROOT= SB_FRESH_MOUNTS=()
sb_fresh_root() {
	local root=$1 cache=$2 mirror archives m
	SB_FRESH_ROOT=$root
	chmod 755 "$root"	# apt's _apt user reads the lists under it
	if [ ! -s "$cache" ]; then
		mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
		mkdir -p "$(dirname "$cache")"
		echo "$(basename "$0"): debootstrap --variant=minbase bookworm (cached in $cache)" >&2
		debootstrap --variant=minbase bookworm "$root" "${mirror:-http://deb.debian.org/debian}" \
			>"$cache.log" 2>&1 ||
			{ tail -20 "$cache.log" >&2; sb_die "debootstrap failed (log: $cache.log)"; }
		tar -C "$root" -cf "$cache.tmp" . && mv "$cache.tmp" "$cache"
	else
		tar -C "$root" -xf "$cache"
		chmod 755 "$root"
	fi
	if [ -r /etc/apt/sources.list.d/debian.sources ]; then
		cp /etc/apt/sources.list.d/debian.sources "$root/etc/apt/sources.list.d/"
		rm -f "$root/etc/apt/sources.list"
	fi
	cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
	echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/sb-unsafe-io"
	for m in proc sys dev; do
		mount --rbind "/$m" "$root/$m"
		SB_FRESH_MOUNTS+=("$root/$m")
		mount --make-rslave "$root/$m"
	done
	archives=${cache%.tar}-archives
	mkdir -p "$archives/partial"
	mount --bind "$archives" "$root/var/cache/apt/archives"
	SB_FRESH_MOUNTS+=("$root/var/cache/apt/archives")
}

sb_fresh_root_done() {
	local i root=$SB_FRESH_ROOT
	[ -n "$root" ] || return 0
	for ((i = ${#SB_FRESH_MOUNTS[@]} - 1; i >= 0; i--)); do
		umount -R "${SB_FRESH_MOUNTS[i]}" 2>/dev/null || umount -lR "${SB_FRESH_MOUNTS[i]}" 2>/dev/null || true
	done
	# never rm -rf through a mount that is still there (the host's /dev)
	if grep -qF " $root/" /proc/mounts; then
		echo "$(basename "$0"): $root still has mounts; left in place" >&2
	else
		rm -rf "$root"
	fi
}
