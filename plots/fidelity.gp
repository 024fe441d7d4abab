# fidelity.gp — window fidelity per policy vs threads, two panels: stretch
# (window length / interval) and admit_ratio (pages admitted per window /
# limit); points are the mean over windows, bars reach the max.
# Variables (gnuplot -e): datafile, outbase, plottitle, nseries.
# datafile: one index block per series; first line the series title, then
# "threads stretch stretch_max admit_ratio admit_ratio_max" rows.
set key outside right top noautotitle noenhanced
set grid
set xlabel "threads"
set logscale x 2
set xtics 1,2
set offsets graph 0.05, graph 0.05, 0, 0

# one thread count: gnuplot would warn of an empty x range
stats datafile using 1 nooutput prefix "X"
if (X_min == X_max) { set xrange [X_min / 1.5 : X_max * 1.5] }

set terminal pngcairo size 1400,600 noenhanced
set output outbase.".png"
do for [pass = 1:2] {
	if (pass == 2) {
		set terminal svg size 1400,600 dynamic noenhanced
		set output outbase.".svg"
	}
	set multiplot layout 1,2 title plottitle noenhanced
	set ylabel "stretch: window length / interval (1 = keeps phase)"
	set key off
	plot for [i=0:nseries-1] datafile index i using 1:2:2:3 with yerrorlines \
		lt (i % 8 + 1) dashtype i % 5 + 1 pt (i % 13 + 1) ps 1.2 title columnheader(1)
	set ylabel "admit_ratio: pages admitted per window / limit"
	set key on
	plot for [i=0:nseries-1] datafile index i using 1:4:4:5 with yerrorlines \
		lt (i % 8 + 1) dashtype i % 5 + 1 pt (i % 13 + 1) ps 1.2 title columnheader(1)
	unset multiplot
}
