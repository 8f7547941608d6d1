# kind.mk — what make needs of the kind `sparse` (lab 7): part 1 is timed as
# lab 4 (measure-matmul, the naive kernel, cuBLAS); the wide kernel is part 3's
# contrast.
KIT_WORKERS_sparse := naive cublas sparse_wide
KIT_JUDGES_sparse := $(KIT)/judge/measure-matmul
# CPU mode: a hook at each basic block of a lab 7 file, so the branches case
# sees which blocks each lane ran (cpu/runtime.cc, Branches); and the wide
# kernel built for CPU mode too, whose branches the report page draws beside
# the student's (cpu/judge.c, the branches case).
CPU_LAB_FLAGS_sparse := -fsanitize-coverage=trace-pc
CPU_CONTRASTS_sparse := sparse_wide
