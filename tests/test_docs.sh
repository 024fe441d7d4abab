#!/usr/bin/env bash
# test_docs.sh SRCDIR — every section the tree cites as "DESIGN.md §N" (or
# "DESIGN §N") exists in docs/DESIGN.md as a heading "## N. Title", and
# docs/DESIGN.md exists.  The files searched: in a git checkout, those git
# lists (tracked, and untracked but not ignored); elsewhere (the lab guest
# has no git), every file under SRCDIR but .git/, build*/ and results/.
# docs/DESIGN.md's own text is not searched.  The checker is checked too: a
# copy of DESIGN.md with one cited section removed, a duplicated heading and
# a missing file must each fail; the find path must find a citation and
# skip build*/.
#
# Every relative link of README.md, CONTRIBUTING.md and docs/*.md points at
# a file that exists and, for FILE#anchor (or #anchor), at a heading of that
# file, by GitHub's anchor rule (lowercase; every character but letters,
# digits, '_', '-' and spaces dropped; spaces to '-'; a repeated heading
# gets -1, -2, …; ASCII only: a non-ASCII letter in a linked heading is
# dropped here, where GitHub keeps it, so such a link fails, loudly).  Links
# in fenced code are not links.  Broken fixtures: a copy of the pages with
# a link to a missing file, to a missing heading of another page and to a
# missing heading of its own page must fail with those three, and no more.
set -u
src=${1:?usage: test_docs.sh SRCDIR}
tmp=$(mktemp -d /tmp/sb_docs.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"	# ok, bad, check, finish

design=docs/DESIGN.md

# files DIR: the files to search, relative to DIR, NUL-separated
files() {
	if command -v git >/dev/null 2>&1 &&
		[ "$(git -C "$1" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$1" && pwd -P)" ]; then
		git -C "$1" ls-files -z --cached --others --exclude-standard
	else
		(cd "$1" && find . \( -path ./.git -o -path './build*' -o -path ./results \) -prune \
			-o -type f -print0) | sed -z 's|^\./||'
	fi
}

# refs DIR: one "FILE:LINE:N" per citation of section N outside DESIGN.md
refs() {
	(cd "$1" && files . | grep -zvxF "$design" |
		xargs -0 -r grep -sIHnoE 'DESIGN(\.md)? §[0-9]+' --) | sed -E 's/:DESIGN(\.md)? §/:/'
}

# checker DESIGN REFS: 0 when DESIGN has one "## N." heading for every N
# cited in REFS (and no number twice); else one line per problem
checker() {
	local doc=$1 list=$2 have n where rc=0
	if [ ! -f "$doc" ]; then
		echo "$doc: missing"
		return 1
	fi
	have=$(sed -nE 's/^## ([0-9]+)\. .*/\1/p' "$doc")
	for n in $(sort -n <<<"$have" | uniq -d); do
		echo "$doc: two headings '## $n.'"
		rc=1
	done
	while IFS= read -r where; do
		n=${where##*:}
		if ! grep -qxF "$n" <<<"$have"; then
			echo "${where%:*}: cites DESIGN.md §$n; $doc has no heading '## $n.'"
			rc=1
		fi
	done <"$list"
	return $rc
}

check "$design exists" [ -f "$src/$design" ]
refs "$src" >"$tmp/refs"
# a search that finds nothing would pass whatever DESIGN.md holds
check "citations found in $src ($(wc -l <"$tmp/refs"))" [ -s "$tmp/refs" ]
if checker "$src/$design" "$tmp/refs" >"$tmp/out"; then ok; else
	bad "$design lacks cited sections:"$'\n'"$(cat "$tmp/out")"; fi

# the broken fixture: the first cited section removed (heading to next heading)
n=$(head -1 "$tmp/refs" | sed 's/.*://')
if [ -n "$n" ] && [ -f "$src/$design" ]; then
	awk -v n="$n" '/^## / { skip = ($0 ~ "^## " n "\\. ") } !skip' "$src/$design" >"$tmp/cut.md"
	check "fixture lost §$n's heading" bash -c "! grep -qE '^## $n\\. ' '$tmp/cut.md'"
	if checker "$tmp/cut.md" "$tmp/refs" >"$tmp/out"; then
		bad "checker passed a DESIGN.md without §$n"
	else
		check "checker names §$n" grep -q "§$n;" "$tmp/out"
	fi
	# a section numbered twice is as wrong as one missing
	{ cat "$src/$design"; echo "## $n. Again"; } >"$tmp/twice.md"
	if checker "$tmp/twice.md" "$tmp/refs" >"$tmp/out"; then
		bad "checker passed two headings '## $n.'"; else ok; fi
fi
if checker "$tmp/none.md" "$tmp/refs" >/dev/null; then
	bad "checker passed a missing DESIGN.md"; else ok; fi

# the find path (no git), as in the lab guest: finds citations, skips build*/
mkdir -p "$tmp/tree/src" "$tmp/tree/build-x" "$tmp/tree/docs"
sec='§'	# kept apart from the numbers: this file cites no section itself
printf '/* see DESIGN.md %s42 */\n' "$sec" >"$tmp/tree/src/a.c"
printf 'DESIGN %s43\n' "$sec" >"$tmp/tree/README"
printf 'DESIGN.md %s44\n' "$sec" >"$tmp/tree/build-x/gen.c"
printf 'DESIGN.md %s45\n' "$sec" >"$tmp/tree/docs/DESIGN.md"
got=$(refs "$tmp/tree" | sort | tr '\n' ' ')
check "find path: '$got'" [ "$got" = "README:1:43 src/a.c:1:42 " ]

# anchors FILE: the #anchors GitHub makes of FILE's headings, one a line
anchors() {
	LC_ALL=C awk '
		/^ *(```|~~~)/ { fence = !fence; next }
		fence { next }
		/^#+ / {
			h = $0; sub(/^#+ +/, "", h); sub(/[ #]+$/, "", h)
			h = tolower(h); gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h)
			n = seen[h]++
			print (n ? h "-" n : h)
		}' "$1"
}

# links FILE...: "FILE:LINE:TARGET" for every markdown link outside fenced code
links() {
	LC_ALL=C awk '
		FNR == 1 { fence = 0 }
		/^ *(```|~~~)/ { fence = !fence; next }
		fence { next }
		{
			line = $0
			while (match(line, /\]\([^) ]+\)/)) {
				print FILENAME ":" FNR ":" substr(line, RSTART + 2, RLENGTH - 3)
				line = substr(line, RSTART + RLENGTH)
			}
		}' "$@"
}

# linkcheck ROOT FILE...: one line per relative link (FILE relative to ROOT)
# whose file or heading is missing; 0 when there is none
linkcheck() {
	local root=$1 l f rest line target path anchor dest bad_links=""
	shift
	while IFS= read -r l; do
		f=${l%%:*} rest=${l#*:}
		line=${rest%%:*} target=${rest#*:}
		case $target in [a-z]*:*) continue ;; esac	# http:, https:, mailto:
		path=${target%%#*} anchor=
		[ "$path" = "$target" ] || anchor=${target#*#}
		dest=$f
		[ -z "$path" ] || dest=$(dirname "$f")/$path
		dest=${dest#./}
		if [ ! -e "$root/$dest" ]; then
			bad_links+="$f:$line: links $target: no file $dest"$'\n'
		elif [ -n "$anchor" ] && ! anchors "$root/$dest" | grep -qxF -- "$anchor"; then
			bad_links+="$f:$line: links $target: no heading of $dest makes #$anchor"$'\n'
		fi
	done < <(cd "$root" && links "$@")
	printf '%s' "$bad_links"
	[ -z "$bad_links" ]
}

pages=(README.md CONTRIBUTING.md)
for f in "$src"/docs/*.md; do pages+=("docs/${f##*/}"); done
nlinks=$(cd "$src" && links "${pages[@]}" | grep -cvE ':[0-9]+:[a-z]+:')
# a search that finds no link would pass whatever the pages hold
check "relative links found in ${pages[*]} ($nlinks)" [ "$nlinks" -gt 20 ]
if linkcheck "$src" "${pages[@]}" >"$tmp/out"; then ok; else
	bad "broken links:"$'\n'"$(cat "$tmp/out")"; fi

# the broken fixtures: the same pages, one of them with three bad links
mkdir -p "$tmp/pages/docs"
cp "$src/README.md" "$src/CONTRIBUTING.md" "$tmp/pages/"
cp "$src"/docs/*.md "$tmp/pages/docs/"
ln -s "$(cd "$src" && pwd)/plots" "$tmp/pages/plots"	# the figures the pages show
printf '%s\n' '## A heading' '## A heading' 'See [this](#a-heading-1) and [the README](../README.md#contents).' \
	'```' '[in code](not-a-link.md)' '```' 'And [a page](no-such-page.md),' \
	'[a heading](DESIGN.md#no-such-heading), [here](#no-such-heading).' >>"$tmp/pages/docs/results.md"
linkcheck "$tmp/pages" "${pages[@]}" >"$tmp/out"
check "a broken copy fails the link check" [ $? -ne 0 ]
check "the missing file is named" grep -q '^docs/results.md:[0-9]*: links no-such-page.md: no file' "$tmp/out"
check "the missing heading of another page is named" \
	grep -q '^docs/results.md:[0-9]*: links DESIGN.md#no-such-heading: no heading' "$tmp/out"
check "the missing heading of its own page is named" \
	grep -q '^docs/results.md:[0-9]*: links #no-such-heading: no heading' "$tmp/out"
check "nothing else is reported ($(wc -l <"$tmp/out") lines)" [ "$(wc -l <"$tmp/out")" -eq 3 ]
check "anchors: GitHub's rule" [ "$(printf '%s\n' '# Limits: `calibrate`, `limit_ops` and `of_limit`' \
	'## Fidelity mode (`--mode=fidelity`)' '## 5. Shootdown — the kernel' '## X' '## X' | anchors /dev/stdin | tr '\n' ' ')" \
	= "limits-calibrate-limit_ops-and-of_limit fidelity-mode---modefidelity 5-shootdown--the-kernel x x-1 " ]

finish test_docs
