#!/usr/bin/env bash
# check-same.sh [--base=REV] [--head=REV] [--keep] [--plant] — proof that a
# refactor changed no output: the readers of two builds, run on the same
# recorded inputs, write the same bytes.
#   --base=REV  the reference build (default: aee839e, the tree before the
#               rooms refactor of bench/)
#   --head=REV  the build under test (default: the working tree, built by
#               sb_build into build/, as scripts/run.sh builds it)
#   --keep      keep build-same/out-base, out-head and work after a pass
#               (after a failure they are always kept, for inspection)
#   --plant     append a byte to one head output before the diff: a
#               deliberately broken fixture, must report 1 file differs
# A REV is built from `git archive REV` in build-same/src-HASH/build (cmake,
# Release; built once, kept).  The inputs are recorded once with the base
# binary into build-same/inputs/BASEHASH-RECIPE/ (short runs of every
# family, a calibrate dir, the quick suite, two --ab runs, two lock runs
# for compare, a cut-short runs.jsonl.partial; counters where available)
# and kept: a rerun only runs the readers.  Then, for base and then head,
# on a fresh copy of the inputs in the same place (build-same/work/, so no
# path needs normalising): help, list, topo, counters, `run --dry-run` of
# several option sets, compare (text, markdown, csv, --html, --fail-above,
# ab.json, error cases), summary, merge, plot and plot --compare.  Each
# command's stdout, stderr and exit status go to build-same/out-SIDE/cmd/;
# every file the commands wrote or changed under work/ (plots' .dat, .gp,
# .png, .svg, index.html, compare --html pages, merge outputs) to
# out-SIDE/files/, and the list of files left under work/ to
# out-SIDE/tree.txt.  `diff -r` of the two trees decides: exit 0 and one
# line "identical", or the first lines of each differing file's diff (200
# lines in all; the whole in build-same/diff.txt) and exit 1.
# The templates (plots/*.gp) are inputs: both sides draw with the base's;
# the head's may differ from them in comment lines only (said), else fail.
# Left out: `stratbench --version` (it prints the build's git revision) and
# selftest (a benchmark: timing, not a reader).  PNG and SVG are compared:
# gnuplot draws them byte for byte the same from the same .gp and .dat.
# A dry run on this machine times a few calls (dry_run.c): its `calls:`
# line and its estimates' numbers are masked; the synthetic topologies'
# dry runs keep every number.
# It fails where it should: `scripts/check-same.sh --base=4fc9575^
# --head=4fc9575` ("dry-run: model the wall time per call; summary: c2c by
# class") reports the changed synthetic dry-run estimates and summary
# tables, while --base=2014dc8^ --head=2014dc8 (a refactor: "summary uses
# sb_median") is identical.
# Exit status: 0 identical; 1 outputs differ or a step failed; 2 usage.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# the tree before the rooms refactor of bench/
SB_SAME_BASE=aee839e1ec2ade97a4e33497fc9a983a93ebe552

usage() { SB_DIE_RC=2 sb_die "usage: check-same.sh [--base=REV] [--head=REV] [--keep] [--plant]"; }
base_rev=$SB_SAME_BASE head_rev='' keep=0 plant=0
for a in "$@"; do
	case $a in
	-h|--help) sed -n '2,40p' "$0"; exit 0 ;;
	--base=?*) base_rev=${a#--base=} ;;
	--head=?*) head_rev=${a#--head=} ;;
	--keep) keep=1 ;;
	--plant) plant=1 ;;
	*) usage ;;
	esac
done

sb_need_pkgs $SB_BUILD_PKGS
command -v gnuplot >/dev/null || sb_need_pkgs gnuplot-nox
same=$SB_ROOT/build-same
work=$same/work
start=$(date +%s)
say() { echo "check-same: $* ($(($(date +%s) - start)) s)" >&2; }

