# compare.gp — %Change per point between two runs: one horizontal bar
# each, under a line per family naming what its points share; solid green
# for an increase, hatched red for a decrease (it reads in black and white
# too); a point noisy on either side (CV above its run's threshold) is a
# dashed outline, not a bar: its change may be noise; "*" where the
# Mann-Whitney U p-value of the repetitions is below 0.05.  Shaped in C
# (bench/figures/fig_compare.c).
# Variables: outbase datafile plottitle nbars metric xmin xmax nnoisy noisykey
# datafile (tab-separated), the first row on top:
#   point  %change  p (-: none)  noisy  family header (-: a bar's row)
W = 1200
H = 200 + 20 * nbars
set datafile separator "\t"
set xrange [xmin:xmax]
set yrange [nbars - 0.4:-0.6]
set ytics () noenhanced font ",9"
set grid x
set yzeroaxis lt -1
set xlabel sprintf("%%Change of the median %s: (new - old) ÷ old × 100;  * : Mann-Whitney U p < 0.05", metric)
set key outside right top vertical Left reverse samplen 2
set lmargin 46
h = 0.35

do for [t in "png svg"] {
	eval term(t)
	set title plottitle font ",11"
	plot datafile using ($4 == 0 && $2 >= 0 ? $2 / 2 : NaN):0:($2 / 2):(h):ytic(1) \
		with boxxyerror fs solid 0.6 lc rgb "#1a7f37" title "increase", \
	     datafile using ($4 == 0 && $2 < 0 ? $2 / 2 : NaN):0:(-$2 / 2):(h) \
		with boxxyerror fs pattern 4 lc rgb "#b42318" title "decrease", \
	     datafile using ($4 > 0 ? $2 / 2 : NaN):0:(abs($2) / 2):(h) \
		with boxxyerror lc rgb "#e00000" lw 2 dt 2 fs empty border \
		title (nnoisy > 0 ? noisykey : ""), \
	     datafile using (strcol(5) ne "-" ? xmin : NaN):0:5 with labels left \
		offset char 0.5, 0 font ",9" notitle, \
	     datafile using ($2 >= 0 ? $2 : NaN):0:(valid(3) && $3 < 0.05 ? "*" : "") \
		with labels offset char 1, 0 font ",14" notitle, \
	     datafile using ($2 < 0 ? $2 : NaN):0:(valid(3) && $3 < 0.05 ? "*" : "") \
		with labels offset char -1, 0 font ",14" notitle
}
