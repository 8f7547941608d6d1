#!/bin/sh
# Lab 7's dense candidates against cuBLAS FP32 on this machine's GPU (dense_bench.cu):
#   bash solutions/lab7-sparse-matmul/bench/run.sh      from the kit's folder
# Builds for the visible GPU (sm_90 without nvidia-smi) and prints the table;
# with $OUT set, the table goes to $OUT/lab7-dense-bench.txt as well.
set -eu
cd "$(dirname "$0")/../../.."
nvcc=$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
arch=sm_${cap:-90}
bin=${TMPDIR:-/tmp}/lab7-dense-bench.$$
trap 'rm -f "$bin"' EXIT
"$nvcc" -O3 -lineinfo -std=c++17 -arch="$arch" -Ikit -Xptxas -v solutions/lab7-sparse-matmul/bench/dense_bench.cu kit/check.cu \
    -lcublas -o "$bin" 2>"$bin.ptxas" || { cat "$bin.ptxas" >&2; exit 1; }
regs=$(grep -o 'Used [0-9]* registers' "$bin.ptxas" | tr '\n' ' ')
rm -f "$bin.ptxas"
if [ -n "${OUT:-}" ]; then
    { echo "ptxas: $regs"; "$bin"; } | tee "$OUT/lab7-dense-bench.txt"
else
    echo "ptxas: $regs"; "$bin"
fi
