# lab-ppc64.sh — the POWER9 lab shape of scripts/lab.sh (--shape=p9-2n),
# sourced by it after option parsing: lab_ppc64 boots qemu-system-ppc64
# -M pseries -cpu power9 (TCG) with 4 CPUs over 2 NUMA nodes, Debian's
# ppc64el kernel, and an initramfs of the ppc64el cross build (stratbench,
# the tests), their shared libraries, ppc64el busybox and bash.  The lab's
# init and test set (tests/lab/) are the x86 ones; what differs here: the
# console is hvc0 and the status port hvc1 (two spapr-vty), every program is
# ppc64el (no host tools: no ctest, no gnuplot in the guest), and the files
# the guest leaves in /lab/out come back over the status port (the host
# plots them).  Under TCG pseries has no SMT (QEMU refuses threads>1 without
# KVM's cap): SMT8 plans are checked on the synthetic topologies
# (stratbench topo --synthetic), as on x86.
# Not run on its own.  Uses lab.sh's shape, timeout, mem, tcg, keys, append,
# cmd, and lib.sh.

# the ppc64el Debian packages of the guest, downloaded (never installed) with
# the host's apt lists (dpkg must know ppc64el: the cross build needs it too)
lab_ppc64_debs() {
	local dir=$1 p pkg
	shift
	mkdir -p "$dir"
	for p in "$@"; do
		ls "$dir/${p}"_*_ppc64el.deb >/dev/null 2>&1 && continue
		echo "lab: fetching $p:ppc64el (into $dir)" >&2
		# as root apt drops to _apt, which cannot write here: download as root
		(cd "$dir" && apt-get download -q -o APT::Sandbox::User=root "$p:ppc64el" >&2) ||
			sb_die "apt-get download $p:ppc64el failed"
	done
}

# lab_ppc64_unpack DEB ROOT: DEB's files into the (merged-/usr) image
lab_ppc64_unpack() {
	local t d
	t=$(mktemp -d "$lab/unpack.XXXXXX")
	dpkg-deb -x "$1" "$t" || { rm -rf "$t"; sb_die "cannot unpack $1"; }
	for d in bin sbin lib lib64; do
		[ -d "$t/$d" ] || continue
		mkdir -p "$2/usr/$d" && cp -a "$t/$d/." "$2/usr/$d/" && rm -rf "${t:?}/$d"
	done
	cp -a "$t/." "$2/"
	rm -rf "$t"
}

