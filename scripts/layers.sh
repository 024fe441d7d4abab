#!/usr/bin/env bash
# layers.sh — the shape of the tree, checked (docs/DESIGN.md §2):
#   layers.sh [--src=DIR] [--build=DIR]
# Every room (a folder of bench/) says in one of its headers what it may
# use, on a line ` * uses: ROOM...`.  This fails on
#   - an include of another room's header that its uses line lacks, and one
#     of bench/ from include/stratbench/ or strategies/;
#   - docs/DESIGN.md §2's table of rooms saying other uses than a header;
#   - with --build (a configured and built tree): a link edge the same
#     (an object's undefined symbol defined by an object of another room),
#     and an exported symbol no other object uses (dead, or to make static);
#   - a function of bench/cmd over 60 lines, any other over 120, or one
#     with more than 7 parameters.
# Exit 0 clean, 1 findings (one line each), 2 usage.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src=$SB_ROOT build=
for a in "$@"; do
	case $a in
	--src=*) src=${a#--src=} ;;
	--build=*) build=${a#--build=} ;;
	-h|--help) sed -n '2,14p' "$0"; exit 0 ;;
	*) SB_DIE_RC=2 sb_die "unknown option '$a'" ;;
	esac
done
[ -d "$src/bench" ] || SB_DIE_RC=2 sb_die "no bench/ under $src"
[ -z "$build" ] || [ -d "$build/CMakeFiles/sb_harness.dir" ] ||
	SB_DIE_RC=2 sb_die "$build is not a built tree (no CMakeFiles/sb_harness.dir)"
cd "$src"
out=$(mktemp)
trap 'rm -f "$out" "$out".*' EXIT

# room -> the rooms it may use, from its headers' "uses:" lines
for d in bench/*/; do
	r=$(basename "$d")
	n=$(cat "$d"*.h 2>/dev/null | grep -c '^ \* uses:' || true)
	[ "$n" = 1 ] || { echo "bench/$r: $n headers say what it uses (want one ' * uses:' line)"; continue; }
	echo "$r $r $(cat "$d"*.h | sed -n 's/^ \* uses://p' | sed 's/(.*)//; s/\*\///')"
done >"$out.uses"
grep '^bench/' "$out.uses" >>"$out" || true
grep -v '^bench/' "$out.uses" >"$out.allow" || true
echo "strategies strategies core sim" >>"$out.allow"

# docs/DESIGN.md §2's table of rooms says what the uses lines say
if [ -f docs/DESIGN.md ]; then
	awk -F'|' 'NR == FNR { u = ""; for (i = 2; i <= NF; i++) u = u " " $i; have[$1] = u; next }
		/^\| [a-z]+\/ \|/ {
			r = $2; gsub(/[ \/]/, "", r); u = $(NF - 1)
			if (u ~ /every room below|libc only/) u = ""
			n = split(u, w, " "); delete want
			for (i = 1; i <= n; i++) want[w[i]] = 1
			m = split(have[r], h, " "); ok = (r in have) && (n == m || u == "")
			for (i = 1; i <= m && u != ""; i++) if (!(h[i] in want)) ok = 0
			if (!ok) print "docs/DESIGN.md: the room " r "/ uses \x27" u "\x27 there, \x27" have[r] "\x27 in its header"
		}' <(awk '{ printf "%s", $1; for (i = 3; i <= NF; i++) printf "|%s", $i; print "" }' "$out.allow") \
		docs/DESIGN.md >>"$out"
fi

# include edges
awk 'NR == FNR { for (i = 2; i <= NF; i++) allow[$1 " " $i] = 1; next }
	FNR == 1 { split(FILENAME, p, "/"); r = p[2] }
	/^#include "[a-z_]+\// {
		to = $2; gsub(/"/, "", to); sub(/\/.*/, "", to)
		if (!((r " " to) in allow) && !seen[FILENAME " " to]++)
			print FILENAME ": includes " to "/, which bench/" r "\x27s uses line lacks"
	}' "$out.allow" bench/*/*.[ch] bench/*/*.cc >>"$out"
grep -ln '^#include "' include/stratbench/*.h strategies/*/*.c 2>/dev/null |
	sed 's/$/: includes a bench\/ header (contracts and strategies include only include\/stratbench)/' >>"$out" || true

