# common.gp — what every figure shares; `stratbench plot` puts it in each
# DIR/plots/NAME.gp after the figure's variables and before its template,
# so a NAME.gp re-runs alone (cd DIR/plots && gnuplot NAME.gp).
#
# Styles: 12 series, each with its own colour, dash pattern AND point shape,
# so a figure reads in black and white and for colour-blind readers.  Red
# is kept for the noisy marker (a hollow red circle, linestyle 100) and the
# open circle (pt 6) for it alone.  More than 12 series repeat the cycle.
# Canvas: W x H pixels (the figure sets them), 10-point text.

set termoption noenhanced
# No `set encoding utf8`: the titles' UTF-8 bytes pass through the default
# encoding, while utf8 makes the SVG terminal call iconv, which warns where
# there is no locale or gconv module (the lab guest).

set dashtype 1 solid
set dashtype 2 (10,6)
set dashtype 3 (3,5)
set dashtype 4 (12,4,3,4)
set dashtype 5 (12,4,3,4,3,4)
set dashtype 6 (22,6)
set dashtype 7 (22,5,3,5)
set dashtype 8 (6,3)
set dashtype 9 (22,4,8,4)
set dashtype 10 (2,3,2,3,10,3)
set dashtype 11 (16,4,2,4,2,4,2,4)
set dashtype 12 (30,8)

set linetype 1 lc rgb "#1f77b4" dt 1 pt 5 lw 1.6 ps 1.1
set linetype 2 lc rgb "#ff7f0e" dt 2 pt 7 lw 1.6 ps 1.1
set linetype 3 lc rgb "#2ca02c" dt 3 pt 9 lw 1.6 ps 1.2
set linetype 4 lc rgb "#9467bd" dt 4 pt 11 lw 1.6 ps 1.2
set linetype 5 lc rgb "#8c564b" dt 5 pt 13 lw 1.6 ps 1.3
set linetype 6 lc rgb "#e377c2" dt 6 pt 1 lw 1.6 ps 1.4
set linetype 7 lc rgb "#4d4d4d" dt 7 pt 2 lw 1.6 ps 1.3
set linetype 8 lc rgb "#a5a500" dt 8 pt 3 lw 1.6 ps 1.4
set linetype 9 lc rgb "#17becf" dt 9 pt 4 lw 1.6 ps 1.1
set linetype 10 lc rgb "#000000" dt 10 pt 8 lw 1.6 ps 1.2
set linetype 11 lc rgb "#393b79" dt 11 pt 10 lw 1.6 ps 1.2
set linetype 12 lc rgb "#c49a00" dt 12 pt 12 lw 1.6 ps 1.3
set linetype cycle 12

# noisy points (CV above the run's threshold): a large hollow red circle
set style line 100 lc rgb "#e00000" pt 6 ps 2.6 lw 2
# reference lines (a limit, the timing floor): black, long dashes
set style line 101 lc rgb "#000000" dt 6 lw 2

set grid lc rgb "#d0d0d0"
set border lw 1
set tics nomirror

# term(t): the commands that make the next plot write NAME.png or NAME.svg
term(t) = t eq "png" ? \
	sprintf("set terminal pngcairo size %d,%d noenhanced font 'Sans,10'; set output '%s.png'", W, H, outbase) : \
	sprintf("set terminal svg size %d,%d dynamic noenhanced font 'Sans,10'; set output '%s.svg'", W, H, outbase)
