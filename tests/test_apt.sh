#!/usr/bin/env bash
# test_apt.sh — scripts/lib.sh's apt steps against stub apt-get and
# apt-cache on PATH (nothing is installed): sb_apt_update tries 3 times and
# then goes on with a warning; sb_multiarch_align, only with
# SB_CROSS_ALIGN=1, installs each Multi-Arch: same library apt could not
# resolve on both architectures at the foreign candidate version, and
# does nothing where there is no foreign package or no candidate.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/sb_apt.XXXXXX)
[ -n "${KEEP:-}" ] || trap "rm -rf $tmp" EXIT
. "$here/testlib.sh"

mkdir -p "$tmp/bin"
# apt-get: `update` fails $SB_STUB_UPDATE_FAILS times; `install -s`
# (simulate) fails with apt's unmet-dependency lines until both libraries
# are pinned; a real install is logged and succeeds
cat >"$tmp/bin/apt-get" <<'EOF'
#!/bin/bash
echo "apt-get $*" >>"$SB_STUB_LOG"
case " $* " in
*" update "*)
	n=$(grep -c '^apt-get update' "$SB_STUB_LOG")
	[ "$n" -gt "${SB_STUB_UPDATE_FAILS:-0}" ] && exit 0
	echo "E: Failed to fetch .../Packages.xz  File has unexpected size" >&2; exit 100 ;;
*" -s "*)
	case " $* " in *" linux-libc-dev:ppc64el="*" libssl3:ppc64el="*|*" libssl3:ppc64el="*" linux-libc-dev:ppc64el="*) exit 0 ;; esac
	echo "The following packages have unmet dependencies:"
	echo " libc6-dev:ppc64el : Depends: linux-libc-dev:ppc64el but it is not going to be installed"
	echo " libkrb5-3:ppc64el : Depends: libssl3:ppc64el (>= 3.0.0) but it is not going to be installed"
	echo "E: Unable to correct problems, you have held broken packages."
	exit 100 ;;
esac
exit 0
EOF
# apt-cache policy NAME:ARCH: a version table, newest first, as a host with
# bookworm-security for amd64 and arm64 but only bookworm for ppc64el has
cat >"$tmp/bin/apt-cache" <<'EOF'
#!/bin/bash
inst=
case $2 in
linux-libc-dev:amd64) vs="6.1.192-3 6.1.176-1" inst=6.1.187-1 ;;
linux-libc-dev:ppc64el) vs="6.1.176-1" ;;
libssl3:amd64) vs="3.0.22-1~deb12u2 3.0.20-1~deb12u2" inst=3.0.19-1~deb12u2 ;;
libssl3:arm64) vs="3.0.22-1~deb12u2 3.0.20-1~deb12u2 3.0.17-1~deb12u2" ;;
libssl3:ppc64el) vs="3.0.20-1~deb12u2 3.0.17-1~deb12u2" ;;
*) vs= ;;
esac
[ -n "${SB_STUB_NO_CANDIDATE:-}" ] && [ "${2#*:}" = ppc64el ] && vs=
printf '%s:\n  Installed: %s\n  Candidate: %s\n  Version table:\n' "$2" "${inst:-(none)}" "${vs%% *}"
for v in $vs; do
	printf '     %s 500\n        500 http://deb.debian.org/debian bookworm/main %s Packages\n' "$v" "${2#*:}"
done
[ -z "$inst" ] || printf ' *** %s 100\n        100 /var/lib/dpkg/status\n' "$inst"
EOF
# dpkg: the host is amd64; dpkg-query: libssl3 is also installed for
# $SB_STUB_OTHER when set
printf '#!/bin/bash\necho amd64\n' >"$tmp/bin/dpkg"
cat >"$tmp/bin/dpkg-query" <<'EOF'
#!/bin/bash
case "$*" in *"libssl3:*"*) echo amd64; [ -z "${SB_STUB_OTHER:-}" ] || echo "$SB_STUB_OTHER" ;; esac
EOF
chmod +x "$tmp/bin/apt-get" "$tmp/bin/apt-cache" "$tmp/bin/dpkg" "$tmp/bin/dpkg-query"
export PATH="$tmp/bin:$PATH" SB_STUB_LOG="$tmp/log"
want=(crossbuild-essential-ppc64el libhwloc-dev:ppc64el libjansson-dev:ppc64el)

