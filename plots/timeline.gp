# timeline.gp — window-timeline: pages admitted per window over time, one
# panel per policy (small multiples, one x axis).  A box is one window,
# from its starting reset to the next, as high as the pages admitted in
# it; hatched: an idle window (no caller for an interval or more); the x
# grid marks every interval (where a policy that keeps the phase puts its
# boundaries); the dashed line is the limit.  Shaped in C
# (bench/figures/fig_timeline.c).
# Variables: outbase datafile plottitle npanel KEY[] LT[] LIMIT[] xmax
#   ymax interval_ms.  datafile: a block per panel, "start_ms end_ms pages idle":
#   idle 1 an idle window (its first interval, when longer), 2 the rest of it,
#   after it expired with no call: a low hatched band, not a box of pages.
W = 1100
H = 170 + 150 * npanel
top = 1 - 125.0 / H
bottom = 55.0 / H
ph = (top - bottom) / npanel

set xrange [0:xmax]
set xtics 0, interval_ms * 5
set mxtics 5
# the grid in front of the boxes: a box edge off the grid is a window out of phase
set grid front xtics mxtics lc rgb "#606060" lw 1 dt 3, lc rgb "#909090" lw 1 dt 3
set yrange [0:ymax]
idleband = ymax * 0.06
set format y "%g"
set lmargin at screen 0.09
set rmargin at screen 0.97

do for [t in "png svg"] {
	eval term(t)
	set multiplot title plottitle font ",11"
	do for [i=1:npanel] {
		set tmargin at screen top - (i - 1) * ph
		set bmargin at screen top - i * ph + 0.01
		set format x (i == npanel ? "%g" : "")
		set xlabel (i == npanel ? "time since the first window, ms (grid: every interval)" : "")
		set ylabel (i == (npanel + 1) / 2 ? "pages admitted per window" : "")
		unset label
		set label 1 KEY[i] at graph 0.005, graph 0.88 left front boxed
		set ytics (0, LIMIT[i]) font ",9"
		if (i == 1) {
			set key at screen 0.53, screen top + 0.005 center bottom horizontal Left \
				reverse samplen 2 maxcols 3
		} else {
			unset key
		}
		plot datafile index (i - 1) using ($4 < 2 ? ($1 + $2) / 2 : NaN):3:1:2:(0):3 \
			with boxxyerror lt LT[i] dt 1 fs solid 0.45 border lc rgb "#303030" \
			title "a window: from its reset to the next, as high as its pages", \
		     datafile index (i - 1) using ($4 == 1 ? ($1 + $2) / 2 : NaN):3:1:2:(0):3 \
			with boxxyerror lc rgb "#000000" fs pattern 4 transparent title "idle window", \
		     datafile index (i - 1) using ($4 == 2 ? ($1 + $2) / 2 : NaN):(0):1:2:(0):(idleband) \
			with boxxyerror lc rgb "#808080" fs pattern 5 transparent \
			title "expired, no call (idle)", \
		     LIMIT[i] with lines ls 101 title sprintf("limit: %g pages per window", LIMIT[i])
	}
	unset multiplot
}
