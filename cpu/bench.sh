#!/bin/sh
# bench.sh — CPU mode's speed on this machine (make bench-cpu): a table of
# seconds next to the goals of its issue, not a test. Each lab's reference
# solution runs its CPU check (build/labN --cpu: every visible case, twice,
# and the counters case) as a student would; then the two unit costs.
set -u
cd "$(dirname "$0")/.." || exit 2
sub="make -s --no-print-directory -f mk/submission.mk"
now() { date +%s.%N; }
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')
echo "CPU mode on $(uname -m), $cores cores: seconds, wall clock (goal in brackets)"
run() {   # LAB SRC GOAL WHAT ARGS...
    lab=$1 src=$2 goal=$3 what=$4
    shift 4
    $sub LAB="$lab" SRC="$src" cpu >/dev/null || { echo "  $what: does not build"; return; }
    set -- $($sub LAB="$lab" SRC="$src" print-cpu) "$@"
    worker=$1 kind=$2
    shift 2
    t0=$(now)
    build/cpu/cpu-check --worker "$worker" --kind "$kind" --lab "$lab" --source "$src" "$@" >/dev/null 2>&1
    status=$?
    t1=$(now)
    printf '  %-58s %6.2f s  [%s]%s\n' "$what" "$(awk "BEGIN { print $t1 - $t0 }")" "$goal" \
        "$([ $status = 0 ] || echo "  (exit $status)")"
}
if [ ! -d solutions ]; then
    echo "  (the labs' reference solutions ship with the instructor kit: only the unit costs here)"
    build/cpu/bench/micro | sed 's/^/  /'
    exit 0
fi
for l in 1 2 3; do
    src=$(ls solutions/lab$l-*/*.cu)
    run lab$l "$src" "<= 20 s" "lab$l reference, all cases + counters at 1024x1024"
done
run lab4 "$(ls solutions/lab4-*/*.cu)" "<= 60 s" "lab4 reference, all cases + counters at 256x256x256"
run lab5 "$(ls solutions/lab5-*/*.cu)" "-" "lab5 reference, all cases"
run lab3 "$(ls solutions/lab3-*/*.cu)" "<= 2 s" "1024x1024 padded transpose, counters on (one run)" \
    --shape 1x1 --counters 1024x1024
echo "Unit costs (one OS thread):"
build/cpu/bench/micro | sed 's/^/  /'
echo "The largest shapes CPU mode runs (its caps), counters on:"
run lab2 "$(ls solutions/lab2-*/*.cu)" "-" "lab2 reference at 4096x4096" --shape 1x1 --counters 4096x4096
run lab4 "$(ls solutions/lab4-*/*.cu)" "-" "lab4 reference at 512x512x512" --mnk 1x1x1 --counters 512x512x512
