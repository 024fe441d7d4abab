# throughput.gp — ops/s vs threads, one line per series (strategy[/lock],
# placement).  Variables (gnuplot -e): datafile, outbase, plottitle, nseries.
# datafile: one index block per series; first line the series title, then
# "threads ops_per_s" rows (medians when the run had repetitions).
set key outside right top noautotitle
set grid
set xlabel "threads"
set ylabel "operations/s (all threads)"
set format y "%.2s%c"
set logscale x 2
set xtics 1,2
set title plottitle noenhanced
set key noenhanced

set terminal pngcairo size 1100,600 noenhanced
set output outbase.".png"
# 8 colours, then dashes and point shapes tell series apart
plot for [i=0:nseries-1] datafile index i using 1:2 with linespoints \
	lt (i % 8 + 1) dashtype int(i / 8) + 1 pt (i % 13 + 1) ps 1.2 title columnheader(1)

set terminal svg size 1100,600 dynamic noenhanced
set output outbase.".svg"
replot
