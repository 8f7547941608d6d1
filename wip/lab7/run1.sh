#!/bin/bash
# Device run 1: variants' correctness, timings, stall profile, FFMA counts, sanitizers.
B=.scratch/lab7/lab7_v2
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt 2>&1
(ldd $B | grep -i "not found") && { echo "rebuilding"; nvcc -arch=sm_90 -O3 -std=c++17 -lineinfo -Ikit -DWITH_V2 wip/lab7/lab7_v2.cu -o $B -lcublas; }
timeout 60 $B check > $OUT/check.txt 2>&1; echo "check rc=$?" >> $OUT/check.txt
timeout 120 $B time 7 > $OUT/time.txt 2>&1; echo "time rc=$?" >> $OUT/time.txt
cat $OUT/check.txt | tail -5; cat $OUT/time.txt
S="--section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis"
for v in tuned v2_R4_K4_S3; do
  timeout 60 ncu $S $B ncu $v 0.25 4096x4096x4096 >> $OUT/ncu_stalls.txt 2>&1
done
for v in v2_R4_K4_S3 ignore; do
  timeout 40 ncu --metrics smsp__sass_thread_inst_executed_op_ffma_pred_on.sum $B ffma $v 4096x4096x4096 >> $OUT/ffma.txt 2>&1
done
grep -E "launch|ffma|==PROF==|untranspose|warptile|sparse" $OUT/ffma.txt | head -40
timeout 60 compute-sanitizer --tool memcheck $B check v2_R4_K4_S3 > $OUT/san_memcheck.txt 2>&1; echo "memcheck rc=$?"; tail -2 $OUT/san_memcheck.txt
