#!/usr/bin/env bash
# test_preempt_marks.sh STRATBENCH — a preempted point (results/preempt.h) is
# named with its figure and kept out of the verdicts wherever results are
# read: compare (text, CSV, --fail-above, --html), summary and DIR/index.html.
# NEW's lock/ticket had a repetition whose members were on CPU 50 % of the
# run with 12 % steal; lock/clh changed as much on both sides without
# preemption, and is the broken fixture beside it: its verdict must stay
# "changed", never "preempted", and its rows carry no mark.
set -u
sb=$1
tmp=$(mktemp -d /tmp/sb_preempt.XXXXXX)
trap "rm -rf \"$tmp\"" EXIT
. "$(dirname "$0")/testlib.sh"
has_str() { [[ "$(cat "$1")" == *"$2"* ]]; }

T=lock/ticket/threads:2/place:compact C=lock/clh/threads:2/place:compact
quiet=', "on_cpu_pct": 99.5, "ctx_switches": 1, "ctx_involuntary": 1, "steal_pct": 0'
host=', "on_cpu_pct": 50.2, "ctx_switches": 0, "ctx_involuntary": 0, "steal_pct": 12'
# each repetition also counts task-clock, per op = its ops (so both change)
ent() { entry "$1" "$2" "$3" "$4" "$5, \"cnt:task-clock\": $2, \"cnt:task-clock/op\": $2"; }
side() {	# side LABEL OPS-T OPS-C EXTRA-OF-REP-1
	doc "$1" "$(ent $T "$2" "" 0 "$quiet")" "$(ent $T "$(($2 + 10))" "" 1 "$4")" \
		"$(ent $T "$(($2 + 20))" "" 2 "$quiet")" "$(ent $T "$(($2 + 10))" median 0 "$quiet")" \
		"$(ent $C "$3" "" 0 "$quiet")" "$(ent $C "$(($3 + 10))" "" 1 "$quiet")" \
		"$(ent $C "$(($3 + 20))" "" 2 "$quiet")" "$(ent $C "$(($3 + 10))" median 0 "$quiet")"
}
mkdir -p "$tmp/old" "$tmp/new"
side old 1000 1000 "$quiet" >"$tmp/old/gbench.json"
side new 500 500 "$host" >"$tmp/new/gbench.json"
mark="preempted: on CPU 50 %; steal 12 %"

"$sb" compare "$tmp/old" "$tmp/new" >"$tmp/cmp" 2>"$tmp/err"
check "compare: the preempted row has the mark" grep -q "^ *2 .*$mark" "$tmp/cmp"
check "compare: a quiet change keeps its verdict (broken fixture: clh)" \
	grep -q "changed" "$tmp/cmp"
check "compare: one mark only" [ "$(grep -c "preempted: on CPU" "$tmp/cmp")" = 1 ]
# the counter tables: the preempted point's counters get no verdict either
# (broken fixture: clh's task-clock per op changed as much, and says so)
check "compare counters: ticket's task-clock reads preempted" \
	bash -c "grep -A1 '^$T' '$tmp/cmp' | grep -qE '^  task-clock .* preempted\$'"
check "compare counters: clh's task-clock keeps its verdict" \
	bash -c "grep -A1 '^$C' '$tmp/cmp' | grep -qE '^  task-clock .* changed\$'"
"$sb" compare --format=csv "$tmp/old" "$tmp/new" >"$tmp/csv" 2>>"$tmp/err"
check "compare csv: verdict preempted" grep -q "ticket.*,preempted," "$tmp/csv"
check "compare csv: clh is not" bash -c "! grep -q 'clh.*,preempted,' '$tmp/csv'"
check "compare csv: ticket's interval is the mark, no bounds (clh keeps its own)" \
	bash -c "grep -q '^lock/ticket.*,-49.505,n/a,n/a,.*,preempted,$mark\$' '$tmp/csv' &&
		grep -q '^lock/clh.*,-49.505,-50.98,-48,.*,worse,changed\$' '$tmp/csv'"
"$sb" compare --fail-above=5 "$tmp/old" "$tmp/new" >/dev/null 2>"$tmp/fail"
rc=$?
check "fail-above: clh's regression counts (rc $rc)" [ "$rc" = 3 ]
check "fail-above: ticket not judged, said" grep -q "not judged: $T.*$mark" "$tmp/fail"
check "fail-above: one regression line (clh)" [ "$(grep -c "regression beyond" "$tmp/fail")" = 1 ]
"$sb" compare "$tmp/old" "$tmp/new" --html="$tmp/cmp.html" >/dev/null 2>>"$tmp/err"
check "compare --html: the mark" grep -q "$mark" "$tmp/cmp.html"
"$sb" summary "$tmp/new" >"$tmp/sum" 2>>"$tmp/err"
check "summary: preempted points list ticket" grep -q "^  $T  $mark" "$tmp/sum"
check "summary: not clh" bash -c "! grep -q '$C  preempted' '$tmp/sum'"
if "$sb" plot "$tmp/new" >/dev/null 2>>"$tmp/err" && [ -f "$tmp/new/index.html" ]; then
	check "index.html: the mark in ticket's note" grep -q "⚠ $mark" "$tmp/new/index.html"
else
	bad "plot wrote no index.html: $(tail -2 "$tmp/err")"
fi
# plot --compare: a preempted bar has no verdict fill (2), a quiet change keeps
# its own (broken fixture: clh, changed down, must read -1)
if "$sb" plot --compare "$tmp/old" "$tmp/new" >/dev/null 2>>"$tmp/err"; then
	dat=$(ls "$tmp"/new/plots/compare-vs-*.dat 2>/dev/null | head -1)
	check "plot --compare: ticket has no verdict fill" \
		grep -qE $'^ticket\t[-0-9.]*\t[-0-9.]*\t[01]\t2\t' "$dat"
	check "plot --compare: clh keeps its changed-down fill" \
		grep -qE $'^clh\t[-0-9.]*\t[-0-9.]*\t[01]\t-1\t' "$dat"
else
	bad "plot --compare failed: $(tail -2 "$tmp/err")"
fi
finish test_preempt_marks
