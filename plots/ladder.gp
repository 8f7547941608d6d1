# ladder.gp — the transpose speedup ladder, from the bench CSV (`make bench`):
# naive -> shared tile -> padded tile -> in-register (-> in place, when measured), each as a
# pair of bars, reference solution and the student's kernel. Run with
# plots/style.gp first (see there).
#
# All bars are measured at one size: the largest square in the CSV that has a
# reference naive result, so every kernel is far past L2 and launch cost is
# noise. Speedup is over the *reference* naive kernel, so the student's bars
# and the reference bars share one scale. The copy is drawn as a line: the
# ceiling no transpose can pass.

eval output(1000, 650)

owner(s) = s eq "copy" ? "device" : "reference"
is(s, w) = strcol("op") eq "transpose" && strcol("series") eq s && strcol("who") eq w \
    && column("verified") == 1 && column("rows") == column("cols")

# The size: the largest square with a reference naive result.
stats file using (is("naive", "reference") ? 1 : 0) nooutput
if (STATS_sum == 0) {
    exit error sprintf("%s has no verified reference naive transpose on a square: nothing to compare against", file)
}
stats file using (is("naive", "reference") ? column("rows") : NaN) name "SIDE" nooutput
side = int(SIDE_max)
at(s, w) = is(s, w) && column("rows") == side
stats file using (at("naive", "reference") ? column("gbps") : NaN) name "BASE" nooutput
base = BASE_median

# The rungs present at that size, in teaching order; position = rung number.
rungs = ""; mine = ""
do for [s in transpose_series . " inplace"] {
    stats file using (at(s, "reference") || at(s, "student") ? 1 : 0) nooutput
    if (STATS_sum > 0) { rungs = rungs . " " . s }
    stats file using (at(s, "student") ? 1 : 0) nooutput
    if (STATS_sum > 0) { mine = mine . " " . s }
}
rung(s) = sum [i = 1 : words(rungs)] (word(rungs, i) eq s ? i : 0)
copy_speedup = NaN
stats file using (at("copy", "device") ? 1 : 0) nooutput
if (STATS_sum > 0) {
    stats file using (at("copy", "device") ? column("gbps") : NaN) name "COPY" nooutput
    copy_speedup = COPY_median / base
}

# Bars: reference left of the rung, the student's right; centred when the
# CSV has no student kernel at all.
bar = 0.36
x_of(s, w) = at(s, w) ? rung(s) + (mine eq "" ? 0 : w eq "reference" ? -bar / 2 : bar / 2) : NaN
tics = ""
do for [i = 1 : words(rungs)] { tics = tics . sprintf("\"%s\" %d, ", kernel_name(word(rungs, i)), i) }
eval "set xtics nomirror scale 0 (" . tics[1 : strlen(tics) - 2] . ")"
set xrange [0.4 : words(rungs) + 0.6]
set yrange [0 : (copy_speedup == copy_speedup ? copy_speedup : 1) * 1.15]
set ytics format "%g×"
set ylabel sprintf("speedup over the reference naive kernel (%.0f GB/s = 1×)", base)
set xlabel sprintf("kernel, all at %d × %d (float32, %s moved)", side, side, size_label(8.0 * side * side / 2**20))
set title sprintf("{/:Bold Transpose speedup ladder}\n{/*0.85 %s%s, median of cold runs}", \
    gpu_name, date_utc eq "" ? "" : ", " . date_utc)

set style fill solid 0.85 border lc rgb "#333333"
set boxwidth bar
set key top left reverse Left

if (copy_speedup == copy_speedup) {
    set arrow 1 from graph 0, first copy_speedup to graph 1, first copy_speedup nohead lw 2.5 lc rgb "#000000" front
    set label 1 sprintf("copy: %.1f× (the ceiling)", copy_speedup) at graph 0.99, first copy_speedup offset 0, 0.8 right
}

# Each bar's label: its speedup and its fraction of the copy's GB/s, the
# number ./grade scores.
bar_label(dummy) = sprintf("%.1f×\n{/*0.8 %.2f of copy}", column("gbps") / base, column("fraction_of_copy"))

# Two clauses per bar series (the bars, their labels), only for the series
# present at that size.
P = ""
do for [s in rungs] {
    P = P . sprintf(', file using (x_of("%s", "reference")):(column("gbps") / base) with boxes lc rgb "%s" notitle', s, kernel_color(s))
    P = P . sprintf(', file using (x_of("%s", "reference")):(column("gbps") / base):(bar_label(0)) with labels offset 0, 1.3 font ",10" notitle', s)
}
do for [s in mine] {
    P = P . sprintf(', file using (x_of("%s", "student")):(column("gbps") / base) with boxes fs pattern 4 lc rgb "%s" notitle', s, kernel_color(s))
    P = P . sprintf(', file using (x_of("%s", "student")):(column("gbps") / base):(bar_label(0)) with labels offset 0, 1.3 font ",10" notitle', s)
}
# Key entries for the two kinds of bar, in neutral grey.
P = P . ', NaN with boxes fs solid 0.85 lc rgb "#888888" title "reference solution"'
if (mine ne "") {
    P = P . ', NaN with boxes fs pattern 4 lc rgb "#888888" title "yours"'
}

eval plot_cmd(P)
