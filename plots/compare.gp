# compare.gp — %Change per benchmark between two runs (stratbench compare):
# one horizontal bar each, solid for an increase, hatched for a decrease
# (so it reads in black and white; colour too), "*" where the Mann-Whitney
# p-value is below 0.05.  Variables: datafile ("name<TAB>change<TAB>p"),
# nbars, metric, plottitle, outbase.
set datafile separator "\t"
stats datafile using 2 nooutput
lo = STATS_min < 0 ? STATS_min : 0
hi = STATS_max > 0 ? STATS_max : 0
if (lo == hi) { hi = 1 }
set xrange [lo - 0.08 * (hi - lo) : hi + 0.08 * (hi - lo)]
set key outside right top vertical noautotitle noenhanced box
set grid x
set xlabel sprintf("%%Change of %s, (new - old) / old x 100;  * : Mann-Whitney U p < 0.05", metric) noenhanced
set ytics noenhanced font ",8"
set yrange [nbars - 0.2:-0.8]	# the first benchmark on top
set xzeroaxis
set style fill pattern border -1
set title plottitle noenhanced font ",10"
h = 0.35
height = 140 + 22 * nbars

do for [term in "png svg"] {
	if (term eq "png") {
		set terminal pngcairo size 1200,height noenhanced font ",10"
		set output outbase.".png"
	} else {
		set terminal svg size 1200,height dynamic noenhanced font ",10"
		set output outbase.".svg"
	}
	plot datafile using ($2 >= 0 ? $2 / 2 : NaN):0:($2 >= 0 ? $2 / 2 : NaN):(h):ytic(1) \
		with boxxyerror fs solid 0.5 lc rgb "#1a7f37" title "increase", \
	     datafile using ($2 < 0 ? $2 / 2 : NaN):0:($2 < 0 ? -$2 / 2 : NaN):(h) \
		with boxxyerror fs pattern 4 lc rgb "#b42318" title "decrease", \
	     datafile using ($2 >= 0 ? $2 : NaN):0:($3 < 0.05 ? "*" : "") with labels \
		offset char 1, 0 font ",14", \
	     datafile using ($2 < 0 ? $2 : NaN):0:($3 < 0.05 ? "*" : "") with labels \
		offset char -1, 0 font ",14"
}
