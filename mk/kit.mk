# kit.mk — the kit's shared objects, built once per GPU arch into $(KIT).
# Sources are found by name (vpath): the library in kit/, the judge in
# grader/, everything one kind of lab needs in kinds/<kind>/.

KIT_CU := kit/check.cu kit/case.cu kit/device.cu kit/devbuf.cu kit/bench.cu $(wildcard $(addsuffix /*_case.cu,$(KIND_DIRS)))
KIT_C := kit/matrix.c kit/guard.c kit/stats.c kit/json.c kit/shapes.c kit/csv.c
KIT_HEADERS := $(wildcard kit/*.h grader/*.h $(addsuffix /*.h,$(KIND_DIRS))) $(LAUNCH_TABLE)
KIT_OBJS := $(addprefix $(KIT)/,$(addsuffix .o,$(notdir $(KIT_CU) $(KIT_C))))
vpath %.cu kit grader $(KIND_DIRS) tools/bench
vpath %.c kit grader $(KIND_DIRS)

# The CUDA headers the kit's own sources include, each with the stem of the NVIDIA
# package it comes in (NVIDIA's repository names it STEM-X-Y for CUDA X.Y; setup.sh
# installs them). cuda_profiler_api.h is not in nvcc's package nor the runtime's. Where
# one is missing, the kit's build stops before nvcc with one sentence naming the package.
CUDA_KIT_HEADERS := cuda_runtime.h=cuda-cudart-dev cuda.h=cuda-driver-dev cuda_profiler_api.h=cuda-profiler-api
CUDA_HEADERS_MISSING = $(strip $(foreach h,$(CUDA_KIT_HEADERS),$(if $(wildcard $(addsuffix /$(firstword $(subst =, ,$(h))),\
    $(CUDA_HOME)/include $(wildcard $(CUDA_HOME)/targets/*/include))),,$(h))))
# X-Y of a toolkit in .../cuda-X.Y (NVIDIA's packages' folder), else the words X-Y
CUDA_PACKAGE_VERSION = $(or $(subst .,-,$(patsubst cuda-%,%,$(filter cuda-%,$(notdir $(realpath $(CUDA_HOME)))))),X-Y)
CUDA_PACKAGES_MISSING = $(foreach h,$(CUDA_HEADERS_MISSING),$(lastword $(subst =, ,$(h)))-$(CUDA_PACKAGE_VERSION))
.PHONY: need-cuda-headers
need-cuda-headers:
	$(if $(CUDA_HEADERS_MISSING),@echo "the CUDA toolkit at $(CUDA_HOME) has no $(foreach h,$(CUDA_HEADERS_MISSING),$(firstword $(subst =, ,$(h)))) (the kit includes it): install NVIDIA's $(CUDA_PACKAGES_MISSING) (sudo apt-get install $(CUDA_PACKAGES_MISSING) from NVIDIA's CUDA repository) or the whole toolkit." >&2; exit 2)

$(KIT)/%.cu.o: %.cu $(KIT_HEADERS) | need-cuda-headers
	@mkdir -p $(@D)
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) -c $< -o $@

$(KIT)/%.c.o: %.c $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) -c $< -o $@

# The judge's programs' objects (hidden tests, measurements, workers' launches).
$(KIT)/grader/%.cu.o: %.cu $(KIT_HEADERS) | need-cuda-headers
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
# A kind's timing code (kinds/<kind>/<kind>_timing.cu), shared by its quick check and its measurement.
JUDGE_OBJS := $(KIT)/remote.cu.o $(KIT)/timed.cu.o $(KIT)/judge_kernels.cu.o $(KIT)/sandbox_calls.c.o \
              $(patsubst %.cu,$(KIT)/%.cu.o,$(notdir $(wildcard kinds/*/*_timing.cu)))
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
COUNTED_ALLOCS := cudaMalloc cudaMallocManaged cudaMallocAsync cudaMallocPitch cudaMalloc3D cudaMallocArray \
                  cudaMalloc3DArray cudaMallocFromPoolAsync
WORKER_LDFLAGS := $(foreach f,$(COUNTED_ALLOCS),-Xlinker --wrap=$(f))
WORKER_KIT := $(KIT)/worker.cu.o $(KIT)/sandbox.c.o

# The lab worker (grader/worker.cu with TL_WORKER_LOADS_LAB): one program for
# every lab file, which maps the file as a shared library (PROGRAM.so beside
# it) once its sandbox is on. One CUDA runtime, the shared one, serves it
# and the library. It exports what the library may call of it: the counted
# allocations and the kit's checks (kit/check.h), pulled from libtilelab.a.
CUDA_LIBDIR := $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/targets/*/lib))
# And the exits (kit/lab_exits.c): a lab file that ends the process says how, in its reply.
LAB_EXITS := exit _exit _Exit quick_exit abort
LAB_EXPORTS := $(COUNTED_ALLOCS) tl_check_cuda tl_host_floats $(LAB_EXITS)
LAB_WORKER_LDFLAGS := -cudart shared -ldl $(if $(CUDA_LIBDIR),-Xlinker -rpath=$(CUDA_LIBDIR)) \
    $(foreach f,$(LAB_EXPORTS),-Xlinker --export-dynamic-symbol=$(f) -Xlinker --undefined=$(f))
$(KIT)/worker-loader.cu.o: grader/worker.cu $(KIT_HEADERS) | need-cuda-headers
	@mkdir -p $(@D)
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) -DTL_WORKER_LOADS_LAB -c $< -o $@
# The linker's trace of this link names every file it used: the list of
# names a lab file's global definitions must not collide with
# (grader/inspect.c --link-symbols) is read from those files.
$(KIT)/lab-worker: $(KIT)/worker-loader.cu.o $(KIT)/grader/lab_allocs.c.o $(KIT)/lab_exits.c.o $(KIT)/sandbox.c.o $(KIT)/libtilelab.a | need-seccomp
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) $^ $(SECCOMP_LIBS) $(LAB_WORKER_LDFLAGS) -Xlinker --trace -o $@ > $@.trace
$(KIT)/link-symbols.txt: $(KIT)/lab-worker mk/link-symbols.sh
	$(Q)sh mk/link-symbols.sh $<.trace '$(CUDA_HOME)' > $@.tmp
	$(Q)mv $@.tmp $@
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
                  grader/report_text.c grader/lab_kinds.c grader/rubric.c grader/counters.c grader/report_page.c \
                  grader/report_run.c grader/ptx_structure.c grader/ptx.c \
                  kit/json.c kit/csv.c kit/shapes.c kit/matrix.c
$(B)/tools/report: $(REPORT_SOURCES) $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) -DTL_PTX_STRUCTURE_IN_REPORT $(REPORT_SOURCES) -lm -o $@
# The naive matmul's worker links the kernel make bench times too.
$(KIT)/workers/naive: $(KIT)/grader/matmul_naive.cu.o

# Objects are built once and kept (not intermediate files make may delete).
.SECONDARY:
