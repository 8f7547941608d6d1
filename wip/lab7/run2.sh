#!/bin/bash
# Device run 2: the new reference (solutions/lab7-sparse-matmul/matmul.cu): correctness,
# interleaved cold timings, FFMA counts, divergence, sanitizers.
B=.scratch/lab7/lab7_final
(ldd $B | grep -i "not found") && { echo "rebuilding"; nvcc -arch=sm_90 -O3 -std=c++17 -lineinfo -Ikit wip/lab7/lab7_v2.cu kit/check.cu -o $B -lcublas; }
timeout 60 $B check > $OUT/check.txt 2>&1; echo "check rc=$?" >> $OUT/check.txt; tail -3 $OUT/check.txt
timeout 100 $B time 11 ref,old,tuned > $OUT/time.txt 2>&1; echo "time rc=$?" >> $OUT/time.txt; cat $OUT/time.txt
F=smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
for v in ref ignore; do for sh in 4096x4096x4096 3840x4288x4224; do
  timeout 40 ncu --metrics $F $B ffma $v $sh >> $OUT/ffma.txt 2>&1
done; done
grep -E "^launch|ffma_pred_on" $OUT/ffma.txt
D=smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum
for a in "-1 1024x1024x1024" "0 1024x1024x1024" "0 520x1000x136" "0.25 1536x512x1032"; do
  timeout 40 ncu --metrics $D $B ncu ref $a >> $OUT/div.txt 2>&1
done
grep -E "^launch|branch_targets" $OUT/div.txt
for t in memcheck racecheck synccheck; do
  timeout 75 compute-sanitizer --tool $t $B check ref > $OUT/san_$t.txt 2>&1; echo "$t rc=$?"; tail -2 $OUT/san_$t.txt
done
