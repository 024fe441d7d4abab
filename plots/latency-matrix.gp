# latency-matrix.gp — core-to-core one-way cache-line latency, CPU x CPU:
# shade and (up to 16 CPUs) the cell's value in ns; packages outlined
# solid, NUMA nodes dashed; hatched: the diagonal and pairs not measured.
# Readable in black and white: white is 0 ns, dark grey the slowest pair.
# Variables: W H outbase datafile plottitle n (CPUs) CPU[] (their numbers,
# in axis order).  datafile: index 0 "i j ns", index 1 the outlines
# "x0 y0 x1 y1 kind" (1 package, 2 NUMA node).
W = 900; H = 820
set title plottitle font ",11"
set xlabel "CPU — lines: package (solid), NUMA node (dashed); hatched: not measured"
set ylabel "CPU"
set cblabel "one-way latency (ns)"
set palette defined (0 "#ffffff", 1 "#595959")
set size ratio -1
set xrange [-0.5:n - 0.5]
set yrange [n - 0.5:-0.5]	# CPU order top to bottom, as a table
set cbrange [0:*]		# shades proportional to ns
set tics out nomirror
unset grid
set key off
ticfont = n > 24 ? ",7" : ",10"
set xtics () font ticfont rotate by (n > 24 ? 90 : 0)
set ytics () font ticfont
do for [i=1:n] {
	set xtics add (CPU[i] i - 1)
	set ytics add (CPU[i] i - 1)
}
set object 1 rect from -0.5,-0.5 to n - 0.5,n - 0.5 behind fc rgb "#000000" \
	fs pattern 4 transparent

do for [t in "png svg"] {
	eval term(t)
	plot datafile index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder \
		lc palette, \
	     datafile index 0 using 1:2:(n <= 16 ? sprintf("%.0f", $3) : "") with labels \
		center, \
	     datafile index 1 using ($5 == 1 ? $1 : NaN):2:($3 - $1):($4 - $2) with vectors \
		nohead lw 3 lc rgb "black" dt 1, \
	     datafile index 1 using ($5 == 2 ? $1 : NaN):2:($3 - $1):($4 - $2) with vectors \
		nohead lw 2 lc rgb "black" dt 2
}