# resolve REV: its full commit hash, or a usage error
resolve() {
	git -C "$SB_ROOT" rev-parse --verify --quiet "$1^{commit}" ||
		SB_DIE_RC=2 sb_die "not a commit: $1"
}
base=$(resolve "$base_rev")
head=
[ -z "$head_rev" ] || head=$(resolve "$head_rev")
mkdir -p "$same" || sb_die "cannot create $same"

# build_rev HASH: git archive HASH into build-same/src-HASH, built in its
# build/; prints the binary.  No git repository is visible from the
# extracted tree (GIT_CEILING_DIRECTORIES), so its revision reads
# "unknown", not this checkout's.
build_rev() {
	local hash=$1 src=$same/src-$1 log=$same/build-${1:0:12}.log
	if [ ! -e "$src/.extracted" ]; then
		rm -rf "$src" && mkdir -p "$src"
		git -C "$SB_ROOT" archive "$hash" | tar -x -C "$src" || sb_die "git archive $hash failed"
		touch "$src/.extracted"
	fi
	say "building ${hash:0:12} in ${src#"$SB_ROOT"/}/build"
	(GIT_CEILING_DIRECTORIES=$same SB_ROOT=$src sb_build "$src/build" -DCMAKE_BUILD_TYPE=Release) \
		>"$log" 2>&1 || { tail -20 "$log" >&2; sb_die "building ${hash:0:12} failed (log: $log)"; }
	echo "$src/build/stratbench"
}
base_bin=$(build_rev "$base")
base_plots=$same/src-$base/plots
if [ -n "$head" ]; then
	head_bin=$(build_rev "$head")
	head_plots=$same/src-$head/plots
	head_name=${head:0:12}
else
	say "building the working tree in build/"
	(sb_build "$SB_ROOT/build") >"$same/build-worktree.log" 2>&1 ||
		{ tail -20 "$same/build-worktree.log" >&2; sb_die "building the working tree failed (log: $same/build-worktree.log)"; }
	head_bin=$SB_ROOT/build/stratbench
	head_plots=$SB_ROOT/plots
	head_name=worktree
fi

# fresh_work BIN PLOTS: an empty build-same/work with bin/stratbench (a
# link to BIN: both sides are called by the same name) and templates/ (a
# copy of PLOTS: `plot` prints and writes the templates' path, the same
# for both sides this way)
fresh_work() {
	rm -rf "$work" && mkdir -p "$work/bin" || sb_die "cannot create $work"
	ln -s "$1" "$work/bin/stratbench"
	cp -r "$2" "$work/templates"
}

