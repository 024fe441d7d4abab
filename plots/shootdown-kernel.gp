# shootdown-kernel.gp — the real kernel's TLB shootdowns vs batch size:
# left, initiator µs per page; right, TLB IRQs per page (real IPIs received,
# /proc/interrupts over the team's CPUs).  One line per series
# (call, immediate|batched, threads, placement); log x, log y.
# Variables (gnuplot -e): datafile, outbase, plottitle, nseries.
# datafile: one index block per series; first line the series title, then
# "batch us_per_page tlb_irqs_per_page" rows (medians when repeated; NaN
# where the TLB row is unavailable).
set key outside bottom center horizontal noautotitle noenhanced maxrows 4
set grid
set logscale x 2
set logscale y 10
set format y "%g"
set xlabel "pages per batch"
set xtics 1,4
set title noenhanced

set terminal pngcairo size 1400,700 noenhanced
set output outbase.".png"
set multiplot layout 1,2 title plottitle noenhanced
set ylabel "initiator µs per page"
set title "cost per page"
plot for [i=0:nseries-1] datafile index i using 1:2 with linespoints \
	lt (i % 8 + 1) dashtype int(i / 8) + 1 pt (i % 13 + 1) ps 1.2 title columnheader(1)
set ylabel "TLB IRQs per page (team CPUs)"
set title "real shootdown IPIs per page (0 is not drawn on log y)"
plot for [i=0:nseries-1] datafile index i using 1:($3 > 0 ? $3 : NaN) with linespoints \
	lt (i % 8 + 1) dashtype int(i / 8) + 1 pt (i % 13 + 1) ps 1.2 title columnheader(1)
unset multiplot

set terminal svg size 1400,700 dynamic noenhanced
set output outbase.".svg"
set multiplot layout 1,2 title plottitle noenhanced
set ylabel "initiator µs per page"
set title "cost per page"
plot for [i=0:nseries-1] datafile index i using 1:2 with linespoints \
	lt (i % 8 + 1) dashtype int(i / 8) + 1 pt (i % 13 + 1) ps 1.2 title columnheader(1)
set ylabel "TLB IRQs per page (team CPUs)"
set title "real shootdown IPIs per page (0 is not drawn on log y)"
plot for [i=0:nseries-1] datafile index i using 1:($3 > 0 ? $3 : NaN) with linespoints \
	lt (i % 8 + 1) dashtype int(i / 8) + 1 pt (i % 13 + 1) ps 1.2 title columnheader(1)
unset multiplot
