# kind.mk — what make needs of the kind `sparse` (lab 7): part 1 is timed as
# lab 4 (measure-matmul, the naive kernel, cuBLAS); the wide kernel is part 3's
# contrast.
KIT_WORKERS_sparse := naive cublas sparse_wide
KIT_JUDGES_sparse := $(KIT)/judge/measure-matmul
