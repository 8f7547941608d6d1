#!/bin/bash
# tests/golden/run.sh OUT [--cpu]: the golden run of a refactor (issue 15).
# ./grade with one seed on every lab's reference and skeleton and one bad
# submission per lab, each into OUT/<name>/ with its printed report in
# OUT/<name>.txt, the scores in OUT/summary.txt, history rows in OUT/history.csv.
# Take one before a change and one after, then tests/golden/compare.sh.
# Run from the kit's root; a GPU run needs the device, --cpu does not.
set -u
out=$1; mode=${2:-}
export NO_COLOR=1 TILELAB_HISTORY="$out/history.csv"
mkdir -p "$out/patched" || exit 2
rows=()
for d in solutions/lab*-*/; do n=$(basename "$d"); lab=${n%%-*}; f=$(ls "$d"*.cu)
  rows+=("$lab-solution $lab $f" "$lab-skeleton $lab labs/$n/$(basename "$f")")
done
for p in lab1/swapped_rows_cols lab2/missing_barrier lab3/no_padding lab4/half_accumulate lab5/dbuf_single_buffer lab6/scalar_only lab7/diverging_skip; do
  src=$(sed -n 's|^--- a/||p' "tests/submissions/$p.patch" | head -1); name=${p//\//-}
  mkdir -p "$out/patched/$name" && patch -s -p1 -o "$out/patched/$name/$(basename "$src")" < "tests/submissions/$p.patch" || exit 2
  rows+=("$name ${p%%/*} $out/patched/$name/$(basename "$src")")
done
for row in "${rows[@]}"; do
  set -- $row
  ./grade "$2" --file "$3" --seed 20261124 $mode --out "$out/$1" > "$out/$1.txt" 2>&1
  echo "$1 rc=$? $(grep -o 'Score: [0-9./]*' "$out/$1.txt")"
done | tee "$out/summary.txt"
