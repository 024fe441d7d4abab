# latency.gp — the lock family's sampled acquisition wait vs threads: per
# lock, the median over repetitions of its p50 (solid) and p99 (dashed),
# log y.  Variables: datafile (index blocks "LOCK p50"/"LOCK p99", each
# "threads ns"), nseries, plottitle, outbase.
set key outside right top noautotitle noenhanced box
set grid
set xlabel "threads (log_2 scale)"
set ylabel "wait to acquire, ns (sampled, log scale)"
set logscale x 2
set logscale y 10
set xtics 1,2
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05
set title plottitle noenhanced font ",10"

# one thread count, or one value: gnuplot would warn of an empty range
stats datafile using 1 nooutput prefix "X"
stats datafile using 2 nooutput prefix "Y"
if (X_min == X_max) { set xrange [X_min / 1.5 : X_max * 1.5] }
if (Y_min == Y_max) { set yrange [Y_min / 2 : Y_max * 2] }

do for [term in "png svg"] {
	if (term eq "png") {
		set terminal pngcairo size 1100,620 noenhanced font ",10"
		set output outbase.".png"
	} else {
		set terminal svg size 1100,620 dynamic noenhanced font ",10"
		set output outbase.".svg"
	}
	# blocks come sorted: "L p50", "L p99" for each lock L, so i / 2 is the lock
	plot for [i=0:nseries-1] datafile index i using 1:2 with linespoints \
		lt (i / 2 % 8 + 1) lw 1.5 dashtype 1 + i % 2 pt (i / 2 % 13 + 1) ps 1.1 \
		title columnheader(1)
}
