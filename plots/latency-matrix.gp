# latency-matrix.gp — core-to-core one-way cache-line latency, CPU × CPU,
# shade and cell label = ns (median of the timed batches), packages (solid)
# and NUMA nodes (dashed) outlined.  Readable in black and white: white is
# 0 ns, dark grey the slowest pair, and small matrices carry their values in the cells.
# Variables (gnuplot -e): datafile ("x y ns" rows, NaN where not measured
# or on the diagonal), setupfile (axis labels, outlines, cell labels made by
# scripts/plot.sh), outbase, plottitle, n (CPUs on each axis).
set title plottitle noenhanced
set xlabel "CPU — lines: package (solid), NUMA node (dashed); hatched: not measured"
set ylabel "CPU"
set cblabel "one-way latency (ns)"
set palette defined (0 "#ffffff", 1 "#595959")
set size ratio -1
set xrange [-0.5:n - 0.5]
set yrange [n - 0.5:-0.5]	# CPU order top to bottom, as a table
set tics out nomirror
set datafile missing "NaN"
set cbrange [0:*]		# shades proportional to ns
set key off
load setupfile
# hatched: the diagonal, and pairs a sampled matrix did not measure
set object 1 rect from -0.5,-0.5 to n - 0.5,n - 0.5 behind fc rgb "#000000" fs pattern 4 transparent

set terminal pngcairo size 900,800 noenhanced
set output outbase.".png"
plot datafile using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder lc palette
set terminal svg size 900,800 dynamic noenhanced
set output outbase.".svg"
replot
