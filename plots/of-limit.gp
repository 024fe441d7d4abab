# of-limit.gp — measured ops/s as a fraction of the machine's limit
# (of_limit, README "Limits"), one line per series (strategy[/lock],
# placement) against threads; 1 is the limit.  Variables (gnuplot -e):
# datafile (one index block per series: title line, then "threads of_limit"
# rows, medians when repeated), outbase, plottitle, nseries.
set key outside right top noautotitle
set grid
set xlabel "threads"
set ylabel "of_limit = ops/s ÷ limit_ops"
set logscale x 2
set xtics 1,2
set yrange [0:1.1<*]	# the limit (1) always in view
set title plottitle noenhanced
set key noenhanced
set arrow from graph 0, first 1 to graph 1, first 1 nohead lw 2 dt 2 lc rgb "black"
set label "limit" at graph 0.01, first 1 offset 0,0.6

# one thread count: gnuplot would warn of an empty x range
stats datafile using 1 nooutput prefix "X"
if (X_min == X_max) { set xrange [X_min / 1.5 : X_max * 1.5] }

set terminal pngcairo size 1100,600 noenhanced
set output outbase.".png"
plot for [i=0:nseries-1] datafile index i using 1:2 with linespoints \
	lt (i % 8 + 1) dashtype i % 5 + 1 pt (i % 13 + 1) ps 1.2 title columnheader(1)

set terminal svg size 1100,600 dynamic noenhanced
set output outbase.".svg"
replot
