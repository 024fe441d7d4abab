#!/usr/bin/env bash
# test_lab_runner.sh — scripts/lab.sh itself, on the host (CI runs it after the
# lab set): a guest command's exit status comes back as lab.sh's, a hung
# guest is stopped at --timeout and a panicking one is reported, both as
# failures with a message (never a hang, never a pass), and bad usage is one
# line and exit 2.  Boots the 2s lab three times.
set -u
lab="$(cd "$(dirname "$0")/../.." && pwd)/scripts/lab.sh"
tmp=$(mktemp -d /tmp/sb_labr.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../testlib.sh"

# run_lab NAME ARGS...: lab.sh's status in $rc, its stderr in $tmp/NAME.err
run_lab() {
	local name=$1; shift
	bash "$lab" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
	echo "--- lab.sh $*: exit $rc; $(grep '^lab: 2s: ' "$tmp/$name.err" | tail -1)"
}

run_lab bogus --shape=bogus
check "unknown shape: exit 2" [ "$rc" -eq 2 ]
check "unknown shape: one line naming it" \
	[ "$(wc -l <"$tmp/bogus.err")" -eq 1 ] && grep -q "unknown shape 'bogus'" "$tmp/bogus.err"
run_lab badtcg --tcg=both
check "bad --tcg: exit 2, one line naming it" [ "$rc" -eq 2 ] && \
	[ "$(wc -l <"$tmp/badtcg.err")" -eq 1 ] && grep -q "bad --tcg 'both'" "$tmp/badtcg.err"

run_lab status -- 'echo guest-says-hello; exit 3'
check "guest exit 3 comes back as 3" [ "$rc" -eq 3 ]
check "guest output is shown" grep -q guest-says-hello "$tmp/status.out"

run_lab hang --timeout=60 -- 'sleep 100000'
check "hung guest: exit 1" [ "$rc" -eq 1 ]
check "hung guest: says it did not finish" grep -q "did not finish within 60s" "$tmp/hang.err"

run_lab panic -- 'echo c >/proc/sysrq-trigger; sleep 100000'
check "panicking guest: exit 1" [ "$rc" -eq 1 ]
check "panicking guest: says it stopped without a status" \
	grep -q "stopped without reporting an exit status" "$tmp/panic.err"
check "panicking guest: names the panic" grep -q "(Kernel panic - not syncing: " "$tmp/panic.err"

finish test_lab_runner
