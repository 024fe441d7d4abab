#!/usr/bin/env bash
# test_completion.sh STRATBENCH COMPLETION — the bash completion, run by
# bash itself: the function is registered for stratbench, and completing
# commands, options, option values, strategy and lock names (read from
# `stratbench list` at completion time: a fake stratbench with other names
# must change the answers), placements and directories.
set -u
sb=$1 comp=$2
tmp=$(mktemp -d /tmp/sb_comp.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"	# ok, bad, check

mkdir "$tmp/bin" "$tmp/fake"
ln -s "$(cd "$(dirname "$sb")" && pwd)/$(basename "$sb")" "$tmp/bin/stratbench"
PATH=$tmp/bin:$PATH
# shellcheck source=/dev/null
. "$comp"

# complete LINE: COMPREPLY, one per line, as bash would set it after LINE
complete_line() {
	local line=$1
	COMP_LINE=$line COMP_POINT=${#line}
	read -ra COMP_WORDS <<<"$line"
	[[ $line == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_stratbench
	printf '%s\n' "${COMPREPLY[@]}"
}
# expect LINE WORD...: each WORD is among the completions of LINE
expect() {
	local line=$1 got w; shift
	got=$(complete_line "$line")
	for w in "$@"; do
		if grep -qxF -- "$w" <<<"$got"; then ok; else
			bad "'$line' should offer '$w'; got: $(echo $got)"; fi
	done
}
# expect_not LINE WORD...: none of them is offered
expect_not() {
	local line=$1 got w; shift
	got=$(complete_line "$line")
	for w in "$@"; do
		if grep -qxF -- "$w" <<<"$got"; then bad "'$line' should not offer '$w'"; else ok; fi
	done
}

if complete -p stratbench 2>/dev/null | grep -q -- '-F _stratbench'; then ok; else
	bad "complete -p stratbench: $(complete -p stratbench 2>&1)"; fi

# commands, from `stratbench help`
expect "stratbench r" run
expect_not "stratbench r" list topo
cmds=$("$sb" help | awk '/^Commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 } f && /^$/ { exit }')
[ "$(echo "$cmds" | wc -w)" -ge 5 ] && ok || bad "stratbench help lists commands: $cmds"
# shellcheck disable=SC2086
expect "stratbench " $cmds --version
expect "stratbench help t" topo
# options, from `stratbench CMD --help` (family options from the drivers' tables)
expect "stratbench run --str" --strategy=
expect "stratbench run --interval" --interval-ms=
expect "stratbench run --cr" --crit= --crit-lines=
expect "stratbench run --ex" --exact
expect "stratbench run --benchmark_rep" --benchmark_repetitions=
expect "stratbench topo --to" --topology=
expect_not "stratbench topo --" --strategy=
# values: names as `stratbench list` has them now
names=$("$sb" list | awk '/^  [^ ]/ { print $1 }')
locks=$("$sb" list | awk '/^[^ ]/ { f = $1 } /^  [^ ]/ && f == "lock" { print $1 }')
[ "$(echo "$locks" | wc -w)" -ge 2 ] && ok || bad "stratbench list has locks: $locks"
# bash replaces the text after the last '=': the replies are bare names
# shellcheck disable=SC2086
expect "stratbench run --strategy=" $names
expect "stratbench run --strategy=sp" spinlock
expect "stratbench run --strategy=null,sp" null,spinlock
expect "stratbench run --ab=spinlock,tr" spinlock,trylock
expect "stratbench run --pre" --precision=
expect "stratbench run --max-t" --max-time=
# shellcheck disable=SC2086
expect "stratbench run --lock=" all $locks
expect_not "stratbench run --lock=" spinlock null
expect "stratbench run --family=" window lock baseline shootdown calibrate
expect "stratbench run --cons" --console=
expect "stratbench run --console=" table gbench counters
fams=$(complete_line "stratbench run --family=")
[ "$(grep -cx shootdown <<<"$fams")" -eq 1 ] && ok || bad "--family= offers shootdown once: $(echo $fams)"
# counters: the names `stratbench counters` knows, not the placeholder
expect "stratbench run --counters=" default none task-clock page-faults
expect "stratbench run --counters=default,page" default,page-faults
expect "stratbench run --counters=vmstat:numa_hi" numa_hit	# bash keeps "vmstat:"
expect_not "stratbench run --counters=" LIST
# metrics: those every run has, then those of the results named
expect "stratbench compare --metric=" ops_per_s real_time cpu_time
expect "stratbench run --placement=" compact cores scatter auto list:
expect "stratbench run --placement=compact,sc" compact,scatter
expect "stratbench run --benchmark_format=" console json
expect_not "stratbench run --benchmark_format=" csv
expect "stratbench run --benchmark_list_tests=" true false
mkdir -p "$tmp/resultsdir/one"
expect "stratbench plot $tmp/results" "$tmp/resultsdir"
expect "stratbench run --out=$tmp/res" "$tmp/resultsdir"
# compare OLD NEW (directories or JSON files), merge DIR...
touch "$tmp/resultsdir.json"
expect "stratbench compare $tmp/results" "$tmp/resultsdir" "$tmp/resultsdir.json"
expect "stratbench compare $tmp/resultsdir $tmp/results" "$tmp/resultsdir" "$tmp/resultsdir.json"
expect "stratbench merge $tmp/results" "$tmp/resultsdir"
expect "stratbench merge --out=x $tmp/resultsdir $tmp/results" "$tmp/resultsdir"
cat >"$tmp/resultsdir/one/gbench.json" <<'JSON'
{
  "context": { "num_cpus": 2 },
  "benchmarks": [
    {
      "name": "shootdown/immediate/batch:1/threads:2/place:compact",
      "family_index": 0,
      "iterations": 10,
      "real_time": 1.5e+03,
      "flushes_per_page": 1.0,
      "cnt:task-clock/op": 12
    }
  ]
}
JSON
expect "stratbench compare $tmp/resultsdir/one $tmp/resultsdir/one --metric=" \
	flushes_per_page real_time cnt:task-clock/op
expect "stratbench compare $tmp/resultsdir/one $tmp/resultsdir/one --metric=fl" flushes_per_page
expect_not "stratbench compare $tmp/resultsdir/one $tmp/resultsdir/one --metric=" \
	family_index iterations num_cpus ops_per_s

# the names are read at completion time: a stratbench with other names
cat >"$tmp/fake/stratbench" <<'EOF'
#!/bin/sh
[ "$1" = list ] && printf 'window — x\n  fakepolicy  a policy\nlock — y\n  fakelock  a lock\n'
exit 0
EOF
chmod +x "$tmp/fake/stratbench"
PATH=$tmp/fake:$PATH
expect "stratbench run --strategy=" fakepolicy fakelock
expect_not "stratbench run --strategy=" spinlock
expect "stratbench run --lock=f" fakelock
expect_not "stratbench run --lock=f" fakepolicy
# summary --reference=[FAMILY:]STRATEGY: the names, the families, then the
# family's own names after FAMILY: (broken: the other family's are not)
expect "stratbench summary x --reference=" fakepolicy fakelock lock: window:
expect "stratbench summary x --reference=lock:f" fakelock
expect_not "stratbench summary x --reference=lock:f" fakepolicy
expect "stratbench summary x --reference=lock:fakelock,window:f" fakepolicy

echo "test_completion: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
