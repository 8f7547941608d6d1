# kit.mk — the kit's shared objects, built once per GPU arch into $(KIT).

KIT_CU := common/check.cu common/case.cu common/device.cu common/devbuf.cu common/bench.cu common/transpose_case.cu common/matmul_case.cu common/supersteps_case.cu common/sparse_case.cu
KIT_C := common/matrix.c common/guard.c common/stats.c common/json.c common/shapes.c common/csv.c
KIT_HEADERS := $(wildcard common/*.h grader/*.h)
KIT_OBJS := $(patsubst common/%,$(KIT)/%.o,$(KIT_CU) $(KIT_C))

$(KIT)/%.cu.o: common/%.cu $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) -c $< -o $@

$(KIT)/%.c.o: common/%.c $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) -c $< -o $@

$(KIT)/grader/%.cu.o: grader/%.cu $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) -c $< -o $@

$(KIT)/grader/%.c.o: grader/%.c $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) -c $< -o $@

# The student kit has the hidden tests as objects only (common/dist.mk).
$(KIT)/grader/%_tests.c.o: grader/prebuilt/%_tests.o
	@mkdir -p $(@D)
	$(Q)cp $< $@

$(KIT)/libtilelab.a: $(KIT_OBJS)
	$(Q)rm -f $@
	@echo "  AR    $@"
	$(Q)ar rcs $@ $^

# ---- judges and workers (common/remote.h, common/worker_protocol.h) --------
# A judge program decides verdicts and times; no lab file is linked into it:
# its launch functions (remote_launch.cu) forward to a worker. A worker is
# common/worker.cu linked with one lab file (the student's, a baseline) or
# with a kit file that defines the same launch (the copy, the naive matmul,
# cuBLAS), so every kernel a grade compares runs and is timed the same way.
JUDGE_OBJS := $(KIT)/remote.cu.o $(KIT)/timed.cu.o $(KIT)/judge_kernels.cu.o $(KIT)/transpose_timing.cu.o $(KIT)/matmul_timing.cu.o $(KIT)/sparse_timing.cu.o \
              $(KIT)/sandbox_calls.c.o
$(KIT)/libjudge.a: $(JUDGE_OBJS)
	$(Q)rm -f $@
	@echo "  AR    $@"
	$(Q)ar rcs $@ $^
JUDGE_LINK := $(KIT)/remote_launch.cu.o $(KIT)/libjudge.a $(KIT)/libtilelab.a

$(KIT)/sandbox.c.o: common/sandbox.c common/sandbox.h | need-seccomp
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) $(SECCOMP_CFLAGS) -c $< -o $@

# The hidden tests: a table of checked cases (grader/*_tests.c) and the
# program that runs them (grader/hidden.c); no Criterion, no lab file.
$(KIT)/judge/tests-%: $(KIT)/grader/%_tests.c.o $(KIT)/grader/hidden.c.o $(JUDGE_LINK)
	@mkdir -p $(@D)
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) $^ -o $@
$(KIT)/judge/measure-%: $(KIT)/grader/%_measure.cu.o $(JUDGE_LINK)
	@mkdir -p $(@D)
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) $^ -o $@
$(KIT)/judge/check-%: $(KIT)/%_check.cu.o $(JUDGE_LINK)
	@mkdir -p $(@D)
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) $^ -o $@

# What the lab file's launches may allocate is counted (lab 5: in place).
WORKER_LDFLAGS := $(foreach f,cudaMalloc cudaMallocManaged cudaMallocAsync cudaMallocPitch,-Xlinker --wrap=$(f))
WORKER_KIT := $(KIT)/worker.cu.o $(KIT)/sandbox.c.o
$(KIT)/workers/%: $(KIT)/grader/%_launch.cu.o $(WORKER_KIT) $(KIT)/libtilelab.a | need-seccomp
	@mkdir -p $(@D)
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) $^ $(SECCOMP_LIBS) $(WORKER_LDFLAGS) $(if $(findstring cublas,$*),-lcublas) -o $@

$(KIT)/probe: $(KIT)/grader/probe.cu.o $(KIT)/libtilelab.a
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) $^ -o $@

# Host-only: the score-and-report step needs no GPU and no nvcc.
$(B)/tools/report: grader/report.c grader/rubric.c grader/counters.c common/json.c common/csv.c common/shapes.c common/matrix.c $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) grader/report.c grader/rubric.c grader/counters.c common/json.c common/csv.c common/shapes.c common/matrix.c -lm -o $@
# The naive matmul's worker links the kernel make bench times too.
$(KIT)/workers/naive: $(KIT)/grader/matmul_naive.cu.o

# Objects are built once and kept (not intermediate files make may delete).
.SECONDARY:
