# style.gp — what every tilelab chart shares: the output file, reading the
# kit's CSV files, and one colour per kernel and per lab.
#
# Load it before a chart script, in the same gnuplot run:
#   gnuplot -e "fmt='png'; out='bw.png'; file='results/bench.csv'; gpu='NVIDIA H200'" \
#           plots/style.gp plots/bandwidth.gp
# `make plots` (plots/render.sh) does exactly that, once for PNG, once for SVG.
#
# Variables the caller passes with -e:
#   fmt   'png' or 'svg'
#   out   the output file
#   file  the CSV to read
#   gpu   the GPU's name for the subtitle (optional)
#   date_utc  when the input was measured (optional; the bench CSV says)

if (!exists("fmt")) fmt = "png"
if (!exists("out")) out = "chart." . fmt
if (!exists("gpu")) gpu = ""
gpu_name = gpu eq "" ? "GPU not named in the input" : gpu
if (!exists("date_utc")) date_utc = ""

# eval output(w, h): the canvas. Both formats get the same size in pixels so
# the PNG and the SVG of a chart look alike. White background: the PNGs go
# into handouts and slides, which are not always white.
output(w, h) = sprintf("set terminal %s enhanced font 'sans,%d' background '#ffffff'; set output '%s'", \
    fmt eq "svg" ? sprintf("svg size %d,%d dynamic", w, h) : sprintf("pngcairo size %d,%d", w, h), \
    fmt eq "svg" ? 12 : 11, out)

# The kit's CSV files: comma-separated, '#' lines are metadata, then one
# header line naming the columns. Columns are read by name, so a column added
# later does not move the others. An empty field is "not applicable": gnuplot
# treats it as missing and leaves the point out.
# Charts pick their rows with an expression that gives NaN for the others;
# "missing NaN" makes those rows vanish instead of breaking the line there.
set datafile separator comma
set datafile columnheaders
set datafile commentschars "#"
set datafile missing NaN

# One colour per kernel, the same in every chart (Okabe-Ito: readable by
# colour-blind readers and in greyscale print). The copy is black: it is the
# ceiling every other line is measured against.
kernel_color(s) = \
    s eq "copy"    ? "#000000" : \
    s eq "naive"   ? "#D55E00" : \
    s eq "tiled"   ? "#E69F00" : \
    s eq "padded"  ? "#009E73" : \
    s eq "register" ? "#F0E442" : \
    s eq "inplace" ? "#CC79A7" : \
    s eq "dbuf"    ? "#56B4E9" : \
    s eq "warptile" ? "#CC79A7" : \
    s eq "cublas"  ? "#0072B2" : "#777777"

# Display names; the CSV keeps short machine keys.
kernel_name(s) = \
    s eq "naive"   ? "naive" : \
    s eq "tiled"   ? "shared tile" : \
    s eq "padded"  ? "padded tile" : \
    s eq "register" ? "in-register (float4)" : \
    s eq "inplace" ? "in place" : \
    s eq "dbuf"    ? "double-buffered" : \
    s eq "warptile" ? "warp-tiled (registers)" : \
    s eq "cublas"  ? "cuBLAS" : s

# One colour per lab ("lab1" .. "lab6", then again), for the class and history charts.
lab_color(lab) = word("#D55E00 #E69F00 #009E73 #0072B2 #CC79A7 #56B4E9", (int(real(lab[4:])) - 1) % 6 + 1)

# Reference solutions are solid lines with filled points, the student's own
# kernels dashed with open points: the gap between the two is the lesson.
ref_dash = 1
student_dash = 2

set grid back lc rgb "#dddddd" lw 1
set border 3 lc rgb "#444444"
set tics nomirror out
set key box lc rgb "#bbbbbb" opaque samplen 4 spacing 1.1

# A chart draws only the series its input holds, so its plot command is
# built as a string, one clause per series present, and run with eval: in
# gnuplot 5.4 `plot for [s in list]` runs once even when the list is empty
# (an empty data set, a warning and a stray key entry), `do for` does not.
# plot_cmd(clauses) turns ", a, b" into "plot a, b".
plot_cmd(clauses) = "plot " . clauses[3:]

# Sizes in binary units, for axis tics and labels.
size_label(mib) = mib < 1 ? sprintf("%.0f KiB", mib * 1024) : mib < 1024 ? sprintf("%.0f MiB", mib) : sprintf("%.0f GiB", mib / 1024)

# The labs' bench series, in lab order (plots/render.sh passes them from the
# rubrics' bench_series lines); these defaults when a chart is drawn by hand.
if (!exists("transpose_series") || transpose_series eq "") transpose_series = "naive tiled padded register"
if (!exists("matmul_series") || matmul_series eq "") matmul_series = "tiled dbuf warptile"
