# class.gp — a class at a glance, from the batch gradebook
# (results/batch/gradebook.csv, written by `./grade --batch DIR`).
# Run with plots/style.gp first (see there).
#
# Top row: one score histogram per lab (in % of the maximum, bins of 10 %;
# full marks land in the last bin). Bottom: every student's bandwidth as a
# fraction of the copy's, one bar per lab; a submission that was not measured
# (its hidden tests failed, it broke the build, it called a forbidden
# library) has no bar, and its gradebook flags are written in its place.
# The dashed lines are each lab's perf_high from its rubric.
#
# Student names are the submission folders' names: one word each.
# Optional variable: perf, "lab1 LOW HIGH lab2 LOW HIGH ..." from the rubrics.

if (!exists("perf")) perf = ""
perf_high(lab) = sum [i = 1 : words(perf) / 3] (word(perf, 3 * i - 2) eq lab ? real(word(perf, 3 * i)) : 0)
is_lab(n) = strcol("lab") eq sprintf("lab%d", n)
lab_number(dummy) = int(real(strcol("lab")[4:]))

# The roster, in gradebook order: " alice bogdan ... " (spaces at both ends so
# " name " finds whole names). stats reads every row; the assignment inside
# the expression is how gnuplot keeps state across rows.
roster = " "
stats file using (strstrt(roster, " " . strcol("student") . " ") == 0 ? \
                  (roster = roster . strcol("student") . " ", lab_number(0)) : lab_number(0)) name "LAB" nooutput
students = words(roster)
student_x(name) = words(roster[1 : strstrt(roster, " " . name . " ")]) + 1
labs = ""
do for [n = 1 : LAB_max] {
    stats file using (is_lab(n) ? 1 : 0) nooutput
    if (STATS_sum > 0) { labs = labs . sprintf(" lab%d", n) }
}
nlabs = words(labs)

# Wide enough for about 14 pixels per bar in the bottom panel.
width_px = 200 + students * nlabs * 14
eval output(width_px > 1200 ? width_px : 1200, 860)

set multiplot title sprintf("{/:Bold Class results}\n{/*0.85 %d students, %s%s}", students, \
    gpu eq "" ? "" : gpu . ", ", "from the batch gradebook")

# ---- top row: score histograms, one panel per lab ------------------------------
# bin(score %) is the centre of its 10 % bin; 100 % goes into 90-100.
bin(p) = (p >= 100 ? 9 : floor(p / 10)) * 10 + 5
# A graded submission of lab n: its score in % of the maximum; others NaN.
percent(n) = is_lab(n) && column("max_score") > 0 ? 100 * column("score") / column("max_score") : NaN
set style fill solid 0.8 border lc rgb "#333333"
set boxwidth 9
set xrange [0 : 100]
set xtics 0, 20, 100 format "%g %%"
set yrange [0 : *]
set xlabel "score (% of max)"
unset key
do for [i = 1 : nlabs] {
    lab = word(labs, i)
    n = lab[4:] + 0
    stats file using (percent(n) == percent(n) ? 1 : 0) nooutput
    graded = STATS_sum
    set origin (i - 1.0) / nlabs, 0.5
    set size 1.0 / nlabs, 0.42
    set ylabel (i == 1 ? "students" : "")
    # Whole students: a tic per student in a small class, gnuplot's choice in a large one.
    if (graded <= 12) { set ytics 1 format "%g" } else { set ytics autofreq format "%g" }
    if (graded > 0) {
        stats file using (percent(n)) name "S" nooutput
        set title sprintf("%s: %d graded, median %.0f %%", lab, graded, S_median) font ",11"
        set yrange [0 : *]
        plot file using (bin(percent(n))):(1) smooth frequency with boxes lc rgb lab_color(lab)
    } else {
        set title sprintf("%s: none graded", lab) font ",11"
        set yrange [0 : 1]
        plot NaN notitle
    }
}

# ---- bottom: fraction of copy per student ----------------------------------------
# Bars for one student sit side by side, one per lab, in lab order.
unset title
set origin 0, 0
set size 1, 0.5
width = nlabs > 2 ? 0.8 / nlabs : 0.3
set boxwidth width
lab_slot(lab) = sum [i = 1 : nlabs] (word(labs, i) eq lab ? i : 0)
bar_x(dummy) = student_x(strcol("student")) + (lab_slot(strcol("lab")) - 0.5 - nlabs / 2.0) * width
tics = ""
do for [i = 1 : students] { tics = tics . sprintf(", \"%s\" %d", word(roster, i), i) }
eval "set xtics noenhanced nomirror scale 0 rotate by -30 left (" . tics[3:] . ")"
set xrange [0.4 : students + 0.6]
set yrange [0 : 1.05]
set ytics 0, 0.2, 1 format "%.1f"
set xlabel ""
set bmargin 5   # room for the slanted names
set ylabel "fraction of copy"
set key outside right top vertical
# A bar has a fraction; a submission without one shows its flags instead.
P = ""
do for [lab in labs] {
    stats file using (is_lab(lab[4:] + 0) && column("fraction_of_copy") == column("fraction_of_copy") ? 1 : 0) nooutput
    if (STATS_sum > 0) {
        P = P . sprintf(', file using (is_lab(%s) ? bar_x(0) : NaN):"fraction_of_copy" with boxes lc rgb "%s" title "%s"', \
            lab[4:], lab_color(lab), lab)
    }
    if (perf_high(lab) > 0) {
        P = P . sprintf(', %g with lines dt 2 lw 1.5 lc rgb "%s" notitle', perf_high(lab), lab_color(lab))
    }
}
P = P . ', file using (bar_x(0)):(0.02):(column("fraction_of_copy") == column("fraction_of_copy") ? "" : strcol("flags") ne "" ? strcol("flags") : column("score") < column("max_score") ? "not measured" : "") with labels rotate by 90 left font ",8" tc rgb "#993333" notitle'
if (perf ne "") {
    P = P . ', NaN with lines dt 2 lw 1.5 lc rgb "#666666" title "perf\\_high"'
}
eval plot_cmd(P)
unset multiplot
