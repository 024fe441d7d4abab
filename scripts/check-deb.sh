#!/usr/bin/env bash
# check-deb.sh DEB — a lab machine: install DEB alone (`apt-get install
# ./DEB`, which pulls its Depends and Recommends from the Debian mirror) into
# a fresh minimal Debian bookworm root (debootstrap --variant=minbase: no
# compiler, no cmake), then inside it run `stratbench list`, the default
# suite (`stratbench run --out=…`, short min_time) and `stratbench plot`.
# First, on the host: the binary is stripped, the package has a long
# Description, and lintian (Debian's) finds no error (its output is shown);
# a foreign-architecture package (package.sh --arch=…) gets only these.
# Root only (debootstrap, chroot, mounts).  The bare root is cached as a
# tarball (SB_DEB_CACHE, default build-pkg/bookworm-minbase.tar), and the
# packages apt downloads beside it (…-archives/): the first run
# debootstraps and downloads (1.5-4 min here), later ones reuse both.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case ${1:-} in
-h|--help) sed -n '2,10p' "$0"; exit 0 ;;
'') SB_DIE_RC=2 sb_die "usage: check-deb.sh STRATBENCH.deb" ;;
esac
deb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -r "$deb" ] || SB_DIE_RC=2 sb_die "no readable package '$1'"
[ "$(id -u)" -eq 0 ] || SB_DIE_RC=2 sb_die "needs root (debootstrap, chroot, mount)"
sb_need_pkgs debootstrap lintian file
# the names a checkout's default suite runs (scripts/run.sh's binary)
host_sb=
for b in "$SB_ROOT/build/stratbench" "$SB_ROOT/build-pkg/stratbench"; do
	[ -x "$b" ] && { host_sb=$b; break; }
done
[ -n "$host_sb" ] || SB_DIE_RC=2 sb_die "no checkout build to take the default suite's names from (scripts/test.sh builds build/)"
suite_names() { sed -n 's/^  \([a-z]*\/[^ ]*\)  (.*/\1/p' | sort; }
names=$(mktemp /tmp/sb-deb-names.XXXXXX)
"$host_sb" run --suite=default --dry-run --out=/root/D | suite_names >"$names"
[ -s "$names" ] || sb_die "$host_sb run --suite=default --dry-run listed no benchmark"

# the package as Debian's tools see it
x=$(mktemp -d /tmp/sb-deb-x.XXXXXX)
dpkg-deb -x "$deb" "$x"
bin_info=$(file -b "$x/usr/bin/stratbench")
rm -rf "$x"
case $bin_info in
*", stripped"*) ;;
*) sb_die "usr/bin/stratbench is not stripped: $bin_info" ;;
esac
[ "$(dpkg-deb -f "$deb" Description | wc -l)" -ge 3 ] || sb_die "the package has no long Description"
echo "check-deb.sh: lintian $(dpkg-query -W -f='${Version}' lintian):" >&2
lint=$(lintian --allow-root --tag-display-limit 0 "$deb" 2>&1) || true
[ -z "$lint" ] || printf '%s\n' "$lint" >&2
if grep -q '^E: ' <<<"$lint"; then
	sb_die "lintian: $(grep -c '^E: ' <<<"$lint") error(s)"
fi
echo "check-deb.sh: lintian: 0 errors, $(grep -c '^W: ' <<<"$lint" || true) warning(s)" >&2
# a foreign package (package.sh --arch=ppc64el|arm64) cannot run in a chroot
# here without binfmt: the host-side checks above are all it gets
arch=$(dpkg-deb -f "$deb" Architecture)
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
	echo "check-deb.sh: $arch package on a $(dpkg --print-architecture) machine: stripped, Description and lintian checked; not installed into a bookworm root (run it on $arch, or in scripts/lab.sh --shape=p9-2n for ppc64el)" >&2
	exit 0
fi
cache=${SB_DEB_CACHE:-$SB_ROOT/build-pkg/bookworm-minbase.tar}
root=$(mktemp -d /tmp/sb-deb-root.XXXXXX)
trap sb_fresh_root_done EXIT
start=$(date +%s)
sb_fresh_root "$root" "$cache"
echo "check-deb.sh: bare root ready after $(($(date +%s) - start)) s" >&2
cp "$deb" "$root/tmp/"
cp "$names" "$root/tmp/host-names" && rm -f "$names"

chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
	/bin/bash -euo pipefail -c '
no_tools() {
	for t in cc gcc c++ g++ cmake make; do
		if command -v $t >/dev/null; then echo "check-deb: $t is installed ($1)" >&2; exit 1; fi
	done
}
no_tools "in the bare root"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || { sleep 20; apt-get update -qq; }	# a mirror mid-sync
echo "check-deb: apt-get update done after $(($(date +%s) - '"$start"')) s"
apt-get install -y -qq /tmp/'"$(basename "$deb")"' >/tmp/apt.log 2>&1 || { tail -20 /tmp/apt.log; exit 1; }
no_tools "pulled in by the package"
echo "check-deb: installed with its dependencies after $(($(date +%s) - '"$start"')) s"
cd /root
stratbench --version
stratbench list >/dev/null
stratbench run --help >help.txt	# not piped into grep -q: under pipefail, its early exit is SIGPIPE (141)
grep -q -- "--out=DIR" help.txt
[ -s /usr/share/man/man1/stratbench.1.gz ]
man -w stratbench >/dev/null 2>&1 || ! command -v man >/dev/null
[ -s /usr/share/doc/stratbench/copyright ]
. /usr/share/bash-completion/completions/stratbench && complete -p stratbench >/dev/null
# the default suite, as a checkout runs it (same names), a quick one, compare, plot
stratbench run --suite=default --dry-run --out=/root/D | sed -n "s/^  \([a-z]*\/[^ ]*\)  (.*/\1/p" | sort >names
diff /tmp/host-names names >names.diff || { echo "check-deb: the default suite differs from a checkout'"'"'s:"; head names.diff; exit 1; }
echo "check-deb: the default suite: $(wc -l <names) benchmarks, the checkout'"'"'s names"
stratbench run --suite=default --out=D >run.log 2>&1 || { tail -20 run.log; exit 1; }
# the bound of the live tables (docs/console.md); the summary is not cut
! sed "/^Summary\$/,\$d" run.log | awk "length > 160" | grep . ||
	{ echo "check-deb: console lines over 160 characters before the summary" >&2; exit 1; }
stratbench run --suite=quick --out=D2 >run2.log 2>&1 || { tail -20 run2.log; exit 1; }
echo "check-deb: $(($(wc -l <D/results.csv) - 1)) result rows, $(($(wc -l <D/kernel/results.csv) - 1)) kernel"
for f in summary.txt summary.md suite.json index.html kernel/gbench.json; do [ -s D/$f ]; done
stratbench compare D D2 >compare.txt
grep -q "%Change" compare.txt
stratbench plot D
for f in window lock baseline shootdown; do ls D/plots/$f-throughput-*.png >/dev/null; done
[ -s D/index.html ]
# the installed README links its example figures and docs: all shipped
zcat /usr/share/doc/stratbench/README.md.gz >README.md
grep -qE "\]\(plots/examples/[^)]+\.png\)" README.md || { echo "check-deb: README shows no figure" >&2; exit 1; }
for l in $(grep -oE "\]\((plots|docs)/[^)#]+" README.md | sed "s/^](//"); do
	[ -s "/usr/share/doc/stratbench/$l" ] || { echo "check-deb: README links $l, not installed" >&2; exit 1; }
done
echo "check-deb: ok"
'
echo "check-deb.sh: ok after $(($(date +%s) - start)) s" >&2