# run FN ARGS...: FN from lib.sh in a fresh shell, 20 s sleeps made instant
run() {
	: >"$tmp/log"
	bash -c '. "$0/../scripts/lib.sh"; sleep() { :; }; "$@"' "$here" "$@" >"$tmp/out" 2>"$tmp/err"
}

# --- sb_apt_update
SB_STUB_UPDATE_FAILS=2 run sb_apt_update
check "update: a mirror mid-sync twice, the third try is taken" \
	bash -c "[ \$(grep -c '^apt-get update' '$tmp/log') -eq 3 ] && ! grep -q warning '$tmp/err'"
SB_STUB_UPDATE_FAILS=9 run sb_apt_update
rc=$?
check "update: 3 tries, then a warning, and the install goes on (rc=$rc)" \
	bash -c "[ $rc -eq 0 ] && [ \$(grep -c '^apt-get update' '$tmp/log') -eq 3 ] && grep -q 'warning: apt-get update failed 3 times' '$tmp/err'"

# --- sb_multiarch_align
SB_CROSS_ALIGN= run sb_multiarch_align "${want[@]}"
rc=$?
check "align: off without SB_CROSS_ALIGN=1: 1, apt not called (rc=$rc)" \
	bash -c "[ $rc -eq 1 ] && [ ! -s '$tmp/log' ]"
SB_CROSS_ALIGN=1 run sb_multiarch_align "${want[@]}"
rc=$?
install=$(grep -v -- ' -s ' "$tmp/log" | grep '^apt-get install')
check "align: one real install, exit 0 (rc=$rc)" \
	bash -c "[ $rc -eq 0 ] && [ \$(grep -v -- ' -s ' '$tmp/log' | grep -c '^apt-get install') -eq 1 ]"
# the newest version both can get: libssl3 at 3.0.20, not the host's 3.0.22
for pin in linux-libc-dev:amd64=6.1.176-1 linux-libc-dev:ppc64el=6.1.176-1 \
	libssl3:amd64=3.0.20-1~deb12u2 libssl3:ppc64el=3.0.20-1~deb12u2 libhwloc-dev:ppc64el \
	--allow-downgrades; do
	check "align: the install has $pin" grep -q -- " $pin\( \|$\)" <<<"$install"
done
check "align: no other version pinned" \
	bash -c "! grep -qE '6\\.1\\.192|3\\.0\\.22|:arm64=' <<<'$install'"
check "align: said in a warning naming the versions" \
	grep -q 'warning: SB_CROSS_ALIGN=1: .*linux-libc-dev:ppc64el=6.1.176-1' "$tmp/err"
# libssl3 on arm64 too (an earlier cross build): all three at one version
SB_CROSS_ALIGN=1 SB_STUB_OTHER=arm64 run sb_multiarch_align "${want[@]}"
install=$(grep -v -- ' -s ' "$tmp/log" | grep '^apt-get install')
check "align: a library also on arm64 is set there too, at 3.0.20" \
	grep -q ' libssl3:arm64=3.0.20-1~deb12u2 ' <<<"$install"
SB_CROSS_ALIGN=1 run sb_multiarch_align cmake make
rc=$?
check "align: no foreign package: 1, apt not called (rc=$rc)" \
	bash -c "[ $rc -eq 1 ] && [ ! -s '$tmp/log' ]"
# broken fixture: the foreign architecture has no candidate: nothing to pin,
# so no install is forced and the caller's error stands
SB_CROSS_ALIGN=1 SB_STUB_NO_CANDIDATE=1 run sb_multiarch_align "${want[@]}"
rc=$?
check "align: no candidate for ppc64el: 1, no install (rc=$rc)" \
	bash -c "[ $rc -eq 1 ] && ! grep -v -- ' -s ' '$tmp/log' | grep -q '^apt-get install'"

finish test_apt
