#!/usr/bin/env bash
# test_fsfaults.sh STRATBENCH [SANITIZE] — what is written when the file
# system fails, and what is read when the input is not a results file.
#   - a file size limit (ulimit -f: EFBIG, any user) at several sizes, so
#     that each of gbench.json, results.csv, runs.jsonl and windows.jsonl is
#     the one that fails; as root also a full tmpfs (ENOSPC) at several
#     fill levels, and --resume on the still-full disk
#   - the output directory made read-only mid-run (chattr +i as root,
#     chmod 555 as nobody)
#   Each: exit 1, one 'cannot write|rename FILE: why' line, no 'results in',
#   no final-named file (every file keeps its .partial, run.json says not
#   complete), and a --resume once it can write completes the sweep.
#   - compare, merge and --resume on /dev/zero, /dev/urandom, a FIFO, a
#     sparse 1 TiB file, under a timeout and (native builds) ulimit -v:
#     refused in one line, no hang, no memory blow-up
# SANITIZE (the build's -fsanitize list): sanitizers reserve terabytes of
# address space, so ulimit -v is left out there (said); the timeouts stay.
set -u
sb=$1 sanitize=${2:-}
tmp=$(mktemp -d /tmp/sb_fsf.XXXXXX)
mnt=
cleanup() {
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	chattr -R -i "$tmp" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/testlib.sh"
t0=$SECONDS

# 4 benchmarks of 2 repetitions (6 CSV rows each), fidelity mode too for
# windows.jsonl: 8 benchmarks
sweep=(--strategy=null,spinlock --threads=1,2 --placement=compact --benchmark_repetitions=2
	--benchmark_min_time=0.02 --quiet --mode=both)
nbench=8 rowsper=6

# failed DIR ERR WHAT PATTERN: the checks of a run that could not write
failed() {
	local d=$1 err=$2 what=$3 pat=$4 n
	n=$(grep -cE "^stratbench: cannot (write|rename|sync)" "$err")
	check "$what: one 'cannot write' line (got $n)" [ "$n" -eq 1 ]
	check "$what: the line names the file and why" grep -qE "$pat" "$err"
	check "$what: no 'results in'" bash -c "! grep -q 'results in' '$err'"
	for f in gbench.json results.csv runs.jsonl windows.jsonl; do
		check "$what: no final-named $f" [ ! -e "$d/$f" ]
	done
	check "$what: run.json says not complete" grep -q '"complete": false' "$d/run.json"
}
# complete DIR WHAT: every benchmark, whole, under its final name
complete() {
	local d=$1 what=$2 nf
	check "$what: run.json complete" grep -q '"complete": true' "$d/run.json"
	check "$what: no .partial left" bash -c "! ls '$d'/*.partial >/dev/null 2>&1"
	check "$what: $nbench benchmarks in runs.jsonl" \
		[ "$(grep -c '^{"name"' "$d/runs.jsonl")" -eq "$nbench" ]
	check "$what: compare reads gbench.json" bash -c "'$sb' compare '$d' '$d' --format=csv >/dev/null"
	check "$what: compare finds $nbench benchmarks" \
		[ "$("$sb" compare "$d" "$d" --format=csv 2>/dev/null | tail -n +2 | wc -l)" -eq "$nbench" ]
	# every CSV row has the header's fields (no error text here: no quotes)
	nf=$(head -1 "$d/results.csv" | awk -F, '{print NF}')
	check "$what: results.csv rows whole" \
		[ "$(awk -F, -v nf="$nf" 'NF != nf' "$d/results.csv" | wc -l)" -eq 0 ]
	check "$what: $rowsper rows per benchmark" \
		[ "$(tail -n +2 "$d/results.csv" | wc -l)" -eq $((rowsper * nbench)) ]
}
# resume_ok DIR WHAT: --resume completes it
resume_ok() {
	"$sb" run --resume="$1" >/dev/null 2>"$tmp/res.err"
	local rc=$?
	check "$2: resume exits 0 (got $rc: $(grep -v '^stratbench: warning' "$tmp/res.err" | tail -1))" [ "$rc" -eq 0 ]
	check "$2: resume says results in" grep -q "results in" "$tmp/res.err"
	complete "$1" "$2"
}

# --- a file size limit: EFBIG at several sizes ------------------------------
# (stderr through a pipe: the limit would cut a file)
declare -A hit=()
for kb in 4 8 16 24 48; do
	d=$tmp/fsize$kb
	bash -c 'trap "" XFSZ; ulimit -f '"$kb"'; exec "$@"' _ "$sb" run "${sweep[@]}" --out="$d" \
		2>&1 >/dev/null | cat >"$tmp/fsize.err"
	rc=${PIPESTATUS[0]}
	check "fsize $kb KiB: exit 1 (got $rc)" [ "$rc" -eq 1 ]
	failed "$d" "$tmp/fsize.err" "fsize $kb KiB" "cannot write $d/[a-z.]+\.partial: File too large"
	f=$(grep -oE "cannot write $d/[a-z.]+\.partial" "$tmp/fsize.err" | sed 's|.*/||')
	hit[$f]=1
	resume_ok "$d" "fsize $kb KiB"
done
# the windows file: a fidelity run alone whose timeline line (200 windows:
# 6.4 KiB) outgrows the other files (gbench.json: 3.6 KiB).  The window
# count must not hang on the CPU the machine leaves the run: on jiffies
# (wall time) a member starved by other tests (ctest -j8) called rarely,
# so 0.4 s closed 14-190 windows (0.8-6.6 KiB) where 400 would.  On the
# calls clock, one tick a call and 1-tick windows that spinlock stretches
# to 2, the line is the same 200 windows of 2 pages whenever the last run
# makes 400 calls: GB's runs of 1000 iterations and more make 1024 and
# more, and it ends on a shorter run only if that run, microseconds of
# work, was kept off the CPU for 0.4 s.
d=$tmp/fsizew
bash -c 'trap "" XFSZ; ulimit -f 5; exec "$@"' _ "$sb" run --strategy=spinlock --threads=1 \
	--placement=compact --mode=fidelity --clock=calls --tick-calls=1 --interval-ms=1 --limit=256 \
	--benchmark_min_time=0.4 --quiet --counters=none --out="$d" 2>&1 >/dev/null | cat >"$tmp/fsize.err"
check "fsize windows: exit 1" [ "${PIPESTATUS[0]}" -eq 1 ]
failed "$d" "$tmp/fsize.err" "fsize windows" "cannot write $d/[a-z.]+\.partial: File too large"
f=$(grep -oE "cannot write $d/[a-z.]+\.partial" "$tmp/fsize.err" | sed 's|.*/||')
[ -n "$f" ] && hit[$f]=1
nbench=1 rowsper=1 resume_ok "$d" "fsize windows"
check "fsize windows: windows.jsonl has its line" [ "$(wc -l <"$d/windows.jsonl")" -eq 1 ]
echo "test_fsfaults: the file size limit failed: ${!hit[*]}"
for f in gbench.json.partial results.csv.partial runs.jsonl.partial windows.jsonl.partial; do
	check "a file size limit made $f fail at some size" [ -n "${hit[$f]:-}" ]
done

# --- a full disk: ENOSPC (root: a small tmpfs) -------------------------------
# 4 MiB, filled to leave FREE KiB: the finished run and the resume's
# rewritten copies must fit once the fill is gone (in the 4-CPU lab guest,
# with more counters, 512 KiB did not)
if [ "$(id -u)" -eq 0 ] && mkdir "$tmp/mnt" && mount -t tmpfs -o size=4m tmpfs "$tmp/mnt"; then
	mnt=$tmp/mnt
	for free in 16 64 128 176; do
		d=$mnt/r$free
		rm -rf "$mnt"/*
		head -c $(((4096 - free) * 1024)) /dev/zero >"$mnt/fill" 2>/dev/null
		"$sb" run "${sweep[@]}" --out="$d" >/dev/null 2>"$tmp/full.err"
		rc=$?
		check "ENOSPC $free KiB free: exit 1 (got $rc)" [ "$rc" -eq 1 ]
		failed "$d" "$tmp/full.err" "ENOSPC $free KiB" \
			"cannot (write|create) $d/[a-z.]+(\.partial)?: No space left on device"
		# resume on the same full disk: refused, nothing lost
		"$sb" run --resume="$d" >/dev/null 2>"$tmp/full2.err"
		rc=$?
		check "ENOSPC $free KiB: resume on a full disk exits 1 (got $rc)" [ "$rc" -eq 1 ]
		check "ENOSPC $free KiB: resume on a full disk: no 'results in'" \
			bash -c "! grep -q 'results in' '$tmp/full2.err'"
		check "ENOSPC $free KiB: resume says no space" grep -q "No space left on device" "$tmp/full2.err"
		rm -f "$mnt/fill"
		resume_ok "$d" "ENOSPC $free KiB"
	done
	# merge: machines.csv and merge.json, each complete or not there
	umount "$mnt"
	mount -t tmpfs -o size=4k tmpfs "$mnt"
	"$sb" merge "$tmp/fsize4" --out="$mnt/m" >/dev/null 2>"$tmp/merge.err"
	rc=$?
	check "merge on a full disk: exit 1 (got $rc)" [ "$rc" -eq 1 ]
	check "merge on a full disk: one line" [ "$(wc -l <"$tmp/merge.err")" -eq 1 ]
	check "merge on a full disk: names the file" \
		grep -q "cannot write $mnt/m/merge.json.*: No space left on device" "$tmp/merge.err"
	check "merge on a full disk: no cut merge.json" [ ! -e "$mnt/m/merge.json" ]
	umount "$mnt"; mnt=
else
	echo "test_fsfaults: ENOSPC on a small tmpfs skipped: needs root and tmpfs"
fi

# --- the output directory made read-only mid-run -----------------------------
# ro_case WHAT MAKE_RO UNDO RUNNER...: the run stops at its first rename
ro_case() {
	local what=$1 mkro=$2 undo=$3 d=$tmp/nb/ro-$1 pid rc i
	shift 3
	"$@" run --strategy=null,spinlock --threads=1,2 --placement=compact \
		--benchmark_min_time=0.3 --quiet --counters=none --out="$d" >/dev/null 2>"$tmp/ro.err" &
	pid=$!
	for i in $(seq 300); do
		grep -q '^{"name"' "$d/runs.jsonl.partial" 2>/dev/null && break
		sleep 0.05
	done
	eval "$mkro"
	wait "$pid"
	rc=$?
	eval "$undo"
	check "read-only ($what): exit 1 (got $rc)" [ "$rc" -eq 1 ]
	failed "$d" "$tmp/ro.err" "read-only ($what)" "cannot (rename|write) $d/[a-z.]+\.partial"
	nbench=4 rowsper=1 resume_ok "$d" "read-only ($what)"
}
chmod 755 "$tmp"
mkdir -m 777 "$tmp/nb"
if [ "$(id -u)" -eq 0 ] && chattr +i "$tmp" 2>/dev/null && chattr -i "$tmp"; then
	ro_case chattr 'chattr +i "$d"' 'chattr -i "$d"' "$sb"
else
	echo "test_fsfaults: chattr +i case skipped: needs root and a file system with it"
fi
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	cp "$sb" "$tmp/nb/stratbench" && chmod 755 "$tmp/nb/stratbench"
	ro_case chmod 'setpriv --reuid=nobody --regid="$(id -gn nobody)" --clear-groups chmod 555 "$d"' \
		'chmod 777 "$d"' setpriv --reuid=nobody --regid="$(id -gn nobody)" --clear-groups \
		"$tmp/nb/stratbench"
elif [ "$(id -u)" -ne 0 ]; then
	ro_case chmod 'chmod 555 "$d"' 'chmod 755 "$d"' "$sb"
else
	echo "test_fsfaults: chmod 555 case skipped: no setpriv or no user nobody"
fi

# --- endless, blocking and huge inputs ----------------------------------------
good=$tmp/fsize4	# completed above
vlimit=(ulimit -v 1048576)	# 1 GiB: the old readers grew past it within seconds
if [ -n "$sanitize" ]; then
	echo "test_fsfaults: inputs checked without ulimit -v: a -fsanitize=$sanitize build cannot run under it"
	vlimit=(true)
fi
mkfifo "$tmp/fifo"
truncate -s 1099511627776 "$tmp/sparse"	# 1 TiB; busybox's truncate takes no suffix
mkdir "$tmp/dz" "$tmp/df" "$tmp/ds" "$tmp/dl"
ln -s /dev/zero "$tmp/dz/gbench.json"
ln -s "$tmp/fifo" "$tmp/df/gbench.json"
ln -s "$tmp/sparse" "$tmp/ds/gbench.json"
sed 's/"complete": true/"complete": false/' "$good/run.json" >"$tmp/dl/run.json"
ln -s /dev/zero "$tmp/dl/runs.jsonl.partial"
# bounded WHAT WANT_RC NEEDLE ARGS...: under 10 s and the memory cap
bounded() {
	local what=$1 want=$2 needle=$3 rc lines
	shift 3
	( "${vlimit[@]}" && exec timeout 10 "$sb" "$@" ) >/dev/null 2>"$tmp/b.err" </dev/null
	rc=$?
	lines=$(wc -l <"$tmp/b.err")
	if [ "$rc" -eq "$want" ] && [ "$lines" -eq 1 ] && grep -q -- "$needle" "$tmp/b.err"; then
		ok
	else
		bad "$what: rc=$rc lines=$lines '$(head -c 300 "$tmp/b.err")' (want $want, 1 line, '$needle')"
	fi
}
bounded "compare /dev/zero" 2 "/dev/zero: a character device" compare /dev/zero "$good"
bounded "compare GOOD /dev/urandom" 2 "/dev/urandom: a character device" compare "$good" /dev/urandom
bounded "compare a FIFO" 2 "fifo: a FIFO" compare "$tmp/fifo" "$good"
bounded "compare a sparse 1 TiB file" 2 "over the 256 MiB" compare "$tmp/sparse" "$good"
bounded "compare DIR/gbench.json -> /dev/zero" 2 "a character device" compare "$tmp/dz" "$good"
bounded "compare DIR/gbench.json -> FIFO" 2 "a FIFO" compare "$tmp/df" "$good"
bounded "compare DIR/gbench.json sparse" 2 "over the 256 MiB" compare "$good" "$tmp/ds"
bounded "compare DIR/runs.jsonl.partial -> /dev/zero" 2 "a character device" compare "$tmp/dl" "$good"
bounded "merge /dev/zero" 2 "/dev/zero: a character device" merge /dev/zero "$good" --out="$tmp/m1"
bounded "merge a FIFO" 2 "a FIFO" merge "$good" "$tmp/fifo" --out="$tmp/m2"
bounded "merge a sparse file" 2 "over the 256 MiB" merge "$tmp/sparse" "$good" --out="$tmp/m3"
check "merge refused: no output" [ ! -e "$tmp/m1/machines.csv" ]
bounded "resume: runs.jsonl.partial -> /dev/zero" 2 "a character device" run --resume="$tmp/dl"
check "a refused resume leaves run.json" [ -e "$tmp/dl/run.json" ]

# --- a cut last line of runs.jsonl is said, not skipped silently -------------
mkdir "$tmp/torn"
cp "$good/run.json" "$tmp/torn/"
head -c -40 "$good/runs.jsonl" >"$tmp/torn/runs.jsonl.partial"
"$sb" compare "$tmp/torn" "$good" >/dev/null 2>"$tmp/torn.err"
check "compare, a cut runs.jsonl line: exit 0" [ $? -eq 0 ]
check "compare, a cut runs.jsonl line: said, with the count" \
	grep -q "runs.jsonl.partial: 1 unfinished line skipped" "$tmp/torn.err"
# ... and --resume runs it again, as the note says: a complete run.json, no
# gbench.json, runs.jsonl cut in its last benchmark's line (issue 25)
rm -rf "$tmp/torn2"; cp -r "$good" "$tmp/torn2"
rm "$tmp/torn2/gbench.json"
head -c -40 "$good/runs.jsonl" >"$tmp/torn2/runs.jsonl"
cut_name=$(tail -1 "$good/runs.jsonl" | grep -o '^{"name":"[^"]*"' | sed 's/^{"name":"//; s/"$//')
"$sb" compare "$tmp/torn2" "$good" --format=csv 2>"$tmp/torn2.err" >"$tmp/torn2.csv"
check "a cut runs.jsonl: compare says it skipped the line" \
	grep -q "runs.jsonl: 1 unfinished line skipped.*--resume runs it again" "$tmp/torn2.err"
check "a cut runs.jsonl: compare lacks $cut_name before the resume" \
	grep -q "^$cut_name,,,,only," "$tmp/torn2.csv"
resume_ok "$tmp/torn2" "resume of a cut runs.jsonl"
check "resume of a cut runs.jsonl: not 'nothing to resume'" \
	bash -c "! grep -q 'nothing to resume' '$tmp/res.err'"
check "resume of a cut runs.jsonl: says the line dropped and run again" \
	grep -q "1 unfinished line of .*runs.jsonl dropped (its benchmark runs again)" "$tmp/res.err"
check "resume of a cut runs.jsonl: $cut_name in compare" \
	bash -c "'$sb' compare '$tmp/torn2' '$good' --format=csv 2>/dev/null | grep -q '^$cut_name,[^,]*,[0-9]'"
check "resume of a cut runs.jsonl: $cut_name once in results.csv" \
	[ "$(awk -F, -v n="$cut_name" '$1 == n' "$tmp/torn2/results.csv" | wc -l)" -eq "$rowsper" ]

# --- a results.csv that is not one: --resume names the line ------------------
# corrupt SRC DIR SED: DIR, a copy of SRC made resumable, its CSV edited
corrupt() {
	rm -rf "$2"; cp -r "$1" "$2"
	sed -i 's/"complete": true/"complete": false/' "$2/run.json"
	sed -i "$3" "$2/results.csv"
}
corrupt "$good" "$tmp/c1" '5s/,[^,]*$//'	# a row short of a field
bounded "resume: a row short of a field" 2 "results.csv:5: not a results.csv row (61 fields, want 62)" \
	run --resume="$tmp/c1"
corrupt "$good" "$tmp/c2" '7s/^\([^,]*,[^,]*,[^,]*,[^,]*,\)[^,]*/\1two/'	# threads not a number
bounded "resume: threads not a number" 2 "results.csv:7: not a results.csv row (field 5 is not a number)" \
	run --resume="$tmp/c2"
corrupt "$good" "$tmp/c3" '1s/real_ns/rael_ns/'
bounded "resume: another header" 2 "results.csv:1: not results.csv's header" run --resume="$tmp/c3"
corrupt "$good" "$tmp/c4" '$s/$/\n1.798,garbage/'
bounded "resume: a garbage row" 2 "not a results.csv row" run --resume="$tmp/c4"
check "a refused resume keeps results.csv" cmp -s "$good/results.csv" <(head -n -1 "$tmp/c4/results.csv")

# --- plot: inputs that are not results -----------------------------------------
# plot reads gbench.json or runs.jsonl (never results.csv): a garbage CSV row
# names no figure; a cut or endless gbench.json is refused in one line
if command -v gnuplot >/dev/null; then
	cp -r "$good" "$tmp/pc"
	rm -rf "$tmp/pc/plots"
	echo '1.79800773,garbage,,,2,x' >>"$tmp/pc/results.csv"
	"$sb" plot "$tmp/pc" >/dev/null 2>"$tmp/pc.err"
	check "plot, a garbage results.csv row: exit 0 from gbench.json" [ $? -eq 0 ]
	check "plot, a garbage results.csv row: no figure named from it" \
		bash -c "! ls '$tmp/pc/plots' | grep -q '1\.798\|garbage'"
	check "plot, a garbage results.csv row: figures drawn" \
		bash -c "ls '$tmp/pc/plots'/*.png >/dev/null 2>&1"
else
	echo "test_fsfaults: plot of a garbage results.csv skipped: no gnuplot"
fi
cp -r "$good" "$tmp/pt"
head -c 3000 "$good/gbench.json" >"$tmp/pt/gbench.json"
bounded "plot, a cut gbench.json" 2 "pt/gbench.json: not valid JSON" plot "$tmp/pt"
bounded "plot, gbench.json -> /dev/zero" 2 "gbench.json: a character device" plot "$tmp/dz"
bounded "plot, gbench.json -> FIFO" 2 "gbench.json: a FIFO" plot "$tmp/df"
bounded "plot, a sparse gbench.json" 2 "over the 256 MiB" plot "$tmp/ds"
bounded "plot /dev/zero" 2 "/dev/zero: no results in it" plot /dev/zero

echo "test_fsfaults: $((SECONDS - t0)) s"
finish test_fsfaults
