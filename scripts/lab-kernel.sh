# lab-kernel.sh — sourced by lab.sh: the guest kernel and the QEMU it boots
# under.  Debian's bookworm kernel comes through the host's apt (as before);
# bookworm-backports' kernel and QEMU through a private apt (its own sources
# list, state and cache under build-lab/apt), so the host's apt
# configuration and lists are never changed.  Needs $lab and $SB_ROOT.

# the backports mirror: SB_LAB_MIRROR overrides (a local mirror or snapshot)
lab_apt_dir=$SB_ROOT/build-lab/apt

# lab_apt CMD ARGS...: apt-get/apt-cache against the private configuration
lab_apt() {
	local tool=$1; shift
	"$tool" -q -o Dir::Etc::SourceList="$lab_apt_dir/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null -o Dir::State="$lab_apt_dir/state" \
		-o Dir::State::status="$lab_apt_dir/state/status" -o Dir::Cache="$lab_apt_dir/cache" \
		-o APT::Sandbox::User=root "$@"
}

# lab_apt_ready: the private lists, fetched once a day
lab_apt_ready() {
	local stamp=$lab_apt_dir/state/updated
	mkdir -p "$lab_apt_dir"/state/lists/partial "$lab_apt_dir"/cache/archives/partial
	[ -e "$lab_apt_dir/state/status" ] || : >"$lab_apt_dir/state/status"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${SB_LAB_MIRROR:-http://deb.debian.org/debian} bookworm-backports main" \
		>"$lab_apt_dir/sources.list"
	[ -n "$(find "$stamp" -mmin -1440 2>/dev/null)" ] && return 0
	echo "lab: apt-get update of bookworm-backports (private lists in $lab_apt_dir)" >&2
	sb_retry 2 lab_apt apt-get update >"$lab_apt_dir/update.log" 2>&1 ||
		sb_die "apt-get update of bookworm-backports failed twice ($lab_apt_dir/update.log)"
	touch "$stamp"
}

# lab_unpack_kernel PKG DIR APT...: vmlinuz-* and config-* of PKG into DIR
lab_unpack_kernel() {
	local pkg=$1 dir=$2 tmp; shift 2
	tmp=$(mktemp -d "$lab/kernel-dl.XXXXXX")
	echo "lab: fetching $pkg (kernel image and config only, into $dir)" >&2
	# as root apt drops to _apt, which cannot write here: download as root
	(cd "$tmp" && "$@" download -o APT::Sandbox::User=root "$pkg" >&2) ||
		{ rm -rf "$tmp"; sb_die "apt-get download $pkg failed"; }
	dpkg-deb --fsys-tarfile "$tmp"/*.deb | tar -x -C "$tmp" --wildcards './boot/vmlinuz-*' './boot/config-*' ||
		{ rm -rf "$tmp"; sb_die "cannot unpack the kernel image from $pkg"; }
	mkdir -p "$dir"
	mv "$tmp"/boot/vmlinuz-* "$tmp"/boot/config-* "$dir/"
	rm -rf "$tmp"
}

# lab_kernel bookworm|backports|PATH: prints the kernel image to boot
lab_kernel() {
	local k pkg dir
	case $1 in
	bookworm) dir=$lab/kernel ;;
	backports) dir=$lab/kernel-backports ;;
	*) echo "$1"; return ;;
	esac
	k=$(ls "$dir"/vmlinuz-* 2>/dev/null | tail -1 || true)
	if [ -n "$k" ]; then echo "$k"; return; fi
	if [ "$1" = backports ]; then
		lab_apt_ready
		pkg=$(sb_kernel_pkg linux-image-amd64 lab_apt)
		[ -n "$pkg" ] || sb_die "cannot find linux-image-amd64 in bookworm-backports (apt-cache depends)"
		lab_unpack_kernel "$pkg" "$dir" lab_apt apt-get
	else
		# empty with no lists: the update below
		pkg=$(sb_kernel_pkg linux-image-amd64)
		if [ -z "$pkg" ] && [ "$(id -u)" -eq 0 ]; then
			sb_apt_update
			pkg=$(sb_kernel_pkg linux-image-amd64)
		fi
		[ -n "$pkg" ] || sb_die "cannot find Debian's linux-image-*-amd64 package (apt-cache depends linux-image-amd64)"
		lab_unpack_kernel "$pkg" "$dir" apt-get -q
	fi
	ls "$dir"/vmlinuz-* | tail -1
}

# what tests/lab/init and the lab checks need built in (the init loads no
# modules): initramfs, devtmpfs, NUMA and page migration, the serial console,
# ptys (script(1)), perf events, CPU hotplug (50-cpu-offline)
lab_kernel_needs="X86_64 SMP NUMA BLK_DEV_INITRD DEVTMPFS PROC_FS SYSFS TMPFS SERIAL_8250_CONSOLE
	UNIX98_PTYS BINFMT_ELF BINFMT_SCRIPT MIGRATION PERF_EVENTS HOTPLUG_CPU"

# lab_kernel_config IMAGE: prints the .config that goes with IMAGE, if any
lab_kernel_config() {
	local img=$1 d c
	d=$(dirname "$img")
	case $(basename "$img") in
	vmlinuz-*) c=$d/config-$(basename "$img" | sed 's/^vmlinuz-//'); [ -f "$c" ] && { echo "$c"; return; } ;;
	esac
	# a kernel tree: arch/x86/boot/bzImage, .config three levels up
	for c in "$d/.config" "$d/../../../.config" "$d/config"; do
		[ -f "$c" ] && { readlink -f "$c"; return; }
	done
	# built in (CONFIG_IKCONFIG), when the tree's extractor is at hand
	c=$(dirname "$d")/../../scripts/extract-ikconfig
	if [ -x "$c" ] && "$c" "$img" >"$lab/ikconfig" 2>/dev/null && [ -s "$lab/ikconfig" ]; then
		echo "$lab/ikconfig"
	fi
}

# lab_kernel_check IMAGE: one line and exit 2 when IMAGE cannot run the lab
lab_kernel_check() {
	local img=$1 magic cfg o missing=
	magic=$(dd if="$img" bs=1 skip=514 count=4 2>/dev/null)
	[ "$magic" = HdrS ] || SB_DIE_RC=2 sb_die "--kernel '$img' is not an x86 kernel image (bzImage: no 'HdrS' boot header; a vmlinux ELF will not do)"
	cfg=$(lab_kernel_config "$img")
	if [ -z "$cfg" ]; then
		echo "lab: note: no .config found for $img: not checked for what the init needs ($lab_kernel_needs)" >&2
		return 0
	fi
	for o in $lab_kernel_needs; do
		grep -qx "CONFIG_$o=y" "$cfg" && continue
		if grep -qx "CONFIG_$o=m" "$cfg"; then missing="$missing CONFIG_$o=m"; else missing="$missing CONFIG_$o"; fi
	done
	[ -z "$missing" ] || SB_DIE_RC=2 sb_die "--kernel '$img' cannot run the lab: not built in:$missing ($cfg; the init loads no modules)"
}

# lab_qemu bookworm|backports: prints the qemu-system-x86_64 to run
lab_qemu() {
	local dir=$lab_apt_dir/qemu deb missing
	if [ "$1" = bookworm ]; then
		command -v qemu-system-x86_64 || sb_die "no qemu-system-x86_64 (apt-get install qemu-system-x86)"
		return
	fi
	if [ ! -x "$dir/usr/bin/qemu-system-x86_64" ]; then
		lab_apt_ready
		rm -rf "$dir" "$lab_apt_dir/qemu-dl" && mkdir -p "$lab_apt_dir/qemu-dl"
		echo "lab: fetching qemu-system-x86 and qemu-system-data from bookworm-backports (into $dir)" >&2
		(cd "$lab_apt_dir/qemu-dl" && lab_apt apt-get download qemu-system-x86 qemu-system-data >&2) ||
			sb_die "apt-get download qemu-system-x86 qemu-system-data (bookworm-backports) failed"
		for deb in "$lab_apt_dir"/qemu-dl/*.deb; do
			dpkg-deb -x "$deb" "$dir" || sb_die "cannot unpack $deb"
		done
	fi
	missing=$(ldd "$dir/usr/bin/qemu-system-x86_64" | awk '/not found/ { printf " %s", $1 }')
	[ -z "$missing" ] || sb_die "backports' QEMU needs shared libraries this host lacks:$missing"
	echo "$dir/usr/bin/qemu-system-x86_64"
}
