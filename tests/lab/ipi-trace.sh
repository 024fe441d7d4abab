#!/usr/bin/env bash
# ipi-trace.sh NAME COMMAND... — runs COMMAND with the kernel's IPI, TLB-flush
# and scheduler tracepoints on (those this kernel has), and keeps the raw
# trace as $SB_LAB_OUT/NAME.trace with the list of what was traced in
# NAME.events (lab.sh --results brings them back).  For reading which
# kernel sends what: docs/lab-ab.md.  Needs root and tracefs.
set -u
name=$1; shift
t=/sys/kernel/tracing
[ -d "$t/events" ] || mount -t tracefs tracefs "$t" || { echo "ipi-trace: no tracefs" >&2; exit 1; }
out=${SB_LAB_OUT:-/tmp}
: >"$out/$name.events"
echo 0 >"$t/tracing_on"; : >"$t/trace"
echo 8192 >"$t/buffer_size_kb"
for e in ipi/ipi_send_cpu ipi/ipi_send_cpumask ipi/ipi_raise ipi/ipi_entry ipi/ipi_exit \
	tlb/tlb_flush sched/sched_switch sched/sched_wakeup migrate/mm_migrate_pages \
	irq_vectors/call_function_entry irq_vectors/call_function_single_entry \
	irq_vectors/reschedule_entry csd/csd_queue_cpu csd/csd_function_entry; do
	if [ -e "$t/events/$e/enable" ]; then
		echo 1 >"$t/events/$e/enable" && echo "$e yes" >>"$out/$name.events"
	else
		echo "$e no" >>"$out/$name.events"
	fi
done
for e in ipi/ipi_send_cpu ipi/ipi_send_cpumask tlb/tlb_flush; do
	[ -e "$t/events/$e/format" ] && { echo "== $e"; cat "$t/events/$e/format"; } >>"$out/$name.events"
done
echo 1 >"$t/tracing_on"
"$@"; rc=$?
echo 0 >"$t/tracing_on"
cat "$t/trace" >"$out/$name.trace"
echo "ipi-trace: $name: $(grep -vc '^#' "$out/$name.trace") events, $(grep -c ' yes$' "$out/$name.events") tracepoints (overrun: $(grep -o 'overrun: [0-9]*' "$t/per_cpu/cpu0/stats" 2>/dev/null))"
for e in $(awk '$2 == "yes" { print $1 }' "$out/$name.events"); do echo 0 >"$t/events/$e/enable"; done
exit $rc
