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
# compared point, each noisy side marked.  index.html answers first: the
# sections in order (verdicts, figures, medians, machine, files); the
# summary text exactly as `stratbench summary DIR DIR/kernel` prints it;
# a row per ab.json comparison and metric with its interval and verdict;
# the kernel stage's figures (DIR/kernel) drawn, its page linked; a link
# to every file of the run, each resolving; at 1400 px no table wider than
# its box and no page scroll (measured by a copy of the page with a
# script); the calibrate table holds each c2c pair's one-way ns as
# results.csv has it.  Broken fixtures: an injected external <img>, a
# figure emptied of its paths, an inline script that throws, and a DOM
# with each new section removed or out of order, a dangling link, a wide
# table, n/a for one-way ns: each must make its check fail.  A page that
# cannot be written is one line naming the file.
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
	# href: #…, data: or a file of the run (relative, no ..: links())
	grep -Eo "href[[:space:]]*=[[:space:]]*(\"[^\"]*\"|'[^']*'|[^[:space:]>]+)" "$1" |
		sed -E "s/^[^=]*=[[:space:]]*[\"']?//; s/[\"']$//" |
		awk '!/^(#|data:)/ && (!/^[A-Za-z0-9._~%-]+(\/[A-Za-z0-9._~%-]+)*$/ || /(^|\/)\.\.(\/|$)/)'
	grep -Eo "src[[:space:]]*=[[:space:]]*(\"[^\"]*\"|'[^']*'|[^[:space:]>]+)" "$1" |
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

# in_order PAGE: the report's sections, the answer first
in_order() {
	local id last=0 at
	for id in verdicts summary ab figures families noisy machine files; do
		at=$(grep -n -m1 "<h[23] id=\"$id\"" "$1" | cut -d: -f1)
		[ -n "$at" ] && [ "$at" -gt "$last" ] || { echo "  section $id at line '${at}', after line $last" >&2; return 1; }
		last=$at
	done
}
# unhtml: text of the page's markup, entities back to characters
unhtml() { sed -e 's/<[^>]*>//g; s/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&#39;/'"'"'/g; s/&amp;/\&/g'; }
# summarized DOM DIR...: the page's summary text is `stratbench summary DIR...`
# up to its list of files (the page has its own)
summarized() {
	local dom=$1
	shift
	"$sb" summary "$@" | sed '/^Files:$/,$d' >"$tmp/sum.want" || return 1
	sed -n '/<pre class="summary-text">/,/<\/pre>/p' "$dom" | unhtml | sed '${/^$/d}' >"$tmp/sum.got"
	[ -s "$tmp/sum.want" ] && diff -q "$tmp/sum.want" "$tmp/sum.got" >/dev/null ||
		{ echo "  summary differs: $(diff "$tmp/sum.want" "$tmp/sum.got" | head -3 | tr '\n' ' ')" >&2; return 1; }
}
# ab_listed DIR DOM: a row per comparison and metric of DIR/ab.json, each
# with its interval and verdict
ab_listed() {
	local want got
	want=$(grep -c '"metric": "' "$1/ab.json")
	got=$(sed -n '/<table class="ab">/,/<\/table>/p' "$2" | tr -d '\n' | sed 's|</tr>|&\n|g' |
		grep -cE '<td class="n">\[[-+0-9.]+, [-+0-9.]+\] 95 %</td><td class="verdict">(changed|~)</td>')
	[ "$want" -gt 0 ] && [ "$got" -eq "$want" ] || { echo "  A/B rows $got, ab.json has $want" >&2; return 1; }
}
# kernel_drawn DIR DOM PAGE: DIR/kernel's figures, each drawn, and its page linked
kernel_drawn() {
	local want
	want=$(ls "$1/kernel/plots/"*.svg 2>/dev/null | wc -l)
	grep -o '<figure id="fig-kernel-[^"]*"' "$3" >"$tmp/kfig.ids"
	[ "$want" -gt 0 ] && [ "$(wc -l <"$tmp/kfig.ids")" -eq "$want" ] ||
		{ echo "  kernel figures: $(wc -l <"$tmp/kfig.ids"), want $want" >&2; return 1; }
	grep -q '<a href="kernel/index.html">' "$2" || { echo "  no link to kernel/index.html" >&2; return 1; }
}
# hrefs PAGE: the page's links to files of the run
hrefs() { grep -o '<a href="[^#"][^"]*"' "$1" | cut -d'"' -f2 | sed 's/%20/ /g'; }
# linked DIR PAGE LIST: every file of LIST (paths relative to DIR) linked
linked() {
	local f rc=0
	hrefs "$2" | sort -u >"$tmp/hrefs"
	while read -r f; do
		grep -qxF "$f" "$tmp/hrefs" || { echo "  not linked: $f" >&2; rc=1; }
	done <"$3"
	return "$rc"
}
# resolve DIR PAGE: every link to a file names one of DIR
resolve() {
	local f rc=0
	for f in $(hrefs "$2"); do
		[ -f "$1/$f" ] || { echo "  dangling link: $f" >&2; rc=1; }
	done
	return "$rc"
}
# measure NAME PAGE: a copy of PAGE with a script that writes, into the
# DOM, the page's width and each table box and <pre> wider than it shows
# at a 1400-pixel window; $tmp/NAME.dom
measure() {
	awk -v js="$measure_js" '/<\/body>/ { print "<script>" js "</script>" } { print }' "$2" >"$(dirname "$2")/$1.html"
	chrome --window-size=1400,1000 --dump-dom "file://$(dirname "$2")/$1.html" >"$tmp/$1.dom" 2>/dev/null
	rm -f "$(dirname "$2")/$1.html"
}
measure_js='addEventListener("load", function () { var o = [];
 if (document.documentElement.scrollWidth > 1400) o.push("page " + document.documentElement.scrollWidth);
 document.querySelectorAll("div.tbl, table.kv, pre").forEach(function (e) {
  if (e.scrollWidth > e.clientWidth + 1) o.push(e.className + " " + e.scrollWidth + "/" + e.clientWidth); });
 var p = document.createElement("p"); p.id = "measured"; p.textContent = "wide: " + o.join("; ");
 document.body.appendChild(p); });'
