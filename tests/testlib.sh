# testlib.sh — sourced by the shell tests: counters and checks.
#   check WHAT CMD...            passes when CMD succeeds
#   expect2 WHAT NEEDLE ARGS...  $sb ARGS exits 2 with one stderr line holding NEEDLE
#   finish NAME                  prints "NAME: N passed, M failed", returns non-zero on failure
#   col CSV NAME                 the number of a results.csv column, by its header
# Needs $sb (the binary) and $tmp (a scratch directory).
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAILED: $*" >&2; }
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }
expect2() {
	local what=$1 needle=$2; shift 2
	"$sb" "$@" >"$tmp/o" 2>"$tmp/e"
	local rc=$? lines
	lines=$(wc -l <"$tmp/e")
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "$needle" "$tmp/e"; then ok
	else bad "$what: rc=$rc lines=$lines stderr='$(head -3 "$tmp/e")' (want 2, 1, '$needle')"; fi
}
col() { head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
finish() {
	echo "$1: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
