#!/bin/sh
# suite-parts.sh XML SUITE FILTER...: runs the Criterion program SUITE once per FILTER (its
# --filter), all at once, each one test at a time, then prints their outputs in FILTER order.
# Each part's Criterion XML (every test's time, for mk/slowest.sh) is XML with .N before .xml.
# Tests of one file share their folders, so a part is whole files: the tool suite runs its
# kit-making tests beside the others (make tool-tests). Exit 0 when every part passed.
[ $# -ge 3 ] || { echo "usage: sh mk/suite-parts.sh XML SUITE FILTER..." >&2; exit 2; }
xml=$1 suite=$2; shift 2
mkdir -p "$(dirname "$xml")" || exit 2
n=0 pids=
for filter; do
    n=$((n + 1))
    "$suite" --filter "$filter" -j1 --xml="${xml%.xml}.$n.xml" >"${xml%.xml}.$n.log" 2>&1 &
    pids="$pids $!"
done
# Ctrl-C or a kill of make: the parts stop too.
trap 'kill $pids 2>/dev/null; exit 130' INT TERM HUP
status=0 n=0
for pid in $pids; do
    wait "$pid" || status=1
done
for filter; do
    n=$((n + 1))
    cat "${xml%.xml}.$n.log"
done
exit $status
