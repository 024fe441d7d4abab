#!/usr/bin/env bash
# test_docs_strategies.sh STRATBENCH SRCDIR — the pages that list a family's
# strategies by hand list exactly what `stratbench list` shows for it:
# docs/window.md's policy table (its first column), docs/lock.md's sentence
# "`stratbench list` shows the locks: ..." (a parenthesis says what a lock
# is, not another one) and docs/shootdown.md's "Strategies (`stratbench
# list`): `a` ...; `b` ..." (the name opening each clause).  A strategy
# added or renamed without its page fails here.  Broken fixtures: a copy of
# each page with one strategy removed, and one with a strategy renamed to a
# made-up one, must fail.
set -u
sb=$1 src=$2
tmp=$(mktemp -d /tmp/sb_docstrat.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"	# ok, bad, check, finish

# listed FAMILY: the strategies of FAMILY's first section of `stratbench
# list`, sorted (the second shootdown section is the kernel's calls)
listed() {
	"$sb" list | awk -v fam="$1" '
		/^[^ ]/ { in_fam = !done && $1 == fam; if (in_fam) done = 1; next }
		in_fam && /^  [^ ]/ { print $1 }' | sort
}

# documented FAMILY PAGE: the strategies PAGE lists, sorted
documented() {
	case $1 in
	window)
		awk '/^\| policy \|/ { t = 1; next } t && !/^\|/ { t = 0 }
		     t && /^\| `/ { split($0, c, "`"); print c[2] }' "$2" ;;
	lock)
		tr '\n' ' ' <"$2" | sed -n 's/.*`stratbench list` shows the locks:\(.*\)Each file.*/\1/p' |
			sed 's/([^)]*)//g' | grep -o '`[^`]*`' | tr -d '`' ;;
	shootdown)
		tr '\n' ' ' <"$2" | sed -n 's/.*Strategies (`stratbench list`)\(:[^*]*\)\*\*The checker.*/\1/p' |
			grep -oE '(:|;) `[a-z_]+`' | grep -o '[a-z_]*`$' | tr -d '`' ;;
	esac | sort
}

# agree FAMILY PAGE: 0 when PAGE lists exactly `stratbench list`'s FAMILY
agree() {
	local want got
	want=$(listed "$1") got=$(documented "$1" "$2")
	[ -n "$want" ] || { echo "stratbench list has no $1 section"; return 1; }
	[ "$want" = "$got" ] && return 0
	diff <(echo "$want") <(echo "$got") | sed -n "s|^[<>]|$2: $1:&|p"
	return 1
}

for fam in window lock shootdown; do
	page=$src/docs/$fam.md
	check "docs/$fam.md lists the $fam strategies of stratbench list" agree "$fam" "$page"
	# the fixtures: one strategy dropped from the page, one made up
	first=$(listed "$fam" | head -1)
	sed "s/\`$first\`/\`made_up\`/" "$page" >"$tmp/renamed.md"
	check "fixture: $fam page with $first renamed must fail" \
		eval '! agree "$fam" "$tmp/renamed.md" >/dev/null'
	case $fam in
	window) sed "/^| \`$first\` |/d" "$page" ;;
	lock) sed "s/\`$first\`,//" "$page" ;;
	shootdown) sed "s/; \`$(listed "$fam" | tail -1)\` flushes/; it flushes/" "$page" ;;
	esac >"$tmp/dropped.md"
	check "fixture: $fam page with one strategy dropped must fail" \
		eval '! agree "$fam" "$tmp/dropped.md" >/dev/null'
done
finish test_docs_strategies
