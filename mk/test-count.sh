#!/bin/sh
# test-count.sh LOG: one line over every Criterion suite a `make test` ran
# (unit, tool, CPU and GPU tests): "N passed, N failed, N skipped". Tested
# and Passing come from each suite's Synthesis line; a skipped test is one
# [SKIP] line (the GPU suite prints them with --verbose; a suite without
# --verbose lists none). make test and .ci/run both end with it.
awk '/Synthesis: Tested:/ { for (i = 1; i <= NF; i++) { if ($i == "Tested:") t += $(i + 1); if ($i == "Passing:") p += $(i + 1) } }
     /^\[SKIP\]/ { s++ }
     END { printf "%d passed, %d failed, %d skipped\n", p, t - p, s }' "$1"
