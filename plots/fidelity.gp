# fidelity.gp — window fidelity per policy, grouped bars at each thread
# count, two panels: stretch (window length ÷ interval) above, admit_ratio
# (pages admitted per window ÷ limit) below.  A bar runs from 1 (the
# ideal) to the median over repetitions of the run's mean over windows;
# its whisker spans the repetitions' min–max, its point is the policy's
# shape, the black triangle is the worst single window.  Shaped in C
# (bench/figures/fig_window.c).
# Variables: outbase datafile plottitle ngroups bw KEY[] LT[] nx XTL[]
#   YMIN[2] YMAX[2] nnoisy noisykey keyw
# datafile: one block per policy, rows
#   pos  stretch lo hi noisy worst  admit lo hi noisy worst
W = 1100; H = 860
left = 0.08
right = 1 - keyw - 0.02
array YLABEL[2] = ["stretch: window length ÷ interval (1: one interval)", \
		   "admit_ratio: pages admitted ÷ limit (1: the limit)"]
array TOP[2] = [0.87, 0.47]
array BOT[2] = [0.53, 0.12]

set xrange [-0.5:nx - 0.5]
set xtics () scale 0
do for [k=1:nx] { set xtics add (XTL[k] k - 1) }
set grid noxtics ytics
set format y "%g"

do for [t in "png svg"] {
	eval term(t)
	set multiplot title plottitle font ",11"
	do for [q=1:2] {
		c = 2 + 5 * (q - 1)
		set lmargin at screen left
		set rmargin at screen right
		set tmargin at screen TOP[q]
		set bmargin at screen BOT[q]
		set ylabel YLABEL[q]
		set yrange [YMIN[q]:YMAX[q]]
		set xlabel (q == 2 ? "threads (a group of bars per thread count)" : "")
		if (q == 1) {
			set key at screen 1 - keyw, screen TOP[1] left top Left reverse samplen 2
		} else {
			unset key
		}
		plot for [i=1:ngroups] datafile index (i - 1) \
			using 1:(column(c)):($1 - bw / 2):($1 + bw / 2):(1):(column(c)) \
			with boxxyerror lt LT[i] dt 1 fs solid 0.5 border lc rgb "#303030" title KEY[i], \
		     for [i=1:ngroups] datafile index (i - 1) \
			using 1:(column(c)):(column(c + 1)):(column(c + 2)) with yerrorbars \
			lt LT[i] lc rgb "#202020" ps 1.0 notitle, \
		     for [i=1:ngroups] datafile index (i - 1) using 1:(column(c + 4)) \
			with points pt 9 ps 1.3 lc rgb "#000000" notitle, \
		     for [i=1:ngroups] datafile index (i - 1) \
			using 1:(column(c + 3) > 0 ? column(c) : NaN) with points ls 100 notitle, \
		     keyentry with points pt 9 ps 1.3 lc rgb "#000000" \
			title "worst single window", \
		     keyentry with yerrorbars lc rgb "#202020" pt 0 title "min–max of repetitions", \
		     for [k=1:(nnoisy > 0)] keyentry with points ls 100 title noisykey, \
		     1 with lines lt -1 dt 2 lw 1 notitle
	}
	unset multiplot
}
