# throughput.gp — a metric (ops/s unless ylabelmetric says) vs threads, one
# line per series, error bars from the repetitions' min to max, y from 0;
# points whose CV exceeds the threshold circled.  Series differ by dash
# pattern and point shape as well as colour, so the figure reads in black
# and white.  Variables (gnuplot -e): datafile (one index block per series:
# title line, then "threads median min max"), noisyfile ("threads value"),
# hasnoisy, cvthreshold, nseries, plottitle, outbase, [ylabelmetric].
if (!exists("ylabelmetric")) ylabelmetric = "ops_per_s"
set key outside right top noautotitle noenhanced box
set grid
set xlabel "threads (log_2 scale)" noenhanced
if (ylabelmetric eq "ops_per_s") {
	set ylabel "operations/s, all threads (median)"
} else {
	set ylabel ylabelmetric." (median)" noenhanced
}
set format y "%.1s%c"
set logscale x 2
set xtics 1,2
set yrange [0:*]
set offsets graph 0.03, graph 0.03, graph 0.05, 0
set title plottitle noenhanced font ",10"

# one thread count, or all values 0: gnuplot would warn of an empty range
stats datafile using 1 nooutput prefix "X"
stats datafile using 2 nooutput prefix "Y"
if (X_min == X_max) { set xrange [X_min / 1.5 : X_max * 1.5] }
if (Y_max <= 0) { set yrange [0:1] }

plotcmd = "plot for [i=0:nseries-1] datafile index i using 1:2:3:4 with yerrorlines " . \
	"lt (i % 8 + 1) lw 1.5 dashtype i % 5 + 1 pt (i % 13 + 1) ps 1.1 title columnheader(1)"
if (hasnoisy) {
	plotcmd = plotcmd . ", noisyfile using 1:2 with points pt 6 ps 3 lc rgb 'black' " . \
		  "title sprintf('CV > %g %%', cvthreshold + 0)"
}

do for [term in "png svg"] {
	if (term eq "png") {
		set terminal pngcairo size 1100,620 noenhanced font ",10"
		set output outbase.".png"
	} else {
		set terminal svg size 1100,620 dynamic noenhanced font ",10"
		set output outbase.".svg"
	}
	eval plotcmd
}
