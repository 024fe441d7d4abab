#!/usr/bin/env bash
# test_html.sh STRATBENCH — the HTML pages in a real headless browser
# (Debian's chromium): DIR/index.html of `stratbench plot DIR` and the page
# of `stratbench compare OLD NEW --html=FILE`, from two short real runs.
# Each page is loaded twice, for a screenshot and for the DOM after load,
# with the browser's console on stderr.  Checked: the browser exits 0; the
# screenshot is a 1280-pixel-wide PNG; no console message at all (the pages
# have no script: any message is an error); nothing external (every src
# and href is #… or data:, no <link>, @import or url() but url(#…)); ids
# unique; every figure's inline SVG drawn in the DOM (5+ <path> outside
# <defs>) with its title and two-line caption; every benchmark in the
# summary tables; the noisy points listed exactly as results.csv flags
# them; the compare page with and without the %Change figure, a row per
# compared point, each noisy side marked.  Broken fixtures: an injected
# external <img>, a figure emptied of its paths, an inline script that
# throws: each must make its check fail.  A page that cannot be written is
# one line naming the file.
# No chromium: installed when root (as CI is), else a failure saying how.
# The lab guest (scripts/lab.sh) has no browser and cannot install one:
# skipped there (77); the native run of the suite checks the pages.
# SB_HTML_SHOTS=DIR keeps the screenshots there.
set -u
sb=$1
tmp=$(mktemp -d /tmp/sb_html.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"

browser=$(command -v chromium)
if [ -z "$browser" ] && [ -n "${SB_LAB_SHAPE:-}" ]; then
	echo "test_html: skipped: the lab guest carries no browser (the native suite checks the pages)"
	exit 77
fi
if [ -z "$browser" ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
	(. "$(dirname "$0")/../scripts/lib.sh" && sb_need_pkgs chromium) >&2
	browser=$(command -v chromium)
fi
if [ -z "$browser" ]; then
	echo "test_html: FAILED: no chromium to load the pages in (Debian: apt-get install" \
		"chromium; run as root, this test installs it)" >&2
	exit 1
fi

# chrome ARGS...: headless, its own profile and HOME, console on stderr
chrome() {
	mkdir -p "$tmp/home"
	HOME=$tmp/home timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu \
		--disable-dev-shm-usage --no-first-run --no-default-browser-check \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmp/profile" --hide-scrollbars --enable-logging=stderr --v=0 "$@"
}
# load NAME PAGE: $tmp/NAME.png (1280x4000), $tmp/NAME.dom (the DOM after
# load), $tmp/NAME.console (every console message); fails if chromium does
load() {
	local name=$1 url=file://$2 t0 ms rc=0
	t0=$(date +%s%N)
	chrome --screenshot="$tmp/$name.png" --window-size=1280,4000 "$url" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
	chrome --dump-dom "$url" >"$tmp/$name.dom" 2>>"$tmp/$name.err" || rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	grep -E 'CONSOLE[(:]|Uncaught' "$tmp/$name.err" >"$tmp/$name.console"
	echo "test_html: $name: chromium ${ms} ms (screenshot, then the DOM)"
	[ -z "${SB_HTML_SHOTS:-}" ] || { mkdir -p "$SB_HTML_SHOTS" && cp "$tmp/$name.png" "$SB_HTML_SHOTS/"; }
	[ "$rc" -eq 0 ] || echo "  chromium exited $rc: $(grep -v dbus "$tmp/$name.err" | tail -3)" >&2
	return "$rc"
}
# png FILE: a PNG, 1280 pixels wide, of some size
png() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
		[ "$(od -An -tu1 -j16 -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')" = 1280 ] &&
		[ "$(stat -c %s "$1")" -gt 20000 ]
}
# quiet NAME: the page logged nothing to the console
quiet() {
	[ ! -s "$tmp/$1.console" ] || { echo "  console: $(head -3 "$tmp/$1.console")" >&2; return 1; }
}
# external FILE: every reference that would leave the file
url_re='url\([[:space:]]*["'"'"']?[^#"'"'"'[:space:]]'
external() {
	grep -Eo "(src|href)[[:space:]]*=[[:space:]]*(\"[^\"]*\"|'[^']*'|[^[:space:]>]+)" "$1" |
		sed -E "s/^[^=]*=[[:space:]]*[\"']?//; s/[\"']$//" | grep -Ev '^(#|data:)'
	grep -Eio "<link[[:space:]>]|@import|$url_re" "$1"
}
self_contained() {
	local e
	e=$(external "$1")
	[ -z "$e" ] || { echo "  external: $(echo "$e" | head -3 | tr '\n' ' ')" >&2; return 1; }
}
# unique_ids FILE: no id twice (each figure's SVG ids prefixed)
unique_ids() {
	local d
	d=$(grep -Eo "[[:space:]]id=(\"[^\"]*\"|'[^']*')" "$1" | sed -E "s/.*id=[\"']//; s/[\"']$//" |
		sort | uniq -d)
	[ -z "$d" ] || { echo "  ids twice: $(echo "$d" | head -5 | tr '\n' ' ')" >&2; return 1; }
}
# drawn DOM PAGE [N]: each <figure id="…"> of PAGE (N of them when given) is
# in the DOM with an inline <svg> of 5+ <path> outside <defs>, a title and
# two caption lines
drawn() {
	local dom=$1 page=$2 want=${3:-} id fig n ids=0 rc=0
	for id in $(grep -o '<figure id="[^"]*"' "$page" | cut -d'"' -f2); do
		ids=$((ids + 1))
		fig=$(awk -v s="<figure id=\"$id\"" 'index($0, s) { on = 1 } on { print } on && /<\/figure>/ { exit }' "$dom")
		n=$(printf '%s\n' "$fig" | awk '/<defs>/ { d = 1 } !d { print } /<\/defs>/ { d = 0 }' | grep -o '<path' | wc -l)
		if ! grep -q '<svg' <<<"$fig" || [ "$n" -lt 5 ]; then
			echo "  figure $id: $n <path> outside <defs> (want 5 or more)" >&2
			rc=1
		fi
		grep -Eq '<h3>[^<]+' <<<"$fig" || { echo "  figure $id: no title" >&2; rc=1; }
		grep -Eq '<p class="what">[^<]+</p>' <<<"$fig" && grep -Eq '<p class="how">[^<]+</p>' <<<"$fig" ||
			{ echo "  figure $id: no two-line caption" >&2; rc=1; }
	done
	[ -z "$want" ] || [ "$ids" -eq "$want" ] || { echo "  $ids figures, want $want" >&2; rc=1; }
	return "$rc"
}
# listed DIR DOM: every benchmark of DIR/results.csv has its summary row
# (the strategy cell's title is the full name)
listed() {
	local c name rc=0
	c=$(col "$1/results.csv" name)
	for name in $(tail -n +2 "$1/results.csv" | cut -d, -f"$c" | sort -u); do
		grep -qF "<td title=\"$name\">" "$2" || { echo "  no summary row: $name" >&2; rc=1; }
	done
	return "$rc"
}
# noisy_names DIR: the names results.csv flags noisy
noisy_names() {
	awk -F, -v n="$(col "$1/results.csv" name)" -v k="$(col "$1/results.csv" noisy)" \
		'NR > 1 && $k == 1 { print $n }' "$1/results.csv" | sort -u
}
# noisy_listed DIR DOM: the page's noisy list is exactly those
noisy_listed() {
	local want got
	want=$(noisy_names "$1")
	got=$(sed -n '/<table class="noisy-list">/,/<\/table>/p' "$2" |
		grep -o '<tr class="noisy"><td>[^<]*' | sed 's/.*<td>//' | sort -u)
	[ "$want" = "$got" ] || { echo "  noisy: page '$(echo $got)', results.csv '$(echo $want)'" >&2; return 1; }
	[ -n "$want" ] || grep -q "No noisy point" "$2"
}

# --- two short real runs: OLD with every point noisy (CV threshold 0.001 %),
# NEW with the default threshold
run() {
	"$sb" run --family=window --strategy=spinlock,trylock --threads=1,2 \
		--benchmark_min_time=0.01 --benchmark_repetitions=3 --out="$1" "${@:2}" \
		>"$tmp/run.out" 2>&1 || { cat "$tmp/run.out" >&2; return 1; }
}
old=$tmp/old new=$tmp/new
check "run OLD" run "$old" --cv-threshold=0.001
check "run NEW" run "$new"
"$sb" plot "$old" "$new" >"$tmp/plot.out" 2>&1
rc=$?
check "plot OLD NEW exits 0 ($(head -c 300 "$tmp/plot.out"))" [ "$rc" -eq 0 ]
for d in old new; do
	page=$tmp/$d/index.html
	nfig=0
	for f in "$tmp/$d/plots/"*.svg; do
		case $f in */compare-vs-*) ;; *) [ -e "$f" ] && nfig=$((nfig + 1)) ;; esac
	done
	check "$d: plot wrote index.html" [ -s "$page" ]
	check "$d: no index.html.partial left" [ ! -e "$page.partial" ]
	[ -s "$page" ] || continue
	check "$d: chromium loads the page" load "$d" "$page"
	check "$d: screenshot is a 1280-wide PNG" png "$tmp/$d.png"
	check "$d: no console message" quiet "$d"
	check "$d: self-contained" self_contained "$page"
	check "$d: ids unique" unique_ids "$page"
	check "$d: no XML declaration inline" eval "! grep -q '<?xml' '$page'"
	check "$d: $nfig figures drawn in the DOM" drawn "$tmp/$d.dom" "$page" "$nfig"
	check "$d: every benchmark in the summary" listed "$tmp/$d" "$tmp/$d.dom"
	check "$d: noisy points listed" noisy_listed "$tmp/$d" "$tmp/$d.dom"
	check "$d: fingerprint and command line" grep -q 'stratbench run --family=window' "$tmp/$d.dom"