# lab_ppc64_libs ELF: the shared libraries ELF needs (NEEDED, recursively),
# from the multiarch directories into the image; the loader too
lab_ppc64_libs() {
	local f=$1 lib p d
	head -c4 "$f" | grep -q ELF || return 0
	for lib in $(powerpc64le-linux-gnu-readelf -d "$f" 2>/dev/null |
		sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		[ -e "$root/usr/lib/powerpc64le-linux-gnu/$lib" ] && continue
		p=
		for d in /lib/powerpc64le-linux-gnu /usr/lib/powerpc64le-linux-gnu; do
			[ -e "$d/$lib" ] && { p=$d/$lib; break; }
		done
		[ -n "$p" ] || sb_die "$f needs $lib: not in the ppc64el multiarch directories"
		cp -L "$p" "$root/usr/lib/powerpc64le-linux-gnu/$lib"
		lab_ppc64_libs "$p"
	done
}

lab_ppc64() {
	local tri=powerpc64le-linux-gnu kpkg vmlinux debs f
	sb_need_pkgs qemu-system-ppc cpio
	# the ppc64el cross build, RelWithDebInfo as the x86 lab's
	sb_need_cross ppc64el
	build=$SB_ROOT/build-lab-ppc64el
	mkdir -p "$build"
	sb_build "$build" -DCMAKE_TOOLCHAIN_FILE="$SB_ROOT/cmake/ppc64le.cmake" \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo >"$build/lab-build.log" 2>&1 ||
		{ tail -30 "$build/lab-build.log" >&2; sb_die "ppc64el build failed ($build/lab-build.log)"; }
	lab=$build/lab
	mkdir -p "$lab"

	# --- the guest kernel: Debian's linux-image-*-powerpc64le, its vmlinux --
	debs=$lab/debs
	vmlinux=$(ls "$lab"/kernel/vmlinux-* 2>/dev/null | tail -1 || true)
	if [ -z "$vmlinux" ]; then
		kpkg=$(sb_kernel_pkg linux-image-powerpc64le:ppc64el)	# empty without ppc64el lists
		[ -n "$kpkg" ] || sb_die "cannot find Debian's linux-image-*-powerpc64le (apt-cache depends linux-image-powerpc64le:ppc64el)"
		lab_ppc64_debs "$debs" "$kpkg"
		mkdir -p "$lab/kernel"
		dpkg-deb --fsys-tarfile "$debs/${kpkg}"_*_ppc64el.deb |
			tar -x -C "$lab/kernel" --strip-components=2 --wildcards './boot/vmlinux-*' ||
			sb_die "cannot unpack the kernel image from $kpkg"
		vmlinux=$(ls "$lab"/kernel/vmlinux-* | tail -1)
	fi

	# --- the initramfs ---------------------------------------------------
	root=$lab/root-$shape
	rm -rf "$root" && mkdir -p "$root"/{proc,sys,dev,run,root,lab/out,etc,usr/bin,usr/lib/$tri} &&
		install -d -m 1777 "$root/tmp"
	for d in bin sbin lib lib64; do ln -s "usr/$d" "$root/$d"; done
	mkdir -p "$root/usr/sbin" "$root/usr/lib64"
	# busybox for the tools, bash for the lab scripts (busybox has no bash)
	lab_ppc64_debs "$debs" busybox-static bash libtinfo6
	for f in busybox-static bash libtinfo6; do lab_ppc64_unpack "$debs/${f}"_*_ppc64el.deb "$root"; done
	for a in $(qemu-ppc64le "$root/usr/bin/busybox" --list); do
		[ -e "$root/usr/bin/$a" ] || ln -s busybox "$root/usr/bin/$a"
	done
	# the loader at the path the binaries name (PT_INTERP)
	cp -L /lib64/ld64.so.2 "$root/usr/lib64/ld64.so.2"
	lab_ppc64_libs "$root/usr/bin/bash"

	mkdir -p "$root$SB_ROOT"
	tar -C "$SB_ROOT" --exclude='./build*' --exclude=./.git --exclude=./results -cf - . |
		tar -C "$root$SB_ROOT" -xf -
	mkdir -p "$root$build"
	tar -C "$build" --exclude=./lab --exclude='*.o' --exclude=./_CPack_Packages --exclude='*.deb' \
		-cf - . | tar -C "$root$build" -xf -
	while read -r f; do lab_ppc64_libs "$build/${f#./}"; done < <(cd "$build" &&
		find . -path ./lab -prune -o -type f -perm -u+x -print)
	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$root/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"

	install -m 755 "$SB_ROOT/tests/lab/init" "$root/init"
	{
		printf 'SB_ROOT=%q\nSB_BUILD=%q\n' "$SB_ROOT" "$build"
		# pseries under TCG: one thread per core, so 4 cores; QEMU makes each
		# socket a package only if the device tree says so (checked in 10-topology)
		printf 'SB_LAB_SHAPE=%q\nSB_LAB_PACKAGES=2\nSB_LAB_NODES=2\nSB_LAB_CORES=4\nSB_LAB_PUS=4\n' "$shape"
		printf 'SB_LAB_STATIC_KEYS=%s\nSB_LAB_STATUS_TTY=hvc1\n' "$keys"
		echo "export SB_ROOT SB_BUILD SB_LAB_SHAPE SB_LAB_PACKAGES SB_LAB_NODES SB_LAB_CORES SB_LAB_PUS SB_LAB_STATIC_KEYS SB_LAB_STATUS_TTY"
	} >"$root/lab/env"
	if [ ${#cmd[@]} -eq 0 ]; then
		# the lab checks that apply here (05-static-keys' flip rate is x86
		# TCG's; 50-cpu-offline untried; 90-regular-suite needs ctest)
		echo "exec bash tests/lab/run.sh topology home-node kernel driver locks-home-isa families-short" \
			>"$root/lab/cmd"
	elif [ ${#cmd[@]} -eq 1 ]; then
		printf '%s\n' "${cmd[0]}" >"$root/lab/cmd"
	else
		printf 'exec' >"$root/lab/cmd"; printf ' %q' "${cmd[@]}" >>"$root/lab/cmd"; echo >>"$root/lab/cmd"
	fi
	cpio=$lab/initramfs-$shape.cpio
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$cpio" || sb_die "cannot pack $cpio"

	# --- boot: console on hvc0 (streamed here), status lines on hvc1 -----
	local log=$lab/console-$shape.log status=$lab/status-$shape numa=() n t0 t1 qrc wall boot exitl why panic rc end out
	rm -f "$log" "$status"
	# pseries wants each node's memory in whole 256 MB blocks
	if [ $((mem % 256)) -ne 0 ]; then
		mem=$(( (mem + 255) / 256 * 256 ))
		echo "lab: $shape: --mem rounded up to ${mem} MB per node (pseries: 256 MB blocks)" >&2
	fi
	# pseries places CPUs by core (its CPU slots have no socket-id)
	for n in 0 1; do
		numa+=(-object "memory-backend-ram,id=m$n,size=${mem}M" -numa "node,nodeid=$n,memdev=m$n"
			-numa "cpu,node-id=$n,core-id=$((2 * n))" -numa "cpu,node-id=$n,core-id=$((2 * n + 1))")
	done
	echo "lab: $shape: 4 POWER9 CPUs (2 sockets x 2 cores, no SMT under TCG), 2 NUMA nodes x ${mem} MB, $(basename "$vmlinux"), initramfs $(( $(stat -c %s "$cpio") >> 20 )) MB, timeout ${timeout}s" >&2
	t0=$(date +%s.%N)
	set +e
	# x-vof: QEMU's own small firmware instead of SLOF (boots the kernel
	# directly, seconds faster); the cap-* are the Spectre mitigations TCG
	# cannot provide (else QEMU warns on every boot)
	timeout -k 10 "$timeout" qemu-system-ppc64 -accel tcg,thread="$tcg" \
		-M pseries,x-vof=on,cap-cfpc=broken,cap-sbbc=broken,cap-ibs=broken,cap-ccf-assist=off \
		-cpu power9 -smp 4,sockets=2,cores=2,threads=1 \
		-m $((2 * mem))M "${numa[@]}" -kernel "$vmlinux" -initrd "$cpio" \
		-append "console=hvc0 quiet panic=-1 oops=panic${append:+ $append}" \
		-display none -monitor none -nodefaults -no-reboot \
		-chardev stdio,id=con,signal=off -device spapr-vty,chardev=con \
		-chardev "file,id=st,path=$status" -device spapr-vty,chardev=st \
		</dev/null 2>"$lab/qemu-$shape.err" | sed -u 's/\r$//' | tee "$log"
	qrc=${PIPESTATUS[0]}
	set -e
	t1=$(date +%s.%N)
	wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	boot=$(awk '$1 == "SB-LAB-BOOT" { print $2 }' "$status" 2>/dev/null | tr -d '\r')
	exitl=$(awk '$1 == "SB-LAB-EXIT" { print $2, $3 }' "$status" 2>/dev/null | tr -d '\r')
	# the guest's /lab/out, base64 between two marker lines
	out=$lab/out-$shape
	rm -rf "$out"
	if grep -q '^SB-LAB-FILES-BEGIN' "$status" 2>/dev/null; then
		mkdir -p "$out"
		tr -d '\r' <"$status" | sed -n '/^SB-LAB-FILES-BEGIN/,/^SB-LAB-FILES-END/{/^SB-LAB-FILES/d;p}' |
			base64 -d | tar -C "$out" -xzf - && echo "lab: $shape: the guest's /lab/out is in $out" >&2
	fi

	if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
		echo "lab: $shape: FAILED: the guest did not finish within ${timeout}s (hung?); console log $log" >&2
		exit 1
	fi
	if [ -z "$exitl" ]; then
		why="init failed or the guest powered off"
		panic=$(grep -a -m1 'Kernel panic' "$log" | sed 's/^\[[ 0-9.]*\] //' || true)
		[ -z "$panic" ] || why=$panic
		echo "lab: $shape: FAILED: the guest stopped without reporting an exit status ($why); qemu exit $qrc; last console lines:" >&2
		tail -15 "$log" | sed 's/^/  | /' >&2
		[ -s "$lab/qemu-$shape.err" ] && sed 's/^/  qemu: /' "$lab/qemu-$shape.err" >&2
		exit 1
	fi
	read -r rc end <<<"$exitl"
	echo "lab: $shape: exit $rc; boot ${boot:-?}s to init, command $(awk -v a="${boot:-0}" -v b="$end" 'BEGIN { printf "%.1f", b - a }')s, wall ${wall}s (host); console log $log" >&2
	exit "$rc"
}
