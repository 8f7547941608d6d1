# history.gp — a student's own graded runs, from the grader's history CSV
# (results/history.csv: every `./grade` that could grade adds one row).
# Run with plots/style.gp first (see there).
#
# Top: the score of each run, in % of the maximum. Bottom: the bandwidth of
# each measured run as a fraction of the copy's, the number the performance
# points are computed from; a run whose hidden tests failed is not measured
# and has no point there. The dashed lines are each lab's perf_high from its
# rubric: at or above it, all performance points.
#
# Optional variable: perf, "lab1 LOW HIGH lab2 LOW HIGH ..." from the
# rubrics (plots/render.sh passes it).

eval output(1000, 760)
if (!exists("perf")) perf = ""
perf_high(lab) = sum [i = 1 : words(perf) / 3] (word(perf, 3 * i - 2) eq lab ? real(word(perf, 3 * i)) : 0)

# Runs are numbered in file order (the file only grows); labs are "labN".
run(dummy) = column(0) + 1
lab_number(dummy) = int(real(strcol("lab")[4:]))
is_lab(n) = strcol("lab") eq sprintf("lab%d", n)

# The labs in the file, and the dates of the first and last run (a side
# effect of stats reading every row; the value it sums is 0).
first_run = ""; last_run = ""
stats file using (first_run = first_run eq "" ? strcol("time_utc")[1:10] : first_run, \
                  last_run = strcol("time_utc")[1:10], lab_number(0)) name "LAB" nooutput
labs = ""
do for [n = 1 : LAB_max] {
    stats file using (is_lab(n) ? 1 : 0) nooutput
    if (STATS_sum > 0) { labs = labs . sprintf(" lab%d", n) }
}
runs = LAB_records

set multiplot title sprintf("{/:Bold Your graded runs}\n{/*0.85 %s, %d runs from %s to %s}", \
    gpu_name, runs, first_run, last_run) layout 2, 1 margins 0.09, 0.87, 0.09, 0.88 spacing 0, 0.06

set xrange [0.5 : runs + 0.5]
set xtics 1 nomirror
if (runs > 30) { set xtics autofreq }
set key outside right top vertical

# Top: score.
set yrange [0 : 105]
set ytics 0, 20, 100 format "%g %%"
set ylabel "score (% of max)"
set format x ""
P = ""
do for [lab in labs] {
    P = P . sprintf(', file using (is_lab(%s) ? run(0) : NaN):(100 * column("score") / column("max_score")) with linespoints lw 2 pt 7 ps 1 lc rgb "%s" title "%s"', \
        lab[4:], lab_color(lab), lab)
}
eval plot_cmd(P)

# Bottom: fraction of copy. Each lab's perf_high is a dashed segment over
# that lab's runs; the key names the labs once, in the top panel.
set yrange [0 : *]
set ytics autofreq format "%.2f"
set ylabel "fraction of copy (your GB/s / copy GB/s)"
set format x "%g"
set xlabel "graded run (in the order they ran)"
set key inside top left
P = ""
do for [lab in labs] {
    P = P . sprintf(', file using (is_lab(%s) ? run(0) : NaN):"fraction_of_copy" with linespoints lw 2 pt 7 ps 1 lc rgb "%s" notitle', \
        lab[4:], lab_color(lab))
    if (perf_high(lab) > 0) {
        P = P . sprintf(', file using (is_lab(%s) ? run(0) : NaN):(%g) with lines dt 2 lw 1.5 lc rgb "%s" notitle', \
            lab[4:], perf_high(lab), lab_color(lab))
    }
}
if (perf ne "") {
    P = P . ', NaN with lines dt 2 lw 1.5 lc rgb "#666666" title "perf\\_high: full marks"'
}
eval plot_cmd(P)
unset multiplot
