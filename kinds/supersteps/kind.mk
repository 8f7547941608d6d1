# kind.mk — what make needs of the kind `supersteps` (lab 5): the kit workers
# its measurement compares with (the copy for part 2, the naive matmul for
# part 3), and the launch make bench times (part 3's double-buffered matmul).
KIT_WORKERS_supersteps := copy naive
BASELINE_FN_supersteps := launch_matmul