done
check "OLD: every point noisy" [ "$(noisy_names "$old" | wc -l)" -eq 4 ]

# --- compare --html: without the %Change figure, then with it
"$sb" compare "$old" "$new" --html="$tmp/cmp0.html" >"$tmp/cmp.txt" 2>&1
check "compare --html exits 0" [ $? -eq 0 ]
check "compare --html: the text tables still printed" grep -q '^threads  Prev' "$tmp/cmp.txt"
check "compare without the figure: said in one line" grep -q 'No %Change figure' "$tmp/cmp0.html"
check "compare without the figure: no figure" eval "! grep -q '<figure' '$tmp/cmp0.html'"
check "compare page loads" load cmp0 "$tmp/cmp0.html"
check "compare page: no console message" quiet cmp0
"$sb" plot --compare "$old" "$new" >"$tmp/plotc.out" 2>&1
check "plot --compare exits 0" [ $? -eq 0 ]
"$sb" compare "$old" "$new" --html="$tmp/cmp.html" --format=csv >"$tmp/cmp.csv" 2>"$tmp/cmp.err"
check "compare --html (figure drawn) exits 0" [ $? -eq 0 ]
check "compare page with the figure loads" load cmp "$tmp/cmp.html"
check "compare page: screenshot" png "$tmp/cmp.png"
check "compare page: no console message" quiet cmp
check "compare page: self-contained" self_contained "$tmp/cmp.html"
check "compare page: ids unique" unique_ids "$tmp/cmp.html"
check "compare page: the %Change figure drawn" drawn "$tmp/cmp.dom" "$tmp/cmp.html" 1
rows=$(sed -n '/<table class="changelog">/,/<\/table>/p' "$tmp/cmp.dom" | grep -c '^<tr')
check "compare page: a row per compared point ($rows)" [ "$rows" -eq "$(($(wc -l <"$tmp/cmp.csv") - 1))" ]
verdicts=$(sed -n '/<table class="changelog">/,/<\/table>/p' "$tmp/cmp.dom" |
	grep -cE '<td class="n">(\[[-+0-9.e]+, [-+0-9.e]+\] (changed|~)|n too small: need 3|n/a|preempted: members on CPU [0-9]+ % of the run(; steal [0-9]+ %)?)</td>')
