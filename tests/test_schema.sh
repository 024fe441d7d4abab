#!/usr/bin/env bash
# test_schema.sh STRATBENCH SCHEMA_KEYS [RESULTS_MD] — docs/results.md and
# the writers agree both ways: every field a results directory holds is
# documented in the table of its file, and every field documented is
# written.  Short real runs cover every family and mode (--limits'
# calibration, window throughput and fidelity with every window option,
# lock with its options, the simulated shootdown with every option,
# kernel-madvise and kernel-move_pages, baseline, --counters-ab, a failed
# run, a --resume, a run as another user than root, a merge); the fields
# are collected from results.csv (header and extra), gbench.json,
# runs.jsonl, windows.jsonl, run.json, machines.csv, merge.json and a
# run --ab's ab.json
# (schema_keys.c prints every key path, sb_points' text included).  A
# documented name with '*' is a glob (cnt:*) and must match a written
# name.  What this machine cannot write is listed below with the reason,
# printed at run time ("not written here: ..."), never silently.  The
# checker is checked: copies of the page with one row deleted, a row
# invented, a pattern invented and a marker without a table must fail.
# Needs 2 CPUs (pairs, responders, a thread outside the affinity): with one
# it says so and exits 77.
set -u
sb=$1
keys=$2
doc=${3:-$(dirname "$0")/../docs/results.md}
tmp=$(mktemp -d /tmp/sb_schema.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"	# ok, bad, check, finish

if [ "$(nproc)" -lt 2 ]; then
	echo "test_schema: skipped: needs 2 CPUs (CPU pairs, responders, a CPU outside the affinity), have $(nproc)"
	exit 77
fi
check "$doc exists" [ -f "$doc" ]
start=$(date +%s)

# run NAME RC ARGS...: stratbench ARGS, exit status RC wanted
run() {
	local name=$1 want=$2 rc; shift 2
	"$@" >"$tmp/$name.out" 2>&1
	rc=$?
	check "$name exits $want (rc=$rc: $(grep -m1 -i 'error\|refus\|cannot' "$tmp/$name.out"))" \
		[ "$rc" -eq "$want" ]
}
short=(--benchmark_min_time=0.01 --quiet --placement=compact)

# a: the calibration (--limits, sampled pairs), window throughput and
# fidelity, lock with every lock option, the simulated shootdown with every
# option, the kernel drivers (move_pages skips itself on one NUMA node),
# baseline (pthread_spin is a lock and a baseline); 2 repetitions: aggregates
run a 0 "$sb" run --limits --pairs=sample \
	--strategy=trylock,ticket,pthread_spin,immediate,kernel-madvise,kernel-move_pages \
	--threads=1,2 --mode=both --interval-ms=0.1 --limit=64 \
	--crit=20 --par=20 --crit-lines=1 --trylock \
	--pages=64 --write-ratio=0.25 --access=uniform --ipi=signal --initiator=shared --ceiling=8 \
	--check --batch=4 --benchmark_repetitions=2 --label=schema-a --out="$tmp/a" "${short[@]}"
# b: the window options that become parameters (--clock=calls: clock and
# tick as jiffies gives them, and tick_calls), and --counters-ab
run b 0 "$sb" run --family=window --strategy=cmpxchg --threads=1 --mode=fidelity \
	--interval-ms=0.1 --limit=32 --exact --clock=calls --tick-us=20 --tick-calls=10 \
	--migrate-ns=5 --fault-ns=5 \
	--counters-ab --label=schema-b --out="$tmp/b" "${short[@]}"
# c: a failed run (a plan CPU outside the affinity): error_occurred, error_message
if command -v taskset >/dev/null; then
	run c 1 taskset -c 0 "$sb" run --family=baseline --threads=1,2 --counters=none \
		--label=schema-c --out="$tmp/c" "${short[@]}"
fi
# d: --resume of b with its last benchmark undone: sb_resumed
cp -r "$tmp/b" "$tmp/d"
sed -i 's/"complete": true/"complete": false/' "$tmp/d/run.json"
sed -i '$d' "$tmp/d/runs.jsonl"
run d 0 "$sb" run --resume="$tmp/d" --quiet
# n: as another user than root (the default set then leaves the tracepoints
# out and says so: sb_counters_note); as root, run as nobody when setpriv can
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	chmod 711 "$tmp" && mkdir -m 777 "$tmp/nobody"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$sb" run --family=baseline --threads=1 \
		--label=schema-n --out="$tmp/nobody/n" "${short[@]}" >"$tmp/n.out" 2>&1
fi
# ab: a paired comparison (window: both metrics; the window options as parameters)
run ab 0 "$sb" run --family=window --ab=spinlock,trylock --threads=1 --trial-time=0.002 \
	--clock=jiffies --tick-us=20 --migrate-ns=5 --fault-ns=5 --interval-ms=0.1 --limit=32 \
	--precision=1000 --label=schema-ab --out="$tmp/ab" --quiet --placement=compact
# m: merge
run m 0 "$sb" merge "$tmp/a" "$tmp/b" --out="$tmp/m"
for f in a/gbench.json a/results.csv a/runs.jsonl a/windows.jsonl a/run.json b/windows.jsonl \
	d/gbench.json m/machines.csv m/merge.json ab/ab.json; do
	check "$f written" [ -s "$tmp/$f" ]
done
grep -h '"sb_numa_nodes"' "$tmp/a/gbench.json" | head -1 >"$tmp/nodes"
nodes=$(grep -o '[0-9][0-9]*' "$tmp/nodes")
if [ "${nodes:-1}" -lt 2 ]; then
	check "kernel-move_pages skipped, said so" grep -q "kernel-move_pages: skipped" "$tmp/a.out"
fi

# --- what was written: "SECTION<TAB>NAME<TAB>WHERE" lines ------------------
w=$tmp/written
: >"$w"
# header columns of a CSV (fields before any quoted one are comma-free)
for f in a/results.csv b/results.csv d/results.csv c/results.csv; do
	[ -f "$tmp/$f" ] || continue
	head -1 "$tmp/$f" | tr ',' '\n' | awk -v f="$f" '{ print "results.csv\t" $0 "\t" f }' >>"$w"
	# extra's counter names: the column before label (name=value;...)
	awk -F, -v f="$f" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "extra") x = i; next }
		x && $x != "" { n = split($x, kv, ";"); for (k = 1; k <= n; k++) {
			sub(/=.*/, "", kv[k]); print "csv-extra\t" kv[k] "\t" f } }' "$tmp/$f" >>"$w"
	# the counter columns, ops_per_s .. of_flush_rtt, are counters too
	head -1 "$tmp/$f" | tr ',' '\n' | sed -n '/^ops_per_s$/,/^of_flush_rtt$/p' |
		awk -v f="$f" '{ print "csv-counter\t" $0 "\t" f }' >>"$w"
