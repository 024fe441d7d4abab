#!/usr/bin/env bash
# test_layers.sh SRCDIR BUILDDIR CC — scripts/layers.sh passes on the tree
# as built (every include and link edge down its room's uses line, no
# exported symbol unused, function sizes and parameter counts within
# bounds), and fails on each planted violation: an include up, a call up
# (an object of results/ calling the run's sb_gbench_stop), an export no
# other file uses, a command function of 61 lines, a function of 8
# parameters, a room without a uses line, a bench/ include in a strategy,
# DESIGN.md §2's table of rooms disagreeing with a uses line.
set -u
src=${1:?usage: test_layers.sh SRCDIR BUILDDIR CC}
build=${2:?usage: test_layers.sh SRCDIR BUILDDIR CC}
cc=${3:?usage: test_layers.sh SRCDIR BUILDDIR CC}
tmp=$(mktemp -d /tmp/sb_layers.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"	# ok, bad, check, finish
layers=$src/scripts/layers.sh

if bash "$layers" --src="$src" --build="$build" 2>"$tmp/e"; then ok
else bad "the tree: $(head -5 "$tmp/e")"; fi

# a copy of the tree's sources to plant in
plant() {
	rm -rf "$tmp/t"
	mkdir -p "$tmp/t/tests"
	cp -r "$src/bench" "$src/include" "$src/strategies" "$src/scripts" "$src/docs" "$tmp/t/"
	cp -r "$src/tests/fuzz" "$tmp/t/tests/" 2>/dev/null || true
}
# fails WHAT NEEDLE ARGS...: layers.sh exits 1 with a finding holding NEEDLE
fails() {
	local what=$1 needle=$2; shift 2
	bash "$layers" "$@" >/dev/null 2>"$tmp/e"
	local rc=$?
	if [ "$rc" -eq 1 ] && grep -qF -- "$needle" "$tmp/e"; then ok
	else bad "$what: rc=$rc, want 1 and '$needle'; stderr: $(head -3 "$tmp/e")"; fi
}

plant
echo '#include "run/gbench.h"' >>"$tmp/t/bench/results/csv.c"
fails "an include up" "bench/results/csv.c: includes run/" --src="$tmp/t"

plant
{ echo 'static int f(void)'; echo '{'; for i in $(seq 57); do echo "	(void)$i;"; done
  echo '	return 0;'; echo '}'; } >>"$tmp/t/bench/cmd/main.c"
fails "a 61-line command function" ": f is 61 lines (at most 60)" --src="$tmp/t"

plant
printf 'static int g(int a, int b, int c, int d, int e, int f, int g,\n\t     int h)\n{\n\treturn a;\n}\n' \
	>>"$tmp/t/bench/machine/sweep.c"
fails "8 parameters" "g takes 8 parameters (at most 7)" --src="$tmp/t"

plant
sed -i '/^ \* uses:/d' "$tmp/t/bench/stats/stats.h"
fails "a room without a uses line" "bench/stats: 0 headers say what it uses" --src="$tmp/t"

plant
sed -i '0,/^#include/s//#include "core\/util.h"\n#include/' "$tmp/t/strategies/lock/tas.c"
fails "a strategy including bench/" "strategies/lock/tas.c: includes a bench/ header" --src="$tmp/t"

plant
sed -i 's/^| figures\/ | \(.*\) | results stats core |$/| figures\/ | \1 | results core |/' "$tmp/t/docs/DESIGN.md"
fails "DESIGN.md's table drifting from a uses line" "docs/DESIGN.md: the room figures/ uses" --src="$tmp/t"

# link level: the build's objects, and one more in results/ that calls up
plant
mkdir -p "$tmp/b"
cp -a "$build/CMakeFiles" "$tmp/b/"
(cd "$build" && find tests -name '*.o' -exec cp -a --parents {} "$tmp/b/" \;)
printf 'void sb_gbench_stop(void);\nvoid sb_planted(void)\n{\n\tsb_gbench_stop();\n}\n' \
	>"$tmp/t/bench/results/planted.c"
"$cc" -c -o "$tmp/b/CMakeFiles/sb_harness.dir/bench/results/planted.c.o" "$tmp/t/bench/results/planted.c"
fails "a call up" "calls sb_gbench_stop of bench/run/gbench.cc, which results/ may not use" \
	--src="$tmp/t" --build="$tmp/b"
fails "an export nobody uses" "bench/results/planted.c: sb_planted is used by no other file" \
	--src="$tmp/t" --build="$tmp/b"

finish test_layers
