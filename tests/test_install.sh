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
for f in bin/stratbench share/man/man1/stratbench.1 share/stratbench/plots/common.gp \
	share/stratbench/plots/lines.gp share/doc/stratbench/README.md \
	share/bash-completion/completions/stratbench; do
	check "installed $f" [ -s "$p/$f" ]
done

# every file the installed README links (figures, docs) is installed beside it
doc=$p/share/doc/stratbench
# missing_links DIR README: the plots/ and docs/ files README links that DIR lacks
missing_links() {
	local l
	for l in $(grep -oE '\]\((plots|docs)/[^)#]+' "$2" | sed 's/^](//' | sort -u); do
		[ -s "$1/$l" ] || echo "$l"
	done
}
check "the README links figures and docs" grep -qE '\]\((plots|docs)/' "$doc/README.md"
check "installed README: every link installed ($(missing_links "$doc" "$doc/README.md" | head -3))" \
	[ -z "$(missing_links "$doc" "$doc/README.md")" ]
# broken fixture: a link to a file that was not installed is found
{ cat "$doc/README.md"; echo '![x](plots/examples/no-such-figure.png)'; } >"$tmp/README.bad"
check "a link to a file not installed is caught" \
	[ "$(missing_links "$doc" "$tmp/README.bad")" = plots/examples/no-such-figure.png ]

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
	check "man finds stratbench(1)" [ "$(MANPATH=$p/share/man man -w stratbench)" = "$p/share/man/man1/stratbench.1" ]
	check "man page documents run --out" grep -q 'out=DIR' <(MANWIDTH=80 man -l "$p/share/man/man1/stratbench.1" 2>/dev/null)
fi
check "man page is roff for stratbench(1)" grep -q '^\.TH STRATBENCH 1' "$p/share/man/man1/stratbench.1"
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