# The inputs, run by the base binary in build-same/work/in/.  Short runs:
# the readers, not the numbers, are under test.  Counters: the software
# events and procfs sources (available on any Linux, PMU or not).
record_inputs() {
	r() { "$@" || { echo "record: '$*' exited $?" >&2; exit 1; }; }
	local sb=bin/stratbench quick="--benchmark_min_time=0.005 --benchmark_repetitions=3"
	local workload="--tick-us=100 --interval-ms=1 --limit=256 --fault-ns=200 --migrate-ns=1000"
	local t12="--threads=1,2 --placement=compact" cnt="--counters=task-clock,context-switches,rusage,vmstat:numa_hit"
	# two lock runs for compare and merge; b of single runs: compare's bare
	# %Change, --fail-above judged without p(U)
	r $sb run --family=lock $t12 $quick $cnt --label=a --quiet --out=in/lock-a
	r $sb run --family=lock $t12 --benchmark_min_time=0.005 $cnt --label=b --quiet --out=in/lock-b
	r $sb run --family=window --mode=both --clock=jiffies $workload $t12 $quick \
		--counters=task-clock --quiet --out=in/window
	r $sb run --family=window --strategy=spinlock,trylock,cmpxchg --mode=fidelity --clock=calls \
		$workload --threads=1 $quick --quiet --out=in/window-calls
	r $sb run --family=shootdown $t12 --batch=1,32 $quick --check \
		--counters=task-clock,irq:TLB,irq:CAL --quiet --out=in/shootdown
	r $sb run --family=baseline $t12 $quick --counters=task-clock --counters-ab --quiet --out=in/baseline
	r $sb calibrate --pairs=all $quick --out=in/calibrate
	r $sb run --family=window --ab='spinlock,trylock;trylock,trylock+lock:ticket' $t12 \
		--clock=jiffies $workload --min-pairs=20 --trial-time=0.002 --quiet --out=in/ab
	r $sb run --family=lock --ab=ticket,mcs --threads=2 --placement=compact \
		--min-pairs=20 --trial-time=0.002 --quiet --out=in/ab-lock
	r $sb run --suite=quick --quiet --out=in/suite
	# a killed run: no gbench.json, runs.jsonl.partial with its last line cut short
	r cp -r in/lock-b in/partial
	r rm in/partial/gbench.json
	r head -c -200 in/partial/runs.jsonl >in/partial/runs.jsonl.partial
	r rm in/partial/runs.jsonl
	# the suite's own plots are outputs of the recording binary: a reader
	# must write its own, or a file it no longer writes would still be
	# there on both sides
	r rm -rf in/suite/plots in/suite/index.html in/suite/kernel/plots in/suite/kernel/index.html
}
recipe=$(declare -f record_inputs | sha1sum | cut -c1-8)
inputs=$same/inputs/${base:0:12}-$recipe
if [ ! -d "$inputs" ]; then
	say "recording the inputs with ${base:0:12} into ${inputs#"$SB_ROOT"/}"
	fresh_work "$base_bin" "$base_plots"
	(cd "$work" && record_inputs) >"$same/record.log" 2>&1 ||
		{ tail -20 "$same/record.log" >&2; sb_die "recording the inputs failed (log: $same/record.log)"; }
	# an earlier recipe's inputs for this base are stale
	rm -rf "$same/inputs/${base:0:12}"-*
	mkdir -p "$same/inputs" && mv "$work/in" "$inputs"
fi

# c NAME ARGS...: run `stratbench ARGS...` in work/, its stdout, stderr
# and exit status into cmd/NAME.*; on the base side a nonzero status is
# an error (the inputs would not exercise it; a warning for another base
# than the default).  x NAME ARGS...: the same,
# any status (the error cases, --fail-above).
c() { run_cmd 1 "$@"; }
x() { run_cmd 0 "$@"; }
run_cmd() {
	local must=$1 name=$2 rc=0; shift 2
	[ ! -e "$cmd/$name.rc" ] || sb_die "two commands named $name"
	(cd "$work" && SB_PLOTS=$work/templates exec bin/stratbench "$@") </dev/null >"$cmd/$name.out" 2>"$cmd/$name.err" || rc=$?
	echo "$rc" >"$cmd/$name.rc"
	ncmd=$((ncmd + 1))
	if [ "$must" = 1 ] && [ "$rc" -ne 0 ] && [ "$side" = base ]; then
		# the commands are written for the default base's options: an
		# older base may lack one, and is only warned about
		[ "$base" != "$SB_SAME_BASE" ] ||
			sb_die "base: '$*' exited $rc: $(head -1 "$cmd/$name.err")"
		echo "check-same: warning: base: '$*' exited $rc: $(head -1 "$cmd/$name.err")" >&2
	fi
	return 0
}

