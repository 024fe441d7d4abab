# shootdown.gp — one shootdown counter vs batch size (log x), one line per
# series: every shootdown/* benchmark with its batch:B part taken out of the
# name (simulated strategies and kernel drivers alike).
# Variables (gnuplot -e): datafile, outbase, plottitle, ylabel, nseries, logy.
# datafile: one index block per series; first line the series title, then
# "batch value" rows (medians when the run had repetitions).
set key outside below noautotitle noenhanced
set grid
set xlabel "pages per batch (log)"
set ylabel ylabel noenhanced
set logscale x 2
set offsets 0, 0, graph 0.05, graph 0.05
if (logy + 0) set logscale y 10; set format y "%g"
set title plottitle noenhanced

set terminal pngcairo size 1100,600 noenhanced
set output outbase.".png"
plot for [i=0:nseries-1] datafile index i using 1:2 with linespoints \
	lt (i % 8 + 1) dashtype int(i / 8) + 1 pt (i % 13 + 1) ps 1.2 title columnheader(1)

set terminal svg size 1100,600 dynamic noenhanced
set output outbase.".svg"
replot
