# bandwidth.gp — transpose bandwidth (GB/s) against matrix size, from the
# bench CSV (`make bench`). Run with plots/style.gp first (see there), e.g.
#   gnuplot -e "file='results/bench.csv'; l2_bytes=62914560; out='bw.png'" \
#           plots/style.gp plots/bandwidth.gp
#
# What it shows: every kernel moves the same bytes (each element read once,
# written once), so GB/s compares them directly. The device-to-device copy
# moves those bytes with perfectly coalesced reads and writes: no transpose
# can beat it, so it is drawn as the ceiling. Reference solutions are solid,
# the student's kernels dashed. Small sizes are launch-bound (a few
# microseconds of fixed cost dominate), so every line starts low; the
# differences show once the matrix no longer fits in L2.

eval output(1100, 700)
if (!exists("l2_bytes")) l2_bytes = 0
MiB = 2.0**20

# A row belongs to kernel s run by w: the "device" (its copy), a "reference"
# solution, the "student", the cuBLAS "library"; only verified results count.
# x is bytes moved (2 * rows * cols * 4), which any shape has: squares make
# the lines, the few non-square shapes are open symbols beside them. Other
# rows give NaN, which style.gp makes gnuplot skip.
pick(s, w, square) = (strcol("op") eq "transpose" && strcol("series") eq s && strcol("who") eq w \
    && column("verified") == 1 && (column("rows") == column("cols")) == square) ? column("bytes") / MiB : NaN
runs(s) = s eq "copy" ? "device" : s eq "cublas" ? "library" : "reference student"
who_name(w) = w eq "student" ? "yours" : w

# One plot clause per series the CSV holds: a kernel the student has not
# written yet is simply absent. stats counts the rows of each (1 or 0 per row,
# so it never sees an empty set).
P = ""
others = 0
do for [s in "copy " . transpose_series . " inplace cublas"] {
    do for [w in runs(s)] {
        color = kernel_color(s)
        points = w eq "student" ? "pt 6 ps 1.1 dt 2" : "pt 7 ps 0.9 dt 1"
        stats file using (pick(s, w, 1) == pick(s, w, 1) ? 1 : 0) nooutput
        if (STATS_sum > 0) {
            if (s eq "copy") {
                P = P . sprintf(', file using (pick("copy", "device", 1)):"gbps" smooth unique with lines lw 3 lc rgb "%s" title "copy (the ceiling)"', color)
            } else {
                P = P . sprintf(', file using (pick("%s", "%s", 1)):"gbps" smooth unique with linespoints lw 2 %s lc rgb "%s" title "%s (%s)"', \
                    s, w, points, color, kernel_name(s), who_name(w))
            }
        }
        stats file using (pick(s, w, 0) == pick(s, w, 0) ? 1 : 0) nooutput
        if (STATS_sum > 0) {
            others = 1
            P = P . sprintf(', file using (pick("%s", "%s", 0)):"gbps" with points pt %d ps 1.1 lc rgb "%s" notitle', \
                s, w, w eq "student" ? 12 : 4, color)
        }
    }
}
if (P eq "") {
    exit error sprintf("%s has no verified transpose rows yet", file)
}
if (others) {
    P = P . ', NaN with points pt 4 ps 1.1 lc rgb "#444444" title "non-square shape"'
}

stats file using (strcol("op") eq "transpose" ? column("bytes") / MiB : NaN) name "X" nooutput
stats file using (strcol("op") eq "transpose" ? column("gbps") : NaN) name "Y" nooutput

set logscale x 2
set xrange [X_min / 1.6 : X_max * 1.6]
set yrange [0 : Y_max * 1.12]
set ytics format "%.0f"
# Bottom: bytes moved, in binary units; top: the square side that moves it
# (a 256 x 256 float matrix moves 2 * 256^2 * 4 B = 0.5 MiB). A square's side
# doubles every factor of 4 in bytes, so both axes share tick positions.
tics = ""
do for [e = -1 : 13 : 2] { tics = tics . sprintf(", \"%s\" %g", size_label(2.0**e), 2.0**e) }
eval "set xtics nomirror (" . tics[3:] . ")"
set logscale x2 2
set x2range [X_min / 1.6 : X_max * 1.6]
tics = ""
do for [k = 7 : 15] { tics = tics . sprintf(", \"%d^2\" %g", 2**k, 8.0 * 4**k / MiB) }
eval "set x2tics nomirror (" . tics[3:] . ")"
set xlabel "bytes moved per transpose (read + write, log scale)"
set x2label "square matrix, side^2 (float32)"
set ylabel "bandwidth (GB/s, median of cold runs)"
set title sprintf("{/:Bold Transpose bandwidth vs matrix size}\n{/*0.85 %s%s, L2 flushed before every run}", \
    gpu_name, date_utc eq "" ? "" : ", " . date_utc) offset 0, 0.6

# The L2 capacity: left of the line the whole problem could stay in L2.
if (l2_bytes > 0) {
    set arrow 1 from first l2_bytes / MiB, graph 0 to first l2_bytes / MiB, graph 1 nohead lc rgb "#888888" dt 3 lw 1.5 back
    set label 1 sprintf("L2 = %s", size_label(l2_bytes / MiB)) at first l2_bytes / MiB, graph 0.04 offset 0.6, 0 left tc rgb "#555555"
}
set key outside right top vertical title "kernel (who)" left

eval plot_cmd(P)
