# lines.gp — series against x (threads, or a parameter such as the batch
# size): throughput, of-limit, lock latency, shootdown, merged machines.
# One or two panels side by side, one key for both at the right (at most a
# quarter of the width) or below.  Every number is shaped in C
# (bench/report/fig_*.c); this template only draws.
#
# Variables: W H outbase datafile plottitle xlabel npanels (1|2)
#   logx (0, 2, 10) XT[] XTL[] (x tics, labels)  xmin xmax
#   bycat (1: one x value, a column per series, XTL its names) xtlpx
#   per panel p: YLABEL[p] PTITLE[p] LOGY[p] YMIN[p] YMAX[p] YFMT[p]
#   nseries KEY[] LT[] DT[]  (KEY "": no key entry for that series)
#   haserr (1: bars from min to max)  nnoisy noisykey
#   nref REFY[] REFKEY[] REFLABEL[] REFDT[] (horizontal references, panel 1;
#     REFKEY in the key, REFLABEL a line under the plot, off the data)
#   nnote NOTE[] NOTEDT[] NOTELC[] (key lines explaining a dash pattern;
#     white: text alone)
#   keyright (1: key at the right, from screen x = 1 - keyw; 0: below) keyw keyrows
# datafile: one block per series (two blank lines apart), each row
#   x  y lo hi noisy  [y2 lo2 hi2 noisy2]
# y: the median over repetitions; NaN where there is no value (or, on a
# log axis, where it is not positive: the key says so).

PLOTWITH = haserr ? "yerrorlines" : "linespoints"
if (logx) { set logscale x logx }
set xrange [xmin:xmax]
set xtics ()
do for [i=1:|XT|] { set xtics add (XTL[i] XT[i]) }
# one x value (bycat): a column per series, named under it, rotated
if (bycat) { set xtics rotate by 30 right font ",9" }
set xlabel xlabel

top = 0.86
left = npanels == 1 ? 0.09 : 0.07
right = keyright ? 1 - keyw - 0.02 : 0.97
# the references' labels go under the plot, a line each: never over the data
bottom = (keyright ? 70.0 : 100.0 + 19 * keyrows) / H + (nref * 15.0 + xtlpx) / H
gap = 0.08
pw = (right - left - (npanels - 1) * gap) / npanels

do for [t in "png svg"] {
	eval term(t)
	set multiplot title plottitle font ",11"
	do for [p=1:npanels] {
		c = 2 + 4 * (p - 1)
		set lmargin at screen left + (p - 1) * (pw + gap)
		set rmargin at screen left + (p - 1) * (pw + gap) + pw
		set tmargin at screen top
		set bmargin at screen bottom
		set title PTITLE[p] font ",10"
		set ylabel YLABEL[p]
		set format y YFMT[p]
		unset logscale y
		if (LOGY[p]) { set logscale y LOGY[p] }
		set yrange [YMIN[p]:YMAX[p]]
		unset label
		if (p == 1) { do for [k=1:nref] {
			set label 10 + k sprintf("reference line%s (black): %s", \
				nref > 1 ? sprintf(" %d", k) : "", REFLABEL[k]) \
				at screen 0.01, screen (nref - k) * 15.0 / H + 8.0 / H left font ",9"
		} }
		if (p == npanels) {
			if (keyright) {
				set key at screen 1 - keyw, screen top left top Left reverse samplen 3 spacing 1.15
			} else {
				set key at screen left, screen bottom - (58.0 + xtlpx) / H left top \
					vertical Left reverse \
					samplen 3 maxrows keyrows width 2
			}
		} else {
			unset key
		}
		plot for [i=1:nseries] datafile index (i - 1) \
			using 1:(column(c)):(column(c + 1)):(column(c + 2)) with @PLOTWITH \
			lt LT[i] dt DT[i] title KEY[i], \
		     for [i=1:nseries] datafile index (i - 1) \
			using 1:(column(c + 3) > 0 ? column(c) : NaN) with points ls 100 notitle, \
		     for [k=1:(nnoisy > 0)] keyentry with points ls 100 title noisykey, \
		     for [k=1:(p == 1 ? nref : 0)] REFY[k] with lines ls 101 dt REFDT[k] \
			title REFKEY[k], \
		     for [k=1:nnote] keyentry with lines lc rgb NOTELC[k] lw 1.6 dt NOTEDT[k] \
			title NOTE[k]
	}
	unset multiplot
}