# fits NAME: nothing wider than 1400 px or than its box
fits() {
	grep -q '<p id="measured">wide: </p>' "$tmp/$1.dom" ||
		{ echo "  $(grep -o '<p id="measured">[^<]*' "$tmp/$1.dom" | cut -d'>' -f2)" >&2; return 1; }
}
# cells DOM NAME: the calibrate table's cells of the row titled NAME (the
# header's for "head"), one a line
cells() {
	sed -n '/<h3 id="family-calibrate">/,/<\/table>/p' "$1" | tr -d '\n' | sed 's|</tr>|&\n|g' |
		if [ "$2" = head ]; then grep '<th>'; else grep -F "<td title=\"$2\">"; fi |
		sed -E 's|</t[dh]>|\n|g' | sed -E 's/.*<t[dh][^>]*>//' | head -n -1
}
# one_way DIR DOM: each c2c pair's one-way ns in the calibrate table as
# results.csv has it (4 significant digits), never n/a
one_way() {
	local c n k v name got at rc=0
	c=$1/results.csv n=$(col "$c" name) k=$(col "$c" one_way_ns)
	at=$(cells "$2" head | grep -nx 'one-way ns (median)' | cut -d: -f1)
	[ -n "$at" ] || { echo "  no one-way ns column" >&2; return 1; }
	while IFS=, read -r name v; do
		got=$(cells "$2" "$name" | sed -n "${at}p" | unhtml)
		[ "$got" = "$(printf '%.4g' "$v")" ] || { echo "  $name: one-way '$got', results.csv $v" >&2; rc=1; }
	done < <(awk -F, -v n="$n" -v k="$k" 'NR > 1 && $k != "" { print $n "," $k }' "$c")
	return "$rc"
}

