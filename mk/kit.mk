# kit.mk — the kit's shared objects, built once per GPU arch into $(KIT).
# Sources are found by name (vpath): the library in kit/, the judge in
# grader/, everything one kind of lab needs in kinds/<kind>/.

KIT_CU := kit/check.cu kit/case.cu kit/device.cu kit/devbuf.cu kit/bench.cu $(wildcard $(addsuffix /*_case.cu,$(KIND_DIRS)))
KIT_C := kit/matrix.c kit/guard.c kit/stats.c kit/json.c kit/shapes.c kit/csv.c
KIT_HEADERS := $(wildcard kit/*.h grader/*.h $(addsuffix /*.h,$(KIND_DIRS)))
KIT_OBJS := $(addprefix $(KIT)/,$(addsuffix .o,$(notdir $(KIT_CU) $(KIT_C))))
vpath %.cu kit grader $(KIND_DIRS) tools/bench
vpath %.c kit grader $(KIND_DIRS)

$(KIT)/%.cu.o: %.cu $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) -c $< -o $@

$(KIT)/%.c.o: %.c $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) -c $< -o $@

# The judge's programs' objects (hidden tests, measurements, workers' launches).
$(KIT)/grader/%.cu.o: %.cu $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) -c $< -o $@

$(KIT)/grader/%.c.o: %.c $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) -c $< -o $@

# The student kit has the hidden tests as objects only (mk/dist.mk).
$(KIT)/grader/%_tests.c.o: grader/prebuilt/%_tests.o
	@mkdir -p $(@D)
	$(Q)cp $< $@

$(KIT)/libtilelab.a: $(KIT_OBJS)
	$(Q)rm -f $@
	@echo "  AR    $@"
	$(Q)ar rcs $@ $^

# ---- judges and workers (kit/remote.h, kit/worker_protocol.h) --------
# A judge program decides verdicts and times; no lab file is linked into it:
# its launch functions (remote_launch.cu) forward to a worker. A worker is
# grader/worker.cu linked with one lab file (the student's, a baseline) or
# with a kit file that defines the same launch (the copy, the naive matmul,
# cuBLAS), so every kernel a grade compares runs and is timed the same way.
JUDGE_OBJS := $(KIT)/remote.cu.o $(KIT)/timed.cu.o $(KIT)/judge_kernels.cu.o $(KIT)/transpose_timing.cu.o $(KIT)/matmul_timing.cu.o $(KIT)/sparse_timing.cu.o \
              $(KIT)/sandbox_calls.c.o
$(KIT)/libjudge.a: $(JUDGE_OBJS)
	$(Q)rm -f $@
	@echo "  AR    $@"
	$(Q)ar rcs $@ $^
JUDGE_LINK := $(KIT)/remote_launch.cu.o $(KIT)/libjudge.a $(KIT)/libtilelab.a

$(KIT)/sandbox.c.o: kit/sandbox.c kit/sandbox.h | need-seccomp
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) $(SECCOMP_CFLAGS) -c $< -o $@

# The hidden tests: a table of checked cases (kinds/KIND/KIND_tests.c) and the
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

# Host-only: the score-and-report step needs no GPU and no nvcc. Its parts
# (grader/report.h): the pipeline, scoring, explaining, locating, output.
REPORT_SOURCES := grader/report.c grader/score.c grader/explain.c grader/locate.c grader/output.c \
                  grader/report_text.c grader/lab_kinds.c grader/rubric.c grader/counters.c \
                  kit/json.c kit/csv.c kit/shapes.c kit/matrix.c
$(B)/tools/report: $(REPORT_SOURCES) $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) $(REPORT_SOURCES) -lm -o $@
# The naive matmul's worker links the kernel make bench times too.
$(KIT)/workers/naive: $(KIT)/grader/matmul_naive.cu.o

# Objects are built once and kept (not intermediate files make may delete).
.SECONDARY:
