# kind.mk — what make needs of the kind `transpose` (labs 1-3, 6): the kit
# workers its measurement compares with (the copy; cuBLAS Sgeam beside lab 6).
KIT_WORKERS_transpose := copy cublas_geam
