#!/usr/bin/env bash
# check-fresh.sh [TEST.SH ARGS...] — the README's test command on a machine
# where nothing was installed: a fresh minimal Debian bookworm root
# (debootstrap --variant=minbase, cached as check-deb.sh caches it), a
# clone of this checkout's HEAD in it, then `bash scripts/test.sh` inside,
# as root, with an empty environment.  Fails unless the root first lacks
# the tools the tests call, and test.sh then installs them, builds, and
# passes with ctest running every test (a skipped test is listed, with the
# reason it printed).  Root only (debootstrap, chroot, mounts).
# Environment: SB_DEB_CACHE (default build-pkg/bookworm-minbase.tar).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case ${1:-} in
-h|--help) sed -n '2,10p' "$0"; exit 0 ;;
esac
[ "$(id -u)" -eq 0 ] || SB_DIE_RC=2 sb_die "needs root (debootstrap, chroot, mount)"
sb_need_pkgs debootstrap git
cache=${SB_DEB_CACHE:-$SB_ROOT/build-pkg/bookworm-minbase.tar}
root=$(mktemp -d /tmp/sb-fresh-root.XXXXXX)
trap sb_fresh_root_done EXIT
start=$(date +%s)
sb_fresh_root "$root" "$cache"
git clone -q "$SB_ROOT" "$root/project"
echo "check-fresh.sh: bare root and clone of $(git -C "$root/project" rev-parse --short HEAD)" \
	"ready after $(($(date +%s) - start)) s" >&2

log=$root/test.log
rc=0
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
	/bin/bash -uo pipefail -c '
for t in cc cmake gnuplot chromium man; do
	if command -v $t >/dev/null; then echo "check-fresh: $t is in the bare root" >&2; exit 3; fi
done
cd /project && bash scripts/test.sh "$@"' check-fresh "$@" 2>&1 | tee "$log" || rc=$?
[ "$rc" -ne 3 ] || sb_die "the bare root already has a tool the tests need: not a fresh machine"
[ "$rc" -eq 0 ] || sb_die "scripts/test.sh failed in the fresh root (rc $rc; its output above)"
# ctest's closing line: every test passed, none not run
summary=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -1)
[ -n "$summary" ] || sb_die "no ctest summary in test.sh's output"
case $summary in
"100% tests passed, 0 tests failed out of "*) ;;
*) sb_die "ctest: $summary" ;;
esac
! grep -q "Not Run" "$log" || sb_die "ctest did not run every test: $(grep 'Not Run' "$log" | head -3)"
skipped=$(grep -c '\*\*\*Skipped' "$log" || true)
echo "check-fresh.sh: skipped in the fresh root: $skipped; $(grep '\*\*\*Skipped' "$log" | sed 's/.*Test *#[0-9]*: \([a-z_0-9]*\).*/\1/' | tr '\n' ' ')" >&2
echo "check-fresh.sh: ok after $(($(date +%s) - start)) s: $summary" >&2
