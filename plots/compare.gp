# compare.gp — %Change per point between two runs: one horizontal bar
# each, under a line per family naming what its points share.  The fill
# follows the verdict of the 95 % interval of the change (its whisker):
# solid green a change up, hatched red a change down (it reads in black and
# white too), light grey within the noise (the interval holds 0), an empty
# outline where there is no verdict (n too small, or a side preempted).  A point noisy on either
# side (CV above its run's threshold) keeps its fill and gets a red dashed
# border.  The family lines start in the left margin, on an opaque box: no
# axis or grid line runs through them.  Shaped in C (bench/figures/fig_compare.c).
# Variables: outbase datafile plottitle nbars metric xmin xmax nnoisy noisykey
# datafile (tab-separated), the first row on top:
#   point  %change  p (-: none)  noisy  verdict (1 up, -1 down, 0 ~, 2 none)
#   lo  hi (the 95 % interval, %)  family header (-: a bar's row)
W = 1300
H = 200 + 20 * nbars
LM = 48			# the left margin, characters: the points' names
set datafile separator "\t"
set xrange [xmin:xmax]
set yrange [nbars - 0.4:-0.6]
set ytics () noenhanced font ",9"
set grid x
set yzeroaxis lt -1
set xlabel sprintf("%%Change of the median %s: (new - old) ÷ old × 100; whisker: its 95 %% bootstrap interval", metric)
set key outside right top vertical Left reverse samplen 2
set lmargin LM
set style textbox opaque noborder
h = 0.35
bar(v) = column(5) == v ? column(2) / 2 : NaN

do for [t in "png svg"] {
	eval term(t)
	set title plottitle font ",11"
	plot datafile using (bar(1)):0:($2 / 2):(h):ytic(1) \
		with boxxyerror fs solid 0.6 lc rgb "#1a7f37" dt 1 title "changed: up", \
	     datafile using (bar(-1)):0:(-$2 / 2):(h) \
		with boxxyerror fs pattern 4 lc rgb "#b42318" dt 1 title "changed: down", \
	     datafile using (bar(0)):0:(abs($2) / 2):(h) \
		with boxxyerror fs solid 0.35 lc rgb "#9a9a9a" dt 1 title "~ (the interval holds 0)", \
	     datafile using (strcol(8) eq "-" ? bar(2) : NaN):0:(abs($2) / 2):(h) \
		with boxxyerror fs empty lc rgb "#606060" dt 1 title "no verdict (n too small, or preempted)", \
	     datafile using ($4 > 0 ? $2 / 2 : NaN):0:(abs($2) / 2):(h) \
		with boxxyerror lc rgb "#e00000" lw 2 dt 2 fs empty border \
		title (nnoisy > 0 ? noisykey : ""), \
	     datafile using (valid(6) && valid(7) ? $2 : NaN):0:6:7 \
		with xerrorbars lc rgb "#000000" pt 7 ps 0.4 title "95 % interval", \
	     datafile using (strcol(8) ne "-" ? xmin : NaN):0:8 with labels left boxed \
		offset char -(LM - 1), 0 font ",9" notitle
}
