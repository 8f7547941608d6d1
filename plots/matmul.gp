# matmul.gp — matrix multiply throughput (GFLOP/s) against problem size, from
# the bench CSV (`make bench`): naive, shared tile, double-buffered tile and
# cuBLAS SGEMM (FP32). Run with plots/style.gp first (see there).
#
# A multiply of M x K by K x N does 2*M*N*K floating-point operations (one
# multiply and one add per term), whatever the kernel, so GFLOP/s compares
# kernels directly. cuBLAS is the practical ceiling, an order of magnitude
# above a first tiled kernel: hence a log scale for throughput too.
# Reference solutions are solid, the student's kernels dashed.

eval output(1100, 700)

# A row belongs to kernel s run by w (a "reference" solution, the "student",
# the cuBLAS "library"); only verified results count. x is the work in GFLOP,
# which any shape has: squares make the lines, the few non-square shapes are
# open symbols beside them. Other rows give NaN, which style.gp skips.
pick(s, w, square) = (strcol("op") eq "matmul" && strcol("series") eq s && strcol("who") eq w \
    && column("verified") == 1 && (column("rows") == column("cols") && column("cols") == column("depth")) == square) \
    ? 2.0 * column("rows") * column("cols") * column("depth") / 1e9 : NaN

runs(s) = s eq "cublas" ? "library" : "reference student"
who_name(w) = w eq "student" ? "yours" : w

# One plot clause per series the CSV holds (counted as in bandwidth.gp): a
# kernel nobody has written yet is simply absent.
P = ""
others = 0
do for [s in "naive " . matmul_series . " cublas"] {
    do for [w in runs(s)] {
        points = w eq "student" ? "pt 6 ps 1.1 dt 2" : "pt 7 ps 0.9 dt 1"
        stats file using (pick(s, w, 1) == pick(s, w, 1) ? 1 : 0) nooutput
        if (STATS_sum > 0) {
            P = P . sprintf(', file using (pick("%s", "%s", 1)):"gflops" smooth unique with linespoints lw %d %s lc rgb "%s" title "%s (%s)"', \
                s, w, s eq "cublas" ? 3 : 2, points, kernel_color(s), kernel_name(s), who_name(w))
        }
        stats file using (pick(s, w, 0) == pick(s, w, 0) ? 1 : 0) nooutput
        if (STATS_sum > 0) {
            others = 1
            P = P . sprintf(', file using (pick("%s", "%s", 0)):"gflops" with points pt %d ps 1.1 lc rgb "%s" notitle', \
                s, w, w eq "student" ? 12 : 4, kernel_color(s))
        }
    }
}
if (P eq "") {
    exit error sprintf("%s has no verified matmul rows yet", file)
}
if (others) {
    P = P . ', NaN with points pt 4 ps 1.1 lc rgb "#444444" title "non-square shape"'
}

stats file using (strcol("op") eq "matmul" && column("verified") == 1 ? \
    2.0 * column("rows") * column("cols") * column("depth") / 1e9 : NaN) name "X" nooutput
stats file using (strcol("op") eq "matmul" ? column("gflops") : NaN) name "Y" nooutput

set logscale xy 10
set xrange [X_min / 2 : X_max * 2]
set yrange [10**floor(log10(Y_min)) : 10**ceil(log10(Y_max * 1.05))]
set format x "%g"
set format y "%.0f"
# Tics at 1, 2 and 5 of each decade: a log axis with only powers of ten is
# hard to read off.
tics = ""
do for [e = 0 : 7] { do for [m in "1 2 5"] { tics = tics . sprintf(", %g", real(m) * 10**e) } }
eval "set ytics (" . tics[3:] . ")"
# Top axis: the square side n that does that much work (2 n^3 flop).
set logscale x2 10
set x2range [X_min / 2 : X_max * 2]
tics = ""
do for [k = 6 : 15] { tics = tics . sprintf(", \"%d^2\" %g", 2**k, 2.0 * 8.0**k / 1e9) }
eval "set x2tics nomirror (" . tics[3:] . ")"
set xtics nomirror
set xlabel "work per multiply (GFLOP = 2·M·N·K / 10^9, log scale)"
set x2label "square matrices, side^2 (M = N = K, float32)"
set ylabel "throughput (GFLOP/s, median, log scale)"
set title sprintf("{/:Bold Matrix multiply throughput vs size}\n{/*0.85 %s%s, FP32}", \
    gpu_name, date_utc eq "" ? "" : ", " . date_utc) offset 0, 0.6
set key outside right top vertical title "kernel (who)" left

eval plot_cmd(P)