# --- two short real runs: OLD with every point noisy (CV threshold 0.001 %),
# NEW with the default threshold
run() {
	"$sb" run --family=window --strategy=spinlock,trylock --threads=1,2 \
		--benchmark_min_time=0.01 --benchmark_repetitions=3 --out="$1" "${@:2}" \
		>"$tmp/run.out" 2>&1 || { cat "$tmp/run.out" >&2; return 1; }
}
# NEW as a suite leaves it: a paired A/B in the same directory (the seed
# stage) and a stage in NEW/kernel (simulated shootdowns: any lab has them);
# CAL: c2c pairs, for the calibrate table against the heatmap's values
old=$tmp/old new=$tmp/new cal=$tmp/cal
check "run OLD" run "$old" --cv-threshold=0.001
check "run NEW" run "$new"
quiet_run() { "$sb" run "$@" --quiet >"$tmp/run.out" 2>&1 || { cat "$tmp/run.out" >&2; return 1; }; }
check "run --ab into NEW" quiet_run --ab=spinlock,trylock --family=window --threads=1 \
	--placement=compact --trial-time=0.002 --counters=none --out="$new"
check "run NEW/kernel" quiet_run --family=shootdown --strategy=immediate,batched --threads=1,2 \
	--batch=1,32 --benchmark_min_time=0.005 --benchmark_repetitions=2 --out="$new/kernel"
check "run CAL" quiet_run --family=calibrate --strategy=c2c --benchmark_min_time=0.01 --out="$cal"
"$sb" plot "$old" "$new" "$cal" >"$tmp/plot.out" 2>&1
rc=$?
check "plot OLD NEW CAL exits 0 ($(head -c 300 "$tmp/plot.out"))" [ "$rc" -eq 0 ]
# the files each page had to link: those there when it was written
for d in old new; do
	(cd "$tmp/$d" && find . -type f ! -name index.html ! -name '*.partial' ! -name '.*' | sed 's|^\./||' |
		sort) >"$tmp/$d.files"
done
# the page's summary does not depend on what an earlier plot left in DIR
summary_block() { sed -n '/<pre class="summary-text">/,/<\/pre>/p' "$1"; }
summary_block "$tmp/old/index.html" >"$tmp/sum1.html"
"$sb" plot "$old" >/dev/null 2>&1
check "a re-plot's summary is the first plot's" cmp -s "$tmp/sum1.html" <(summary_block "$tmp/old/index.html")
"$sb" plot "$new/kernel" >"$tmp/plotk.out" 2>&1
check "plot NEW/kernel exits 0 ($(head -c 300 "$tmp/plotk.out"))" [ $? -eq 0 ]
for d in old new; do
	page=$tmp/$d/index.html
	nfig=0
	for f in "$tmp/$d/plots/"*.svg "$tmp/$d/kernel/plots/"*.svg; do
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
	check "$d: verdicts, figures, medians, noisy, machine, files in order" in_order "$tmp/$d.dom"
	check "$d: a link to every file of the run" linked "$tmp/$d" "$tmp/$d.dom" "$tmp/$d.files"
	check "$d: every link to a file resolves" resolve "$tmp/$d" "$tmp/$d.dom"