readers() {
	local d syn="synthetic:pack:2 numa:1 l3:1 core:12 pu:2"
	c help help
	c help-man help --man
	for d in list topo run calibrate compare summary merge plot counters selftest help; do
		c "help-$d" "$d" --help
	done
	c list list
	c topo topo
	c topo-synthetic topo --topology="$syn" --placement=scatter --threads=4
	c counters counters
	c counters-default counters --counters=default,task-clock
	x err-counters counters --counters=nosuch

	c dry-all run --dry-run
	for d in calibrate window lock shootdown baseline; do
		c "dry-$d" run --family=$d --dry-run
	done
	c dry-threads-all run --threads=all --placement=auto --dry-run
	c dry-window-locks run --family=window --strategy=spinlock,trylock --lock=all --mode=both \
		--clock=calls --dry-run
	c dry-limits run --limits --family=lock --counters-ab --benchmark_repetitions=3 --dry-run
	c dry-suite-default run --suite=default --dry-run --out=dry/default
	c dry-suite-quick run --suite=quick --dry-run --out=dry/quick
	c dry-synthetic run --suite=default --dry-run --out=dry/syn --topology="$syn"
	c dry-synthetic-shootdown run --family=shootdown --dry-run \
		--topology="synthetic:pack:2 numa:2 core:5 pu:8"
	x err-dry-ab run --family=window --ab=spinlock,trylock --dry-run
	x err-dry-threads run --threads=0 --dry-run

	# plot --compare first: compare --html shows the figure it drew
	for d in lock-a lock-b window window-calls shootdown baseline calibrate suite suite/kernel partial; do
		c "plot-${d//\//-}" plot "in/$d"
	done
	x err-plot-ab plot in/ab
	x err-plot-ab-lock plot in/ab-lock
	x err-plot-missing plot in/nosuch
	c plot-two plot in/lock-a in/lock-b
	c plot-compare plot --compare in/lock-a in/lock-b
	c plot-compare-suite plot --compare in/window in/suite

	c cmp-lock compare in/lock-a in/lock-b
	c cmp-lock-md compare in/lock-a in/lock-b --format=markdown
	c cmp-lock-csv compare in/lock-a in/lock-b --format=csv
	c cmp-lock-rt compare in/lock-a in/lock-b --metric=real_time --format=csv
	c cmp-lock-wait compare in/lock-a in/lock-b --metric=wait_p99_ns
	c cmp-lock-html compare in/lock-a in/lock-b --html=html/lock.html
	x cmp-lock-fail compare in/lock-a in/lock-b --fail-above=1
	x cmp-lock-worse compare in/lock-a in/lock-b --metric=jain --fail-above=1 --worse=down
	c cmp-json compare in/lock-a/gbench.json in/lock-b/gbench.json
	c cmp-partial compare in/lock-a in/partial --format=csv
	c cmp-suite-window compare in/window in/suite
	c cmp-suite-window-html compare in/window in/suite --html=html/suite.html
	c cmp-shootdown compare in/shootdown in/shootdown --format=markdown
	c cmp-kernel compare in/suite/kernel in/shootdown
	c cmp-suite-self compare in/suite in/suite --format=csv
	c cmp-ab compare in/ab
	c cmp-ab-lock compare in/ab-lock
	c cmp-ab-suite compare in/suite
	c cmp-calibrate compare in/calibrate in/calibrate --metric=one_way_ns
	x err-cmp-nothing compare in/lock-a in/window
	x err-cmp-missing compare in/lock-a in/nosuch
	x err-cmp-html compare in/lock-a in/lock-b --html=nosuch/x.html

	c sum-suite summary in/suite in/suite/kernel
	c sum-suite-md summary in/suite in/suite/kernel --format=markdown
	for d in lock-a window window-calls shootdown baseline calibrate partial; do
		c "sum-$d" summary "in/$d"
	done
	x err-sum-ab summary in/ab
	c sum-locks summary in/lock-a in/lock-b --format=markdown
	x err-sum-missing summary in/nosuch

	c merge-lock merge in/lock-a in/lock-b --out=merge/lock
	c merge-lock-rt merge in/lock-a in/lock-b --metric=real_time --out=merge/lock-rt
	c merge-mixed merge in/suite in/lock-a --out=merge/mixed
	x err-merge-same merge in/suite in/window --out=merge/same
	x err-merge-exists merge in/lock-a in/lock-b --out=merge/lock
	c plot-merge-lock plot merge/lock
	c plot-merge-mixed plot merge/mixed
}