# link edges and exported symbols nobody else uses
if [ -n "$build" ]; then
	declare -A seen
	# nm -A: "OBJECT: VALUE TYPE NAME"; an object's room from its path
	room_of='{ o = $1; sub(/:.*/, "", o)
		if (o ~ /\/bench\//) { f = o; sub(/.*\/bench\//, "bench/", f); sub(/\.o$/, "", f)
			split(f, p, "/"); r = p[2] }
		else if (o ~ /\/strategies\//) { f = o; sub(/.*\/strategies\//, "strategies/", f)
			sub(/\.o$/, "", f); r = "strategies" }
		else { f = o; r = "-" } }'
	# the objects of sources that still exist, the newest of each (a build
	# dir keeps the objects of sources moved or of targets renamed)
	find "$build" -name '*.o' -printf '%T@ %p\n' | sort -rn | while read -r _ o; do
		case $o in
		*/bench/*) f=bench/${o##*/bench/} ;;
		*/strategies/*) f=strategies/${o##*/strategies/} ;;
		*) printf '%s\0' "$o"; continue ;;
		esac
		[ -f "${f%.o}" ] && [ -z "${seen[$f]:-}" ] && printf '%s\0' "$o"
		seen[$f]=1
	done >"$out.objs"
	grep -z '/bench/' "$out.objs" | xargs -0 nm -A -g --defined-only |
		awk "$room_of"' $2 ~ /^[TDBRV]$/ { print $3, r, f }' | sort -k1,1 >"$out.defs"
	xargs -0 nm -A -u <"$out.objs" |
		awk "$room_of"' { print $NF, r, f }' >"$out.used"
	# the fuzz targets (a clang build of their own) use what they name
	grep -ohw 'sb_[a-z0-9_]*' tests/fuzz/*.c 2>/dev/null | sort -u |
		sed 's|$| - tests/fuzz|' >>"$out.used" || true
	sort -k1,1 -o "$out.used" "$out.used"
	join "$out.used" "$out.defs" | awk 'NR == FNR { allow[$1] = $0; next }
		$2 != "-" && $2 != $4 {
			n = split(allow[$2], a, " "); ok = 0
			for (i = 2; i <= n; i++) if (a[i] == $4) ok = 1
			if (!ok) print $3 ": calls " $1 " of " $5 ", which " $2 "/ may not use"
		}' "$out.allow" - | sort -u >>"$out"
	join -v2 <(awk '{ print $1 }' "$out.used" | sort -u) "$out.defs" |
		awk '$1 ~ /^sb_/ { print $3 ": " $1 " is used by no other file (remove it, or make it static)" }' >>"$out"
fi

# function sizes and parameters (kernel style: a definition starts in
# column 0 and its body is the braces in column 0)
awk '
FNR == 1 { max = FILENAME ~ /^bench\/cmd\// ? 60 : 120; body = insig = 0 }
/^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ && !/^(typedef|struct [a-z_]+ *\{|enum|#)/ { sig = $0; start = FNR; insig = 1; next }
insig && /^\{/ { body = 1; insig = 0; next }
insig { sig = sig " " $0; if ($0 ~ /;[[:space:]]*$/) insig = 0; next }
body && /^\}/ {
	n = FNR - start + 1; body = 0
	name = sig; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
	p = substr(sig, index(sig, "(") + 1); depth = 1; np = 1
	for (i = 1; i <= length(p) && depth > 0; i++) {
		c = substr(p, i, 1)
		if (c == "(") depth++
		else if (c == ")") depth--
		else if (c == "," && depth == 1) np++
	}
	if (p ~ /^[[:space:]]*void[[:space:]]*\)/) np = 0
	if (n > max) print FILENAME ":" start ": " name " is " n " lines (at most " max ")"
	if (np > 7) print FILENAME ":" start ": " name " takes " np " parameters (at most 7)"
}' bench/*/*.c >>"$out"

if [ -s "$out" ]; then
	sort -u "$out" >&2
	echo "layers.sh: $(sort -u "$out" | wc -l) findings" >&2
	exit 1
fi
echo "layers.sh: $(wc -l <"$out.uses") rooms; includes${build:+, links, exports}, function sizes: clean" >&2