done
check "OLD: every point noisy" [ "$(noisy_names "$old" | wc -l)" -eq 4 ]
check "OLD: the summary as \`summary OLD\` prints it" summarized "$tmp/old.dom" "$old"
check "OLD: no ab.json, said" grep -q 'No paired A/B comparison' "$tmp/old.dom"
check "OLD: no kernel stage, none shown" eval "! grep -q 'fig-kernel-' '$tmp/old.dom'"
check "NEW: the summary as \`summary NEW NEW/kernel\` prints it" summarized "$tmp/new.dom" "$new" "$new/kernel"
check "NEW: ab.json's comparisons with interval and verdict" ab_listed "$new" "$tmp/new.dom"
check "NEW: the kernel stage's figures drawn, its page linked" kernel_drawn "$new" "$tmp/new.dom" "$new/index.html"
measure wide "$new/index.html"
check "NEW: at 1400 px every table and the page fit" fits wide
check "CAL: the calibrate table has results.csv's one-way ns" one_way "$cal" "$cal/index.html"

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
	grep -cE '<td class="n">(\[[-+0-9.e]+, [-+0-9.e]+\] (changed|~)|n too small: need 3|n/a|preempted: on CPU [0-9]+ %(; steal [0-9]+ %)?)</td>')
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
# the report's sections: NEW's DOM with one taken out, each must be caught
# drop FROM TO: the DOM of NEW without the lines FROM..TO (regexes)
drop() { awk -v a="$1" -v b="$2" '$0 ~ a { skip = 1 } !skip { print } skip && $0 ~ b { skip = 0 }' "$tmp/new.dom"; }
if [ -s "$tmp/new.dom" ]; then
	drop '<pre class="summary-text">' '</pre>' >"$tmp/f.dom"
	check "fixture: no summary text is caught" eval "! summarized '$tmp/f.dom' '$new' '$new/kernel' 2>/dev/null"
	check "fixture: the summary without the kernel stage is caught" \
		eval "! summarized '$tmp/new.dom' '$new' 2>/dev/null"
	drop '<table class="ab">' '</table>' >"$tmp/f.dom"
	check "fixture: no A/B table is caught" eval "! ab_listed '$new' '$tmp/f.dom' 2>/dev/null"
	sed 's|<td class="verdict">~</td>|<td class="verdict"></td>|; s|<td class="verdict">changed</td>|<td class="verdict"></td>|' \
		"$tmp/new.dom" >"$tmp/f.dom"
	check "fixture: an A/B row without its verdict is caught" eval "! ab_listed '$new' '$tmp/f.dom' 2>/dev/null"
	drop '<h3 id="kernel-stage">' '<h2 id="families">' >"$tmp/f.dom"
	check "fixture: no kernel stage is caught" eval "! kernel_drawn '$new' '$tmp/f.dom' '$tmp/f.dom' 2>/dev/null"
	sed 's|<h2 id="verdicts">|<h2 id="xverdicts">|; s|<h2 id="files">|<h2 id="verdicts"></h2>&|' "$tmp/new.dom" >"$tmp/f.dom"
	check "fixture: the verdicts after the files are caught" eval "! in_order '$tmp/f.dom' 2>/dev/null"
	sed 's|<a href="ab.json">ab.json</a>||' "$tmp/new.dom" >"$tmp/f.dom"
	check "fixture: a file not linked is caught" eval "! linked '$new' '$tmp/f.dom' '$tmp/new.files' 2>/dev/null"
	sed 's|<a href="ab.json">|<a href="nosuch.json">|' "$tmp/new.dom" >"$tmp/f.dom"
	check "fixture: a dangling link is caught" eval "! resolve '$new' '$tmp/f.dom' 2>/dev/null"
	sed "s|<h2 id=\"files\">|<table><tr><td style='white-space:nowrap'>$(printf 'wide %.0s' $(seq 400))</td></tr></table>&|" \
		"$new/index.html" >"$tmp/widefix.html"
	measure widefix "$tmp/widefix.html"
	check "fixture: a table wider than 1400 px is caught" eval "! fits widefix 2>/dev/null"
fi
if [ -s "$cal/index.html" ]; then
	sed -E 's|(<td class="n">)[0-9.e+]+(</td><td class="flag">)|\1n/a\2|' \
		"$cal/index.html" >"$tmp/f.html"
	check "fixture: one-way ns as n/a is caught" eval "! one_way '$cal' '$tmp/f.html' 2>/dev/null"
fi
finish test_html
