#!/usr/bin/env bash
# test_bad_input.sh STRATBENCH — one table of bad invocations across every
# command.  Each must exit 2 (usage), with exactly one line on stderr that
# holds NEEDLE (the problem, and where it says so, what would be accepted),
# never crash (no signal, no sanitizer report), and leave no results behind:
# every `run`/`calibrate` row gets --out=DIR added and DIR must not hold a
# results file or a .partial afterwards; a usage error must not even create
# DIR.  Run-time failures (exit 1: thread
# creation, CPU affinity, lost counters) are test_faults' and test_cli's.
# In ARGS, $T is a scratch directory of the row (words split as the shell
# does); $tmp/fifo is a FIFO, $tmp/huge.xml a sparse 65 MiB file.
# Each row answers at once: it runs under a 20 s timeout and, where the
# build allows one (not under a sanitizer), a 4 GiB address-space cap, so
# an input read without end fails its row instead of eating the machine.
set -u
sb=$1
tmp=$(mktemp -d /tmp/sb_bad.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 n=0
mkfifo "$tmp/fifo"
truncate -s 65M "$tmp/huge.xml"
cap=unlimited
(ulimit -v 4194304 && "$sb" --version) >/dev/null 2>&1 && cap=4194304

# needle | args
while IFS='|' read -r needle args; do
	case $needle in ''|'#'*) continue ;; esac
	needle=${needle%% } args=${args# }
	n=$((n + 1))
	T=$tmp/case$n
	mkdir -p "$T"
	touch "$T/afile"
	mkdir "$T/held" && echo '{}' >"$T/held/run.json"	# a directory holding results
	eval "set -- $args"
	out=()
	case $1 in run|calibrate)
		[[ " $* " == *" --out="* || " $* " == *" --resume="* ]] || out=(--out="$T/out") ;;
	esac
	(ulimit -v "$cap" && exec timeout 20 "$sb" "$@" "${out[@]}") >"$T/stdout" 2>"$T/stderr"
	rc=$?
	lines=$(wc -l <"$T/stderr")
	why=
	[ "$rc" -eq 2 ] || why="exit $rc, want 2"
	[ -n "$why" ] || [ "$lines" -eq 1 ] || why="$lines lines on stderr, want 1"
	[ -n "$why" ] || grep -qF -- "$needle" "$T/stderr" || why="no '$needle' on stderr"
	[ -n "$why" ] || ! grep -q "Sanitizer\|runtime error" "$T/stderr" || why="sanitizer report"
	if [ -z "$why" ] && [ ${#out[@]} -gt 0 ] &&
		ls "$T/out"/{gbench.json,results.csv,runs.jsonl}* >/dev/null 2>&1; then
		why="results written to $T/out"
	fi
	# a usage error creates nothing: not even the directory
	[ -n "$why" ] || [ ${#out[@]} -eq 0 ] || [ ! -e "$T/out" ] || why="$T/out was created"
	if [ -z "$why" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAILED: stratbench $args: $why: $(head -2 "$T/stderr" | tr '\n' ' ')" >&2
	fi
done <<'TABLE'
# --- commands and their words
unknown command 'frobnicate' | frobnicate
unknown option '--x' | list --x
unexpected argument 'x' | list x
needs --placement | topo --threads=2
unknown option '--strategy=x' | topo --strategy=x
unknown placement 'diagonal' | topo --placement=diagonal --threads=1
no command 'nosuch' | help nosuch
takes no command | help --man run
unknown option '--strategy=x' | selftest --strategy=x
bad value | selftest --benchmark_repetitions=0
needs a results directory | plot
needs two results | plot --compare a
# --- run: what to run
unknown strategy 'nosuch' | run --strategy=nosuch
unknown family 'nosuch' (want calibrate, window, lock, shootdown, baseline) | run --family=nosuch
unknown lock 'nosuch' | run --strategy=spinlock --lock=nosuch
unknown option '--nosuch' | run --nosuch
want a non-empty | run --strategy=
bad value in '--threads=': want a non-empty | run --strategy=null --threads=
bad thread count | run --threads=1,,x --strategy=null
bad thread count | run --strategy=null --threads=most
threads but this machine has | run --threads=100000 --strategy=null
bad CPU list | run --placement=list:0-x --strategy=null
does not exist | run --placement=list:4000 --strategy=null
not this machine | run --topology="synthetic:pack:1 core:2 pu:1" --strategy=null
too large | run --topology="synthetic:pack:1000 core:1000 pu:1000" --strategy=null
NUMA node 7 does not exist | run --home-node=7 --strategy=null
want a whole number from 0 to 2147483647 | run --strategy=null --home-node=4294967296
# --- run: where results go
cannot create output directory | run --strategy=null --out=$T/afile/x
drop --benchmark_out | run --strategy=null --out=$T/z --benchmark_out=$T/x
cannot write | run --strategy=null --benchmark_out=/no/dir/x
not a regular file (a directory) | run --strategy=null --benchmark_out=$T
matches none of the |  run --strategy=null --benchmark_filter=zzz
matches none of the |  run --strategy=null --threads=1,2 --benchmark_filter=zzz
bad value | run --strategy=null --label=a/b
bad value | run --strategy=null --cv-threshold=-1
run.json | run --resume=$T
# --- Google Benchmark's flags, checked before it sees them
CSV reporter aborts | run --strategy=null --benchmark_out=$T/x --benchmark_out_format=csv
CSV reporter aborts | run --strategy=null --benchmark_format=csv
bad value | run --strategy=null --benchmark_repetitions=-1
bad value | run --strategy=null --benchmark_format=bogus
bad value | run --strategy=null --benchmark_min_time=abc
unknown option '--benchmark_nosuch=1' | run --strategy=null --benchmark_nosuch=1
# --- window family
want a whole number from 1 to | run --strategy=spinlock --limit=-3
want a whole number from 1 to | run --strategy=spinlock --limit=99999999999999999999999
want a number from | run --strategy=spinlock --interval-ms=nan
is a flag and takes no value | run --strategy=spinlock --exact=1
bad value in '--clock=sundial': want one of | run --strategy=trylock --clock=sundial
bad value in '--mode=fast' | run --strategy=trylock --mode=fast
bad value in '--migrate-ns=-5' | run --strategy=trylock --migrate-ns=-5
--tick-us applies to --clock=jiffies or calls only | run --strategy=trylock --tick-us=100
--tick-calls applies to --clock=calls only | run --strategy=trylock --clock=jiffies --tick-calls=10
bad value in '--tick-calls=0' | run --strategy=trylock --clock=calls --tick-calls=0
shorter than one jiffies tick | run --strategy=trylock --clock=jiffies --interval-ms=0.5
# --- lock family
want a number from 0 to 1e+09 | run --family=lock --crit=inf
want a number from 0 to 1e+09 | run --family=lock --crit=1e12
want a whole number from 0 to 4096 | run --family=lock --crit-lines=5000
# --- shootdown families (simulated and kernel)
bad value in '--batch=0' | run --family=shootdown --batch=0
want a comma list | run --family=shootdown --batch=1,,2
bad value in '--batch=513' | run --family=shootdown --strategy=kernel-madvise --batch=513
is above --pages=64 | run --family=shootdown --pages=64 --batch=8,128
bad value in '--ipi=nmi' | run --family=shootdown --ipi=nmi
bad value in '--initiator=none' | run --family=shootdown --initiator=none
bad value in '--write-ratio=1.5' | run --family=shootdown --write-ratio=1.5
bad value in '--pages=0' | run --family=shootdown --pages=0
# --- counters
unknown counter 'cyclez' | run --strategy=null --counters=cyclez
malformed tracepoint 'tlb:' | run --strategy=null --counters=tlb:
cannot be combined | run --strategy=null --counters=none,cycles
empty counter name | run --strategy=null --counters=cycles,
kernel only | run --strategy=null --counters=cs:u
unknown option '--bogus' | counters --bogus
# --- calibrate, compare, merge
unknown option '--family=lock' | calibrate --family=lock
bad value | calibrate --pairs=bogus
compare needs two results | compare $T
cannot read | compare $T/nosuch $T/nosuch2
bad value | compare $T $T --format=xml
takes at most 2 (got | compare $T $T $T
cannot write /proc/x: No such file or directory | compare $T $T --html=/proc/x
: a directory, not a regular file | compare $T $T --html=$T
# --- one line, before anything else is printed or created (issue 20)
repeats '--threads=1' with another value | run --strategy=null --threads=1 --threads=2
repeats '--clock=cycles' with another value | run --strategy=trylock --clock=cycles --clock=jiffies
repeats '--out= | run --strategy=null --out=$T/a --out=$T/b
repeats '--benchmark_min_time=0.1' | run --strategy=null --benchmark_min_time=0.1 --benchmark_min_time=0.2
repeats '--benchmark_filter=a' | run --strategy=null --benchmark_filter=a --benchmark_filter=b
repeats '--benchmark_repetitions=2' | calibrate --benchmark_repetitions=2 --benchmark_repetitions=3
repeats '--metric=a' | compare $T $T --metric=a --metric=b
repeats '--placement=compact' | topo --placement=compact --placement=scatter
want true or false | run --strategy=null --benchmark_enable_random_interleaving=maybe
want true or false | run --strategy=null --benchmark_list_tests=yes
want true or false | run --strategy=null --benchmark_report_aggregates_only=1
not an extended regular expression | run --strategy=null '--benchmark_filter=('
not an extended regular expression | run --strategy=null --benchmark_filter=-[z
takes at most 16 (got '17' as number 17) | merge 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 --out=$T/m
bad value in '--threads=0': want one thread count | topo --placement=compact --threads=0
bad value in '--threads=two': want one thread count | topo --placement=compact --threads=two
cannot create output directory '/proc/nope' | run --strategy=kernel-move_pages,null --threads=1 --out=/proc/nope
already holds results (run.json) | run --strategy=kernel-move_pages,null --threads=1 --out=$T/held
/dev/null: a character device | compare /dev/null $T
/dev/null: a character device | merge /dev/null $T --out=$T/m
# --- a topology file gets the same bounded reader (issue 25)
/dev/zero: a character device: a topology file must be a regular file | topo --topology=xml:/dev/zero
/dev/zero: a character device: a topology file must be a regular file | run --strategy=null --topology=xml:/dev/zero
fifo: a FIFO: a topology file must be a regular file | topo --topology=xml:$tmp/fifo
fifo: a FIFO: a topology file must be a regular file | run --strategy=null --topology=xml:$tmp/fifo
huge.xml: 68157440 bytes: over the 64 MiB a topology file may hold | topo --topology=xml:$tmp/huge.xml
a directory: a topology file must be a regular file | topo --topology=xml:$T
nosuch.xml: cannot read: No such file | topo --topology=xml:$T/nosuch.xml
TABLE

echo "test_bad_input: $n invocations"
echo "test_bad_input: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$n" -ge 80 ]
