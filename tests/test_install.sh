#!/usr/bin/env bash
# test_install.sh BUILD_DIR — `cmake --install` into a temporary prefix, then
# from outside the source tree: list, a short run, a plot (with the installed
# templates), the man page and the completion; the install still works when
# moved; without its installed templates it fails rather than fall back on
# the source checkout.
set -u
build=$1
tmp=$(mktemp -d /tmp/sb_inst.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"	# ok, bad, check

p=$tmp/prefix
cmake --install "$build" --prefix "$p" >"$tmp/install.log" 2>&1
check "cmake --install ($(tail -1 "$tmp/install.log"))" [ $? -eq 0 ]
for f in bin/stratbench share/man/man1/stratbench.1.gz share/stratbench/plots/common.gp \
	share/stratbench/plots/lines.gp share/doc/stratbench/README.md.gz \
	share/doc/stratbench/changelog.gz share/doc/stratbench/copyright \
	share/bash-completion/completions/stratbench; do
	check "installed $f" [ -s "$p/$f" ]
done
# Debian policy: man page, README and changelog gzipped -9n (no name, no
# time stamp: the same bytes at every build), the copyright file in the
# machine-readable format
for f in man/man1/stratbench.1 doc/stratbench/README.md doc/stratbench/changelog; do
	check "$f.gz is gzip without a name or time" bash -c \
		"gzip -t '$p/share/$f.gz' && [ \"\$(od -An -tx1 -j4 -N4 '$p/share/$f.gz' | tr -d ' ')\" = 00000000 ] &&
		 [ \$((\$(od -An -tu1 -j3 -N1 '$p/share/$f.gz') & 8)) -eq 0 ]"
	check "no uncompressed share/$f" [ ! -e "$p/share/$f" ]
done
empty=$(find "$p" -type d -empty)
check "no empty directory installed ($empty)" [ -z "$empty" ]
check "copyright: machine-readable" grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' \
	"$p/share/doc/stratbench/copyright"
check "copyright: Files and License" bash -c "grep -q '^Files: \*' '$p/share/doc/stratbench/copyright' &&
	grep -q '^License: ' '$p/share/doc/stratbench/copyright'"
check "changelog: the version built" bash -c "zcat '$p/share/doc/stratbench/changelog.gz' |
	head -1 | grep -qF \"stratbench (\$('$p/bin/stratbench' --version | cut -d' ' -f2))\""

# every file the installed README links (figures, docs) is installed beside it
doc=$p/share/doc/stratbench
zcat "$doc/README.md.gz" >"$tmp/README.md"
# missing_links DIR README: the plots/ and docs/ files README links that DIR lacks
missing_links() {
	local l
	for l in $(grep -oE '\]\((plots|docs)/[^)#]+' "$2" | sed 's/^](//' | sort -u); do
		[ -s "$1/$l" ] || echo "$l"
	done
}
check "the README links figures and docs" grep -qE '\]\((plots|docs)/' "$tmp/README.md"
check "the README shows its figures" grep -qE '\]\(plots/examples/[^)]+\.png\)' "$tmp/README.md"
check "installed README: every link installed ($(missing_links "$doc" "$tmp/README.md" | head -3))" \
	[ -z "$(missing_links "$doc" "$tmp/README.md")" ]
# broken fixture: a link to a file that was not installed is found
{ cat "$tmp/README.md"; echo '![x](plots/examples/no-such-figure.png)'; } >"$tmp/README.bad"
check "a link to a file not installed is caught" \
	[ "$(missing_links "$doc" "$tmp/README.bad")" = plots/examples/no-such-figure.png ]
# and the docs pages link each other and the figures (../plots/examples/)
# docs_missing DOCDIR: "PAGE: LINK" for each relative link of DOCDIR/docs/*.md
# that DOCDIR lacks (http: and the like have a ':')
docs_missing() {
	local f l
	for f in "$1"/docs/*.md; do
		for l in $(grep -oE '\]\([^):# ]+' "$f" | sed 's/^](//' | sort -u); do
			[ -s "$1/docs/$l" ] || echo "docs/${f##*/}: $l"
		done
	done
}
check "installed docs pages" [ -s "$doc/docs/running.md" ]
check "installed docs pages: every link installed ($(docs_missing "$doc" | head -3))" \
	[ -z "$(docs_missing "$doc")" ]
# broken fixture: a page linking the README as it is in a checkout (installed gzipped)
cp -r "$doc" "$tmp/docbad"
echo 'See [the README](../README.md).' >>"$tmp/docbad/docs/running.md"
check "a docs link to a file not installed is caught" \
	[ "$(docs_missing "$tmp/docbad")" = "docs/running.md: ../README.md" ]

cd "$tmp" || exit 1	# nowhere near the source tree
sb=$p/bin/stratbench
"$sb" list >list.out 2>&1
check "installed list" grep -q '^  spinlock ' list.out
check "installed --version" grep -Eq '^stratbench [0-9]+\.[0-9]+\.[0-9]+ \(git .+\)$' <("$sb" --version)
"$sb" run --strategy=null,spinlock --threads=1 --placement=compact --out=r \
	--benchmark_min_time=0.01 >run.out 2>&1
check "installed run ($(tail -1 run.out))" [ -s r/results.csv ]
"$sb" plot r >plot.out 2>&1
rc=$?
check "installed plot exits 0 (rc=$rc: $(tail -1 plot.out))" [ "$rc" -eq 0 ]
check "installed plot drew the PNG" [ -s r/plots/window-throughput-compact.png ]
check "installed plot used the installed template" \
	grep -qF "(template $p/share/stratbench/plots/lines.gp)" plot.out
if ! command -v man >/dev/null; then
	echo "test_install: man is not installed here: man -w / man -l checks skipped" >&2
else
	check "man finds stratbench(1)" [ "$(MANPATH=$p/share/man man -w stratbench)" = "$p/share/man/man1/stratbench.1.gz" ]
	check "man page documents run --out" grep -q 'out=DIR' <(MANWIDTH=80 man -l "$p/share/man/man1/stratbench.1.gz" 2>/dev/null)
fi
check "man page is roff for stratbench(1)" grep -q '^\.TH STRATBENCH 1' <(zcat "$p/share/man/man1/stratbench.1.gz")
check "installed completion registers" bash -c ". '$p/share/bash-completion/completions/stratbench' && complete -p stratbench >/dev/null"

# relocated: the templates are found relative to the binary, not a baked prefix
mv "$p" "$tmp/moved"
"$tmp/moved/bin/stratbench" plot r >plot2.out 2>&1
check "moved install plots ($(tail -1 plot2.out))" \
	grep -qF "(template $tmp/moved/share/stratbench/plots/lines.gp)" plot2.out

# broken installs fail loudly instead of using the source checkout
rm "$tmp/moved/share/stratbench/plots/lines.gp"
"$tmp/moved/bin/stratbench" plot r >plot3.out 2>&1
check "missing template: exit 1" [ $? -eq 1 ]
check "missing template: named" grep -q "no gnuplot template .*lines.gp" plot3.out
rm "$tmp/moved/share/stratbench/plots/common.gp"
"$tmp/moved/bin/stratbench" plot r >plot4.out 2>&1
check "no templates at all: exit 1" [ $? -eq 1 ]
check "no templates at all: one line" [ "$(wc -l <plot4.out)" -eq 1 ]
check "no templates at all: named" grep -q "no gnuplot templates (common.gp)" plot4.out
"$tmp/moved/bin/stratbench" plot >plot5.out 2>&1
check "plot without DIR: usage" [ $? -eq 2 ]

echo "test_install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
