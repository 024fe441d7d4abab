#!/usr/bin/env bash
# test_docs_options.sh STRATBENCH SRCDIR — docs/running.md's option table
# (the one headed "| option | meaning | default |", every `--name` of its
# first column) lists exactly the options `stratbench run --help` and
# `stratbench calibrate --help` (the commands running.md documents) print,
# less Google Benchmark's flags, which running.md describes in prose.  Each
# option in one and not the other is named.  Broken fixtures: a copy of the
# page with one option's row dropped, one with a made-up option added, and
# a help with a made-up option, must each fail.
set -u
sb=$1 src=$2
tmp=$(mktemp -d /tmp/sb_docopt.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"	# ok, bad, check, finish

# help_options: the --names of the help's option rows (two spaces, then the
# option), sorted; the Google Benchmark section is skipped up to the next
# heading (a line at column 0)
help_options() {
	awk '/^[^ ]/ { skip = /^Google Benchmark/ } !skip && /^  --[a-z]/' |
		grep -oE '^  --[a-z][a-z0-9-]*' | sed 's/^ *//' | sort -u
}

# doc_options PAGE: every --name in the first column of PAGE's option
# table, sorted (a `\|` inside a cell is not a column break)
doc_options() {
	awk '/^\| option \| meaning \| default \|/ { t = 1; next } t && !/^\|/ { t = 0 }
	     t && !/^\|---/' "$1" | sed 's/^| //; s/ | .*//' |
		grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
}

# agree HELP PAGE: 0 when the option lists of HELP (a saved help text) and
# PAGE are the same; else each one-sided option, named
agree() {
	local in_help in_page
	in_help=$(help_options <"$1") in_page=$(doc_options "$2")
	[ -n "$in_help" ] || { echo "$1: no option rows"; return 1; }
	[ -n "$in_page" ] || { echo "$2: no option table"; return 1; }
	[ "$in_help" = "$in_page" ] && return 0
	comm -23 <(echo "$in_help") <(echo "$in_page") | sed "s|^\(.*\)|$2: lacks \1, which --help lists|"
	comm -13 <(echo "$in_help") <(echo "$in_page") | sed "s|^\(.*\)|$2: lists \1, which --help does not|"
	return 1
}

page=$src/docs/running.md
{ "$sb" run --help && "$sb" calibrate --help; } >"$tmp/help.txt"
check "run and calibrate --help print their options" [ -s "$tmp/help.txt" ]
check "docs/running.md's option table lists exactly the --help options" \
	agree "$tmp/help.txt" "$page"

# the fixtures: one option's row dropped, one made-up row, a made-up help row
first=$(doc_options "$page" | head -1)
sed "/^| \`$first[=\`]/d" "$page" >"$tmp/dropped.md"
check "fixture: the page without its $first row differs from the original" \
	eval '! cmp -s "$page" "$tmp/dropped.md"'
check "fixture: the page without $first must fail" \
	eval '! agree "$tmp/help.txt" "$tmp/dropped.md" >/dev/null'
sed '/^| option | meaning | default |/{n;a\
| `--made-up=X` | no such option | none |
}' "$page" >"$tmp/added.md"
check "fixture: the page with --made-up must fail" \
	eval '! agree "$tmp/help.txt" "$tmp/added.md" >/dev/null'
check "fixture: ... naming it" \
	eval 'agree "$tmp/help.txt" "$tmp/added.md" | grep -q "lists --made-up, which --help does not$"'
{ cat "$tmp/help.txt"; echo "Options:"; echo "  --made-up=X            no such option"; } \
	>"$tmp/help_added.txt"
check "fixture: a help with --made-up must fail" \
	eval '! agree "$tmp/help_added.txt" "$page" >/dev/null'
finish test_docs_options