check "compare page: each %Change with its interval and verdict ($verdicts of $rows)" [ "$verdicts" -eq "$rows" ]
check "compare page: the verdicts explained" grep -q 'changed when it excludes 0 %' "$tmp/cmp.dom"
flags=$(sed -n '/<table class="changelog">/,/<\/table>/p' "$tmp/cmp.dom" | grep -o '⚠ noisy' | wc -l)
want=$(($(noisy_names "$old" | wc -l) + $(noisy_names "$new" | wc -l)))
check "compare page: each noisy side marked ($flags, want $want)" [ "$flags" -eq "$want" ]
check "compare page: both fingerprints" grep -q 'OLD (Prev).*NEW (Current)' "$tmp/cmp.dom"

# --- a page that cannot be written: checked before the work (issue 25):
# one line naming the file asked for (not its .partial), exit 2, nothing
# on stdout, nothing created or replaced
# unwritable WHAT FILE NEEDLE: compare --html=FILE refused up front
unwritable() {
	"$sb" compare "$old" "$new" --html="$2" >"$tmp/o" 2>"$tmp/e"
	local rc=$?
	check "unwritable --html ($1): exit 2, one line (rc=$rc: $(head -2 "$tmp/e" | tr '\n' ' '))" \
		eval "[ $rc -eq 2 ] && [ \$(wc -l <'$tmp/e') -eq 1 ]"
	check "unwritable --html ($1): names $2" grep -qF "cannot write $2: $3" "$tmp/e"
	check "unwritable --html ($1): nothing on stdout" [ ! -s "$tmp/o" ]
	check "unwritable --html ($1): no $2.partial" [ ! -e "$2.partial" ]
}
unwritable "no such directory" "$tmp/no/such/dir/x.html" "No such file or directory"
unwritable "/proc" /proc/x "No such file or directory"
mkdir "$tmp/adir"
unwritable "a directory" "$tmp/adir" "a directory, not a regular file"
mkfifo "$tmp/afifo"
unwritable "a FIFO" "$tmp/afifo" "a FIFO, not a regular file"
check "unwritable --html (a FIFO): still a FIFO" [ -p "$tmp/afifo" ]
mkdir "$new/index.html.partial"
"$sb" plot "$new" >/dev/null 2>"$tmp/e"
rc=$?
check "unwritable index.html: plot fails naming it" \
	eval "[ $rc -eq 1 ] && grep -q 'cannot write $new/index.html:' '$tmp/e'"
rmdir "$new/index.html.partial"

# --- broken fixtures: each check must catch its fault
page=$old/index.html
if [ -s "$page" ]; then
	sed 's|<body>|<body><img src="http://example.invalid/x.png" alt="">|' "$page" >"$tmp/ext.html"
	check "fixture: an external <img> is caught" eval "! self_contained '$tmp/ext.html' 2>/dev/null"
	awk '/<figure id=/ && !seen { infig = 1 }
	     infig && !seen && /<svg/ { skip = 1; print "<svg viewBox=\"0 0 10 10\"></svg>" }
	     skip { if (/<\/svg>/) { skip = 0; seen = 1 }; next } { print }' "$page" >"$tmp/empty.html"
	check "fixture: the emptied figure's page loads" load empty "$tmp/empty.html"
	check "fixture: an emptied figure is caught" eval "! drawn '$tmp/empty.dom' '$tmp/empty.html' 2>/dev/null"
	sed 's|</body>|<script>throw new Error("x")</script></body>|' "$page" >"$tmp/throw.html"
	check "fixture: the throwing page loads" load throw "$tmp/throw.html"
	check "fixture: a script error is caught" eval "! quiet throw 2>/dev/null"
fi
finish test_html
