#!/usr/bin/env bash
# layers.sh — the shape of the tree, checked (docs/DESIGN.md §2):
#   layers.sh [--src=DIR] [--build=DIR]
# Every room (a folder of bench/) says in one of its headers what it may
# use, on a line ` * uses: ROOM...`.  This fails on
#   - an include of another room's header that its uses line lacks, and one
#     of bench/ from include/stratbench/ or strategies/;
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
	-h|--help) sed -n '2,13p' "$0"; exit 0 ;;
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
	n=$(grep -l '^ \* uses:' "$d"*.h 2>/dev/null | wc -l)
	[ "$n" -eq 1 ] || { echo "bench/$r: $n headers say what it uses (want one ' * uses:' line)"; continue; }
	echo "$r $r $(grep -h '^ \* uses:' "$d"*.h | sed 's/^ \* uses://; s/(.*)//; s/\*\///')"
done >"$out.uses"
grep -v "^bench/" "$out.uses" >"$out.allow" || true
grep '^bench/' "$out.uses" >>"$out" || true
echo "strategies strategies core sim" >>"$out.allow"

# include edges
for f in bench/*/*.[ch] bench/*/*.cc; do
	r=${f#bench/}; r=${r%%/*}
	sed -n 's/^#include "\([a-z_]*\)\/.*/\1/p' "$f" | sort -u | while read -r to; do
		awk -v r="$r" -v to="$to" '$1 == r { for (i = 2; i <= NF; i++) if ($i == to) ok = 1 }
			END { exit !ok }' "$out.allow" || echo "$f: includes $to/, which bench/$r's uses line lacks"
	done
done >>"$out"
grep -ln '^#include "' include/stratbench/*.h strategies/*/*.c 2>/dev/null |
	sed 's/$/: includes a bench\/ header (contracts and strategies include only include\/stratbench)/' >>"$out" || true

# link edges and exported symbols nobody else uses
if [ -n "$build" ]; then
	objs=$(find "$build/CMakeFiles" -name '*.o' -path '*/bench/*')
	for o in $objs; do
		f=bench/${o##*/bench/}; f=${f%.o}; r=${f#bench/}; r=${r%%/*}
		nm -g --defined-only "$o" | awk -v f="$f" -v r="$r" '$2 ~ /[TDBRV]/ { print $3, r, f }'
	done | sort -k1,1 >"$out.defs"
	for o in $(find "$build" -name "*.o"); do
		case $o in
		*/bench/*) f=bench/${o##*/bench/}; f=${f%.o}; r=${f#bench/}; r=${r%%/*} ;;
		*/strategies/*) f=strategies/${o##*/strategies/}; f=${f%.o}; r=strategies ;;
		*) f=${o#"$build"/}; r=- ;;	# tests: users, not a room
		esac
		nm -u "$o" | awk -v f="$f" -v r="$r" '{ print $2, r, f }'
	done >"$out.used"
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
		awk '$1 != "main" && $1 !~ /^(_Z|DW\.)/ { print $3 ": " $1 " is used by no other file (remove it, or make it static)" }' >>"$out"
fi

# function sizes and parameters (kernel style: a definition starts in
# column 0 and its body is the braces in column 0)
for f in bench/*/*.c; do
	max=120
	case $f in bench/cmd/*) max=60 ;; esac
	awk -v f="$f" -v max="$max" '
	/^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ && !/^(typedef|struct [a-z_]+ *\{|enum|#)/ { sig = $0; start = FNR; insig = 1; next }
	insig && /^\{/ { body = 1; insig = 0; next }
	insig && !/^\{/ { sig = sig " " $0; if ($0 ~ /;[[:space:]]*$/) insig = 0; next }
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
		if (n > max) print f ":" start ": " name " is " n " lines (at most " max ")"
		if (np > 7) print f ":" start ": " name " takes " np " parameters (at most 7)"
	}' "$f"
done >>"$out"

if [ -s "$out" ]; then
	sort -u "$out" >&2
	echo "layers.sh: $(sort -u "$out" | wc -l) findings" >&2
	exit 1
fi
echo "layers.sh: $(wc -l <"$out.uses") rooms; includes${build:+, links, exports}, function sizes: clean" >&2
