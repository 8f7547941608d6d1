#!/bin/sh
# render.sh — draw one chart as PNG and SVG: plots/render.sh CHART INPUT OUTDIR HOW
#
#   CHART   a script in plots/ without .gp (bandwidth, ladder, matmul, class, history)
#   INPUT   the CSV it reads
#   OUTDIR  where CHART.png and CHART.svg go
#   HOW     the command that produces INPUT, for the message when it is missing
#
# `make plots` runs it once per chart. It lives apart from the Makefile so the
# facts gnuplot cannot read well itself (the GPU's name, from a '#' comment or
# from a quoted CSV field; the L2 size) are pulled out with sed in one place.
# GNUPLOT names the program (default gnuplot).
set -u
chart=$1 input=$2 outdir=$3 how=$4
gnuplot=${GNUPLOT:-gnuplot}
here=$(dirname "$0")

# A missing input is not an error: that chart is skipped with how to make it.
if [ ! -r "$input" ]; then
    echo "$chart: skipped, no $input yet: run $how"
    exit 0
fi
# Header only, no rows: gnuplot would stop on "no valid data points".
if [ "$(grep -v '^#' "$input" | grep -c .)" -lt 2 ]; then
    echo "$chart: skipped, $input has no rows yet: run $how"
    exit 0
fi
# The bench CSV holds both ops; a sweep may have measured only one of them.
case $chart in bandwidth|ladder) op=transpose ;; matmul) op=matmul ;; *) op= ;; esac
if [ -n "$op" ] && ! grep -q "^$op," "$input"; then
    echo "$chart: skipped, no $op rows in $input: run $how"
    exit 0
fi

# The bench CSV says `# gpu: NAME`; the grader's history has the device in
# its 4th field, "NAME (sm_90, ...)" quoted because of its commas, and the
# latest run is the last line; a gradebook names each student's results.json,
# whose extra_data.gpu is the same device text.
case $chart in
history) gpu=$(tail -n 1 "$input" | sed -n 's/^[^,]*,[^,]*,[^,]*,"\{0,1\}\([^",(]*\).*/\1/p') ;;
class)
    gpu=
    for json in $(grep -v '^#' "$input" | sed 1d | sed -n 's/.*,\([^,]*results\.json\)$/\1/p'); do
        [ -r "$json" ] || continue
        gpu=$(sed -n 's/.*"gpu": *"\([^"(]*\).*/\1/p' "$json" | head -n 1)
        [ -n "$gpu" ] && break
    done ;;
*) gpu=$(sed -n 's/^# *gpu: *//p' "$input" | head -n 1) ;;
esac
l2_bytes=$(sed -n 's/^# *l2_bytes: *\([0-9]*\).*/\1/p' "$input" | head -n 1)
date_utc=$(sed -n 's/^# *date_utc: *\([0-9-]*\).*/\1/p' "$input" | head -n 1)
# The performance thresholds of every lab, "lab1 LOW HIGH lab2 LOW HIGH ...",
# for the charts that show fractions of copy against them.
perf=
# (build/tools/rubric, the rubric's one reader; make plots builds it.)
rubric="$here/../build/tools/rubric"
[ -x "$rubric" ] && for id in $(cd "$here/.." && "$rubric" labs); do
    # Only the labs measured as a fraction of copy: lab 4's thresholds are fractions of cuBLAS.
    [ "$(cd "$here/.." && "$rubric" get "$id" kind)" = transpose ] || continue
    low=$(cd "$here/.." && "$rubric" get "$id" perf_low) high=$(cd "$here/.." && "$rubric" get "$id" perf_high)
    [ -n "$low" ] && [ -n "$high" ] && perf="$perf $id $low $high"
done
# The bench series of each op, in lab order, from the rubrics (bench_series):
# the charts draw what the labs name, not a list of their own.
bench=$([ -x "$rubric" ] && cd "$here/.." && "$rubric" bench)
transpose_series=$(printf '%s\n' "$bench" | awk '$3 == "transpose" { printf "%s%s", n++ ? " " : "", $2 }')
matmul_series=$(printf '%s\n' "$bench" | awk '$3 == "matmul" { printf "%s%s", n++ ? " " : "", $2 }')
# The name goes into a single-quoted gnuplot string and then into enhanced
# text: drop quotes, backslash-escape the characters enhanced text reserves.
gpu=$(printf '%s' "$gpu" | sed -e "s/[\"'\\\\]//g" -e 's/[_^@&~{}]/\\&/g' -e 's/[[:space:]]*$//')

for fmt in png svg; do
    "$gnuplot" -e "fmt='$fmt'; out='$outdir/$chart.$fmt'; file='$input'; gpu='$gpu'; l2_bytes=${l2_bytes:-0}; date_utc='$date_utc'; perf='$perf'; transpose_series='$transpose_series'; matmul_series='$matmul_series'" \
        "$here/style.gp" "$here/$chart.gp" || { echo "$chart: gnuplot failed on $input" >&2; exit 1; }
done
echo "$chart: $outdir/$chart.png $outdir/$chart.svg"
