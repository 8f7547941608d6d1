#!/bin/sh
# figures.sh — the handouts' access pictures (make handouts, when what they
# are drawn from changed; make handout-figures, always; issue 30):
# the report page's figures of the reference solutions' own CPU-mode grades,
# never drawn by hand. Each run is graded with ./grade --cpu (the seed fixed,
# so the pictures change only when the code does), its figures written one a
# page by build/tools/report --figures, and each page photographed by a
# headless Chromium into handouts/img/access/RUN-<space>-<op>.png (and
# RUN-timeline-<kernel>.png): those a handout shows (its markdown names
# img/access/NAME.png), and no others.
#
#   sh tools/handouts/figures.sh [OUT_DIR]     (default handouts/img/access)
#
# The runs: each lab's reference, and beside it the contrast a lesson draws
# (lab 2 without its barrier, lab 6 without its swizzle): patches of the
# kit's own tests, so the instructor kit is needed. Lab 7's picture holds its
# own contrast: the reference's warps beside the kit's wide-tile kernel's.
set -eu
cd "$(dirname "$0")/../.."
out=${1:-handouts/img/access}
work=build/handout-figures
seed=20261121

if command -v chromium-headless-shell >/dev/null 2>&1; then browser=chromium-headless-shell
elif command -v chromium >/dev/null 2>&1; then browser="chromium --headless"
else
    echo "make handout-figures: needs a headless Chromium (e.g. apt-get install chromium-headless-shell) to draw the pictures" >&2
    exit 2
fi
[ -d solutions ] || { echo "make handout-figures: needs the reference solutions (the instructor kit)" >&2; exit 2; }
mkdir -p "$out" "$work"
rm -f "$out"/*.png
make -s --no-print-directory build/tools/report

# RUN LAB SOURCE [PATCH]: grade it in CPU mode, then photograph its figures.
figures() {
    run=$1 lab=$2 src=$3 patch=${4:-}
    rm -rf "${work:?}/$run" "$work/$run.cu"
    if [ -n "$patch" ]; then patch -s -o "$work/$run.cu" "$src" < "$patch"; src=$work/$run.cu; fi
    # Exit 1 is a graded run that lost points (the contrasts do): pictures all the same.
    NO_COLOR=1 TILELAB_HISTORY="$work/history.csv" ./grade "$lab" --cpu --file "$src" --seed $seed --out "$work/$run" \
        >"$work/$run.log" 2>&1 || [ $? = 1 ] || { echo "figures: ./grade $lab failed on $src; see $work/$run.log" >&2; exit 1; }
    mkdir -p "$work/$run/figures"
    build/tools/report --figures "$work/$run" "$src" "$work/$run/figures/$run" >"$work/$run/figures.txt"
    while read -r page width height; do
        name=$(basename "$page" .html)
        grep -q "img/access/$name\.png" handouts/*.md || continue
        png=$out/$name.png
        # Root in CI: Chromium's sandbox needs --no-sandbox there.
        HOME=$(pwd)/$work timeout 60 $browser --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
            --window-size="$width,$height" --screenshot="$(pwd)/$png" "file://$(pwd)/$page" >"$work/$run/shot.log" 2>&1 ||
            { echo "figures: $browser could not draw $page; see $work/$run/shot.log" >&2; exit 1; }
        echo "  PNG   $png"
    done <"$work/$run/figures.txt"
}

figures lab1 lab1 solutions/lab1-naive-transpose/transpose.cu
figures lab2 lab2 solutions/lab2-shared-tile/transpose.cu
figures lab2-missing-barrier lab2 solutions/lab2-shared-tile/transpose.cu tests/submissions/lab2/missing_barrier.patch
figures lab3 lab3 solutions/lab3-padding/transpose.cu
figures lab6 lab6 solutions/lab6-register-transpose/transpose.cu
figures lab6-unswizzled lab6 solutions/lab6-register-transpose/transpose.cu tests/fixtures/report-page/lab6-unswizzled.patch
figures lab7 lab7 solutions/lab7-sparse-matmul/matmul.cu
