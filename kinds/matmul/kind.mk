# kind.mk — what make needs of the kind `matmul` (lab 4): the kit workers its
# measurement compares with (the naive kernel, cuBLAS).
KIT_WORKERS_matmul := naive cublas
