# bench.mk — `make bench`. Included by the Makefile.
#
# Times every lab's reference solution, the student's current files (when
# they compile and verify), cuBLAS and the device's own copy over a sweep of
# sizes, cold, and writes one CSV for `make plots`:
#   make bench                       -> results/bench.csv
#   make bench BENCH_OUT=h200.csv    elsewhere
#   make bench BENCH_STUDENT=0       reference solutions and cuBLAS only
#   make bench BENCH_STUDENT_DIR=D   the student's files from D/labN-*/*.cu, not labs/
# tools/bench/bench_sweep.cu says what is measured and the CSV's columns.

BENCH_OUT ?= results/bench.csv
BENCH_STUDENT ?= 1
BENCH_STUDENT_DIR ?= labs

BENCH_DIR := $(B)/$(ARCH)/bench
BENCH_PROGRAM := $(BENCH_DIR)/bench_sweep
BENCH_NO_STUDENT := $(filter 0 no false,$(BENCH_STUDENT))

# No GPU: one line and exit 2, before anything is built. Checked when the goal
# is read, as plots.mk does, because a failing recipe would add make's own
# "*** Error" line under it. The kit's probe (what ./grade runs) is built
# quietly first. Not under `make -n`.
ifneq ($(filter bench,$(MAKECMDGOALS)),)
  ifeq ($(findstring n,$(firstword -$(MAKEFLAGS))),)
    BENCH_CANNOT_RUN := $(shell \
      if ! why=$$(MAKEFLAGS= $(MAKE) -s --no-print-directory need-nvcc 2>&1); then echo "$$why" | sed -e '1!d' -e 's/\.$$//'; exit; fi; \
      mkdir -p $(BENCH_DIR) && \
      if ! MAKEFLAGS= $(MAKE) -s --no-print-directory $(KIT)/probe >$(BENCH_DIR)/probe-build.log 2>&1; then \
        echo 'the GPU probe does not build: see $(BENCH_DIR)/probe-build.log'; exit; fi; \
      $(KIT)/probe >/dev/null 2>$(BENCH_DIR)/probe.log || { why=$$(sed -e '1!d' -e 's/\.$$//' $(BENCH_DIR)/probe.log); echo "$${why:-the GPU probe $(KIT)/probe failed}"; })
    ifneq ($(BENCH_CANNOT_RUN),)
      $(error make bench: $(BENCH_CANNOT_RUN))
    endif
  endif
endif

.PHONY: bench bench-build
bench: bench-build
	@mkdir -p '$(dir $(BENCH_OUT))'
	@$(BENCH_PROGRAM) --out '$(BENCH_OUT)'

# The program, with every lab file that builds. Always re-run: which student
# files compile can change between runs, and the sub-makes rebuild only what
# changed. build/bench links to it (`build/bench --help`).
bench-build: need-nvcc $(RUBRIC_TOOL) $(KIT)/libtilelab.a $(KIT)/grader/bench_sweep.cu.o $(KIT)/grader/matmul_naive.cu.o
	@sh tools/bench/bench_objects $(BENCH_DIR) $(if $(BENCH_NO_STUDENT),--no-student,--students '$(BENCH_STUDENT_DIR)')
	$(Q)gcc $(CFLAGS) -Itools/bench -c $(BENCH_DIR)/entries.c -o $(BENCH_DIR)/entries.o
	@echo "  NVCC  $(BENCH_PROGRAM)"
	$(Q)$(NVCC) $(NVFLAGS) $(KIT)/grader/bench_sweep.cu.o $(BENCH_DIR)/entries.o $$(cat $(BENCH_DIR)/objects) \
	  $(KIT)/grader/matmul_naive.cu.o $(KIT)/libtilelab.a -lcublas -o $(BENCH_PROGRAM)
	$(Q)ln -sfn $(ARCH)/bench/bench_sweep $(B)/bench