# side NAME BIN PLOTS: the readers on a fresh copy of the inputs, then
# what they wrote into build-same/out-NAME
side() {
	side=$1 cmd=$same/out-$1/cmd ncmd=0
	local out=$same/out-$1 f
	say "running the readers of $1 ($2)"
	rm -rf "$out" && mkdir -p "$cmd"
	fresh_work "$2" "$3"
	cp -r "$inputs" "$work/in" && mkdir "$work/html" "$work/merge"
	readers
	# a native dry run's measured calls (see the top)
	sed -i -E '/^calls: measured here/d; s/^(estimate: .*about )[0-9]+ s/\1N s/;
		s/^(suite [a-z]+: about )[0-9]+ s/\1N s/; s/about [0-9]+ s instead of [0-9]+ s/about N s instead of N s/' \
		$(ls "$cmd"/dry-*.out | grep -v synthetic)
	(cd "$work" && find . -path ./bin -prune -o -path ./templates -prune -o -print |
		LC_ALL=C sort) >"$out/tree.txt"
	# the files written or changed: whatever differs from the inputs
	(cd "$work" && find . -path ./bin -prune -o -path ./templates -prune -o -type f -print) |
		while IFS= read -r f; do
			case $f in
			./in/*) ! cmp -s "$work/$f" "$inputs/${f#./in/}" 2>/dev/null || continue ;;
			esac
			mkdir -p "$out/files/$(dirname "$f")" && cp "$work/$f" "$out/files/$f"
		done
}
# The gnuplot templates are inputs too: both sides draw with the base's,
# so the diff is of the code alone.  The head's own templates must equal
# them but for comment lines (a comment may name a source file the
# refactor moved; the .gp files carry it verbatim); any other change is a
# difference, said here.
tpl_note='' tpl_rc=0
for f in "$base_plots"/*.gp "$head_plots"/*.gp; do
	n=$(basename "$f")
	if ! cmp -s "$base_plots/$n" "$head_plots/$n"; then
		if [ -f "$base_plots/$n" ] && [ -f "$head_plots/$n" ] &&
			diff -q <(grep -v '^[[:space:]]*#' "$base_plots/$n") \
				<(grep -v '^[[:space:]]*#' "$head_plots/$n") >/dev/null; then
			tpl_note="$tpl_note $n"
		else
			echo "check-same: plots/$n differs beyond its comments" >&2
			tpl_rc=1
		fi
	fi
done
tpl_note=$(echo "$tpl_note" | tr ' ' '\n' | sort -u | tr '\n' ' ')
[ -z "${tpl_note// /}" ] ||
	echo "check-same: plots/ templates differ in comments only:${tpl_note% } (drawn with the base's)" >&2
side base "$base_bin" "$base_plots"
side head "$head_bin" "$base_plots"
[ "$keep" = 1 ] || rm -rf "$work"

if [ "$plant" = 1 ]; then
	printf 'x' >>"$same/out-head/cmd/sum-suite.out"
	echo "check-same: --plant: appended a byte to out-head/cmd/sum-suite.out" >&2
fi
nfiles=$(find "$same/out-base" -type f | wc -l)
label="base ${base:0:12}, head $head_name"
rc=0
(cd "$same" && diff -rq out-base out-head) >"$same/diff-files.txt" 2>&1 || rc=$?
if [ "$rc" -eq 0 ] && [ "$tpl_rc" -eq 0 ]; then
	[ "$keep" = 1 ] || rm -rf "$same/out-base" "$same/out-head" "$same/diff-files.txt" "$same/diff.txt"
	say "done"
	echo "check-same: identical: $nfiles files from $ncmd commands ($label)"
	exit 0
fi
# the first lines of each file's diff, 200 lines in all; the whole in diff.txt
(cd "$same" && diff -r out-base out-head >diff.txt || true
	while IFS= read -r l; do
		case $l in
		"Files "*" and "*" differ")
			set -- $l
			diff -u --label "$2" --label "$4" "$2" "$4" | head -12 || true ;;
		*) echo "$l" ;;
		esac
	done <diff-files.txt) | head -200
echo "... (the whole diff: $same/diff.txt)"
ndiff=$(wc -l <"$same/diff-files.txt")
echo "check-same: $ndiff files differ ($label; trees kept in build-same/out-base, out-head)"
exit 1