done
head -1 "$tmp/m/machines.csv" | tr ',' '\n' | awk '{ print "machines.csv\t" $0 "\tm/machines.csv" }' >>"$w"
# JSON key paths, sorted by the part of the schema they belong to
paths() {	# FILE...: every key path, once; fails with schema_keys
	"$keys" -j sb_points -m sb_points "$@" >"$tmp/raw" && sort -u "$tmp/raw"
}
for f in a/gbench.json b/gbench.json c/gbench.json d/gbench.json nobody/n/gbench.json; do
	[ -f "$tmp/$f" ] || continue
	paths "$tmp/$f" >"$tmp/p" || bad "schema_keys $f"
	awk -v f="$f" '
		/^(context|benchmarks)$/ { print "gbench\t" $0 "\t" f; next }
		/^context\.[^.[]*$/ { sub(/^context\./, ""); print "context\t" $0 "\t" f; next }
		/^benchmarks\[\]\./ { sub(/^benchmarks\[\]\./, ""); print "gbench\t" $0 "\t" f; next }
		/^context\.sb_points\.\*\.params\./ { sub(/^.*\.params\./, ""); print "params\t" $0 "\t" f; next }
		/^context\.sb_points\.\*\.[^.]*$/ { sub(/^.*\.\*\./, ""); print "point\t" $0 "\t" f }' "$tmp/p" >>"$w"
done
for f in a/runs.jsonl b/runs.jsonl c/runs.jsonl d/runs.jsonl a/windows.jsonl b/windows.jsonl \
	d/windows.jsonl; do
	[ -f "$tmp/$f" ] || continue
	paths "$tmp/$f" >"$tmp/p" || bad "schema_keys $f"
	awk -v f="$f" -v sec="${f#*/}" '
		/^[^.[]*$/ { print sec "\t" $0 "\t" f; next }
		/^context\.[^.[]*$/ { sub(/^context\./, ""); print "context\t" $0 "\t" f; next }
		/^benchmarks\[\]\./ { sub(/^benchmarks\[\]\./, ""); print "gbench\t" $0 "\t" f; next }
		/^point\.params\./ { sub(/^point\.params\./, ""); print "params\t" $0 "\t" f; next }
		/^point\.[^.]*$/ { sub(/^point\./, ""); print "point\t" $0 "\t" f }' "$tmp/p" >>"$w"
done
for f in a/run.json c/run.json d/run.json; do
	[ -f "$tmp/$f" ] || continue
	paths "$tmp/$f" | awk -v f="$f" '/^[^.[]*$/ { print "run.json\t" $0 "\t" f }' >>"$w"
done
paths "$tmp/m/merge.json" | awk '
	/^sources\[\]\.context\.[^.[]*$/ { sub(/^sources\[\]\.context\./, ""); print "context\t" $0 "\tm/merge.json"; next }
	!/^sources\[\]\.context\./ { print "merge.json\t" $0 "\tm/merge.json" }' >>"$w"
paths "$tmp/ab/ab.json" | awk '
	/^comparisons\[\]\.[ab]\.point\.params\./ { sub(/^.*\.params\./, ""); print "params\t" $0 "\tab/ab.json"; next }
	/^comparisons\[\]\.[ab]\.point\.[^.]*$/ { sub(/^.*\.point\./, ""); print "point\t" $0 "\tab/ab.json"; next }
	{ print "ab.json\t" $0 "\tab/ab.json" }' >>"$w"
sort -t"$(printf "\t")" -k1,2 -u "$w" -o "$w"	# one line per field, one place named
check "fields collected ($(wc -l <"$w") lines)" [ "$(wc -l <"$w")" -gt 300 ]

# --- what this machine cannot write: "SECTION<TAB>NAME<TAB>REASON" ----------
x=$tmp/exceptions
: >"$x"
except() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$x"; }
[ "${nodes:-1}" -lt 2 ] && except counters not_moved_per_page \
	"only kernel-move_pages writes it, and it needs 2 NUMA nodes: this machine has ${nodes:-1}"
grep -q '^ *TLB:' /proc/interrupts 2>/dev/null || for n in tlb_irqs_per_page tlb_irqs_per_page_all; do
	except counters $n "/proc/interrupts has no TLB row here (not x86)"; done
grep -q '^ *CAL:' /proc/interrupts 2>/dev/null ||
	except counters cal_irqs_per_page "/proc/interrupts has no CAL row here (not x86)"
grep -q '"sb_counters": "[^"]*irq:' "$tmp/a/gbench.json" || for n in 'cnt:irq:*@team' 'cnt:irq:*@all'; do
	except counters "$n" "no irq row of the default counters (irq:TLB, irq:CAL) in /proc/interrupts here"; done
[ "$(id -u)" -eq 0 ] && [ ! -s "$tmp/nobody/n/gbench.json" ] && except context sb_counters_note \
	"only a user other than root gets it, and this root could not run stratbench as nobody (setpriv: $(tail -1 "$tmp/n.out" 2>/dev/null || echo not installed))"
# update_ns is absent, its label saying why, where the sampled update costs
# less than the two (unfenced) cycle reads around it (docs/results.md); on
# this project's AMD VM that is most policies, and under ASan at times all
if ! grep -qs '"update_ns"' "$tmp/a/gbench.json" "$tmp/b/gbench.json" &&
	grep -qs 'update_ns: unavailable (below the cost of the two timing reads' \
		"$tmp/a/gbench.json" "$tmp/b/gbench.json"; then
	for n in update_ns update_cycles; do
		except counters $n "every sampled update() here cost less than the two cycle reads around it (the rows' label says so)"
	done
fi
grep -q "memory binding to node .* unavailable" "$tmp/a.out" && except counters home_node \
	"memory binding to a NUMA node is unavailable here (stratbench's note in the run's output)"
if ! command -v taskset >/dev/null; then
	for n in error_occurred error_message; do
		except gbench.json $n "taskset is not installed: no failed run (a CPU outside the affinity)"; done
fi

# --- the checker --------------------------------------------------------------
# documented DOC: "SECTION<TAB>NAME" for every backticked name in the first
# cell of a table row under a <!-- schema: SECTION --> marker (blank lines
# may come between); exits 1 at a marker with no table after it
documented() {
	awk '
		function flush() { if (sec != "" && !rows) { print "marker \"" sec "\" (line " at ") heads no table" > "/dev/stderr"; err = 1 } }
		/^<!-- schema: [^ ]+ -->$/ { flush(); sec = $0; sub(/.*<!-- schema: /, "", sec); sub(/ -->.*/, "", sec)
			rows = 0; at = NR; next }
		sec != "" && /^\|/ { rows++; split($0, c, "|"); cell = c[2]
			while (match(cell, /`[^`]+`/)) { print sec "\t" substr(cell, RSTART + 1, RLENGTH - 2)
				cell = substr(cell, RSTART + RLENGTH) }
			next }
		sec != "" && rows { sec = "" }
		sec != "" && NF { flush(); sec = "" }
		END { flush(); exit err }' "$1"
}

# checker DOC: one line per problem, non-zero when there is one; "not
# written here" lines for the exceptions that apply
checker() {
	documented "$1" >"$tmp/doc" || return 1
	awk -F'\t' -v exfile="$x" -v docfile="$tmp/doc" '
		function re(p,   r) { r = p; gsub(/[][\\.^$+?(){}|\/]/, "\\\\&", r); gsub(/\*/, ".*", r); return "^" r "$" }
		BEGIN {
			# the documented sections a written section is checked against
			to["gbench"] = "gbench.json counters"; to["csv-extra"] = "counters"
			to["csv-counter"] = "counters"
			nohit["csv-counter"] = 1	# a header column is no value written
			while ((getline line < exfile) > 0) { split(line, e, "\t"); why[e[1] SUBSEP e[2]] = e[3] }
			while ((getline line < docfile) > 0) {
				split(line, d, "\t")
				if ((d[1] SUBSEP d[2]) in doc) { print "documented twice: " d[1] " `" d[2] "`"; bad++ }
				doc[d[1] SUBSEP d[2]] = 1; nd++; ds[nd] = d[1]; dn[nd] = d[2]
				if (index(d[2], "*")) { np++; ps[np] = d[1]; pn[np] = d[2]; pr[np] = re(d[2]) }
			}
		}
		{
			sec = $1; name = $2; n = split(sec in to ? to[sec] : sec, into, " "); found = 0
			for (k = 1; k <= n; k++) {
				if ((into[k] SUBSEP name) in doc) { found = 1; if (!(sec in nohit)) hit[into[k] SUBSEP name] = 1 }
				for (i = 1; i <= np; i++)	# every pattern that matches is used
					if (ps[i] == into[k] && name ~ pr[i]) { found = 1; if (!(sec in nohit)) hit[ps[i] SUBSEP pn[i]] = 1 }
			}
			if (!found && !((sec SUBSEP name) in told)) {
				told[sec SUBSEP name] = 1; bad++
				print "written, not documented in " (sec in to ? to[sec] : sec) ": `" name "` (in " $3 ")"
			}
		}
		END {
			for (i = 1; i <= nd; i++) {
				k = ds[i] SUBSEP dn[i]
				if (k in hit) continue
				if (k in why) { print "not written here: `" dn[i] "` (" ds[i] ") because " why[k]; continue }
				bad++
				print "documented in " ds[i] ", never written: `" dn[i] "`" (index(dn[i], "*") ? " (a pattern that matched nothing)" : "")
			}
			exit (bad > 0)
		}' "$w"
}

checker "$doc" >"$tmp/check"
rc=$?
grep '^not written here' "$tmp/check"
if [ "$rc" -eq 0 ]; then ok; else
	bad "docs/results.md and the writers disagree:"$'\n'"$(grep -v '^not written here' "$tmp/check")"; fi
for s in results.csv context gbench.json counters runs.jsonl windows.jsonl run.json point params \
	machines.csv merge.json ab.json; do
	check "section $s documented" grep -q "^$s"$'\t' "$tmp/doc"
done
# results.csv's table in the header's order
check "results.csv's rows in its columns' order" \
	[ "$(awk -F'\t' '$1 == "results.csv" { printf "%s,", $2 }' "$tmp/doc")" = "$(head -1 "$tmp/a/results.csv")," ]

# --- the broken fixtures -----------------------------------------------------
# a row deleted: ops_per_s of the counters table (written, now undocumented)
awk '/<!-- schema: counters -->/ { c = 1 } c && /^\| `ops_per_s` \|/ { c = 0; next } { print }' \
	"$doc" >"$tmp/deleted.md"
check "fixture: one row fewer" [ "$(wc -l <"$tmp/deleted.md")" -eq $(($(wc -l <"$doc") - 1)) ]
checker "$tmp/deleted.md" >"$tmp/out"
rc=$?
check "checker fails on a deleted row, naming it (rc=$rc)" \
	bash -c "[ $rc -ne 0 ] && grep -q 'written, not documented in gbench.json counters: \`ops_per_s\`' '$tmp/out'"
# a row invented in the context table: documented, never written
sed '/^| `sb_label` |/a | `sb_invented` | string | — | no writer writes this |' "$doc" >"$tmp/invented.md"
checker "$tmp/invented.md" >"$tmp/out"
rc=$?
check "checker fails on an invented row, naming it (rc=$rc)" \
	bash -c "[ $rc -ne 0 ] && grep -q 'documented in context, never written: \`sb_invented\`' '$tmp/out'"
# an invented pattern that matches nothing written
sed '/^| `cnt:\*\/op` |/a | `nocnt:*` | number | — | no writer writes this |' "$doc" >"$tmp/pattern.md"
checker "$tmp/pattern.md" >"$tmp/out"
rc=$?
check "checker fails on a pattern that matches nothing (rc=$rc)" \
	bash -c "[ $rc -ne 0 ] && grep -q 'never written: \`nocnt:\*\` (a pattern' '$tmp/out'"
# a marker with no table under it
printf '<!-- schema: nothing -->\nprose\n' >>"$tmp/pattern.md"
if documented "$tmp/pattern.md" >/dev/null 2>&1; then bad "checker passed a marker with no table"
else ok; fi

echo "test_schema: $(($(date +%s) - start)) s"
finish test_schema
