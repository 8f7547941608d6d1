# submission.mk — one lab file built into a worker. Called as
#   make -f mk/submission.mk LAB=lab1 SRC=path/to/file.cu [student|harness|grader|check]
# Everything of the file lands in $(OUT), a folder named after SRC, so
# submissions never share objects. The file is linked into one program
# only, its worker (grader/worker.cu); the judges that test, time and
# check it are the kit's own, built once ($(KIT)/judge/).
# BASELINE=path/to/earlier.cu builds that file's worker too (lab 3 is timed
# against the student's own lab 2, lab 5 part 3 against lab 4).
include mk/toolchain.mk
include mk/kit.mk

# The lab's kind, from the rubric's one reader (mk/rubric.mk), unless the command line names it
# (./grade does: its plan has read the rubric already).
ifneq ($(origin KIND),command line)
  RUBRIC_AT_PARSE := 1
endif
include mk/rubric.mk
ifeq ($(RUBRIC_AT_PARSE),1)
  RUBRIC := $(shell $(RUBRIC_TOOL) path '$(LAB)' 2>&1)
  KIND := $(shell $(RUBRIC_TOOL) get '$(LAB)' kind 2>&1)
  ifneq ($(.SHELLSTATUS),0)
    $(error $(KIND))
  endif
endif
OUT := $(B)/$(ARCH)/$(subst /,_,$(patsubst /%,%,$(SRC:.cu=)))
# The file is compiled as a copy beside the public headers alone (below).
PUBLIC_HEADERS := kit/tilelab.h kit/check.h
STUDENT_SRC := $(OUT)/src/$(notdir $(SRC))
# -iquote: a relative #include still resolves from the file's own folder, so
# build/tools/inspect can name what it included instead of a compiler error.
# (Relative to the kit's folder, where nvcc runs: its path may hold a space.
# SRC itself never does: make cannot take one, and ./grade hands such a file
# in through a link of a space-free name in build/submissions/.)
# -fPIC: the file becomes a shared library, which the lab worker maps inside its
# sandbox. -ffunction-sections: every host function in a section of its own, so
# the inspector sees each call between them as a relocation (grader/inspect.c).
# -g1: line tables of the host code alone, so the judge can say at which line the
# file called exit or abort (kit/remote.cu).
STUDENT_NVFLAGS := $(filter-out $(KIT_INCLUDES),$(NVFLAGS)) -I$(OUT)/public -Xcompiler -iquote,$(dir $(SRC)) -Xcompiler -fPIC,-ffunction-sections,-g1

# What each kind needs of make (the kit workers its measurement compares with,
# its flags and contrasts in CPU mode): read before cpu.mk, which uses them.
include $(wildcard kinds/*/kind.mk)

# CPU mode (cpu/cpu.mk): the same file built for the CPU; build/labN --cpu runs it.
include cpu/cpu.mk
JUDGES := $(KIT)/judge/tests-$(KIND) $(KIT)/judge/measure-$(KIND) $(KIT)/judge/check-$(KIND) \
          $(foreach w,$(KIT_WORKERS_$(KIND)),$(KIT)/workers/$(w)) $(KIT_JUDGES_$(KIND))
ifneq ($(BASELINE),)
  BASE_OUT := $(B)/$(ARCH)/$(subst /,_,$(patsubst /%,%,$(BASELINE:.cu=)))
endif

.PHONY: check student harness grader baseline print-dirs link-symbols
check: $(OUT)/check
# The file alone, compiled: what the grader inspects before linking it.
student: $(OUT)/student.o $(OUT)/student.d $(OUT)/student.ptx
# The grader's side alone: a failure here is the kit's, never the student's.
harness: $(KIT)/libtilelab.a $(KIT)/probe $(B)/tools/report $(JUDGES) $(KIT)/lab-worker
# The names of the worker's link, for the inspector (mk/kit.mk).
link-symbols: $(KIT)/link-symbols.txt
grader: harness $(OUT)/worker $(OUT)/check
baseline: $(BASE_OUT)/baseline-worker
print-dirs:   # printed by make itself ($(info)), as print-cpu: no process started
	@:$(info $(strip $(OUT) $(KIT) $(CUDA_HOME) $(BASE_OUT)))

# The student.o, student.d and student.ptx of `student`: the file is
# compiled as a copy in $(OUT)/src/, under `#line 1 "SRC"` so compiler errors
# and sanitizer findings still name the original, beside copies of the public
# headers alone in $(OUT)/public/: without the kit's -I folders, a kit header that
# is not public cannot be included, and $(OUT)/student.d lists every file it
# did include, for the inspector (grader/inspect.c). A UTF-8 byte-order mark
# that opens the file is dropped from the copy: behind the #line it would be
# a stray character on line 1. One recipe writes the
# copy, the object and student.d, so they never disagree; it runs again when
# the copy or student.d has gone missing, or this file's rules changed.
$(OUT)/student.o: $(SRC) $(PUBLIC_HEADERS) mk/submission.mk
	@rm -rf $(OUT)/src $(OUT)/public
	@mkdir -p $(OUT)/src $(OUT)/public
	$(Q)cp $(PUBLIC_HEADERS) $(OUT)/public/
	$(Q){ printf '#line 1 "%s"\n' '$(SRC)'; LC_ALL=C sed "1s/^$$(printf '\357\273\277')//" '$(SRC)'; } > $(STUDENT_SRC)
	@echo "  NVCC  $@"
	@rm -rf $(OUT)/keep && mkdir -p $(OUT)/keep
	$(Q)$(NVCC) $(STUDENT_NVFLAGS) -c $(STUDENT_SRC) -o $@ -MD -MF $(OUT)/student.d --keep --keep-dir $(OUT)/keep
	$(Q)mv $(OUT)/keep/$(basename $(notdir $(STUDENT_SRC))).ptx $(OUT)/student.ptx && rm -rf $(OUT)/keep
ifneq ($(words $(wildcard $(STUDENT_SRC) $(OUT)/student.d $(OUT)/student.ptx)),3)
$(OUT)/student.o: student-copy-missing
endif
.PHONY: student-copy-missing
$(OUT)/student.d: $(OUT)/student.o
# The PTX the object was compiled from (nvcc --keep), not a second compile
# that could differ from it (a file can read __TIME__): what the inspector
# and ptx-structure read, the kernel's shared accesses, barriers, tensor cores.
$(OUT)/student.ptx: $(OUT)/student.o

# The worker is the kit's lab worker, copied beside the file's library
# (worker.so), which it maps once its sandbox is on (grader/worker.cu): no
# code of the file is linked into a program, and none runs before the sandbox.
LAB_SO_LDFLAGS := -shared -cudart shared -Xlinker -z,now -Xlinker -z,relro
$(OUT)/worker.so: $(OUT)/student.o
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(LAB_SO_LDFLAGS) $< -o $@
$(OUT)/worker: $(OUT)/worker.so $(KIT)/lab-worker
	$(Q)cp -f $(KIT)/lab-worker $@

# build/labN: the kit's quick check (a judge) driving this file's worker.
# Its paths in single quotes (\047): the kit's folder may hold a space.
$(OUT)/check: $(OUT)/worker $(KIT)/judge/check-$(KIND) $(KIT)/workers/copy grader/quick-check $(KIT)/probe
	@echo "  GEN   $@"
	$(Q)printf '#!/bin/sh\n# The quick check of %s: the kit judge, your file in its worker (grader/quick-check).\nTILELAB_KIT=\047%s\047 TILELAB_LAB=\047%s\047 TILELAB_SOURCE=\047%s\047 TILELAB_WORKER=\047%s\047 TILELAB_COPY_WORKER=\047%s\047 TILELAB_CHECK=\047%s\047 TILELAB_CUDA_HOME=\047%s\047 TILELAB_KIND=\047%s\047 TILELAB_ARCH=\047%s\047 TILELAB_PROBE=\047%s\047 TILELAB_CPU_WORKER=\047%s\047 TILELAB_CPU_CHECK=\047%s\047 exec sh \047%s/grader/quick-check\047 "$$@"\n' \
	  '$(SRC)' '$(CURDIR)' '$(LAB)' '$(SRC)' '$(CURDIR)/$(OUT)/worker' '$(CURDIR)/$(KIT)/workers/copy' \
	  '$(CURDIR)/$(KIT)/judge/check-$(KIND)' '$(CUDA_HOME)' \
	  '$(KIND)' '$(ARCH)' '$(CURDIR)/$(KIT)/probe' '$(CURDIR)/$(CPU_OUT)/worker' '$(CURDIR)/$(CPU_KIT)/cpu-check' '$(CURDIR)' > $@ && chmod +x $@

ifneq ($(BASELINE),)
# (Named apart from student.o and worker: make bench passes BASELINE=SRC.)
ifeq ($(suffix $(BASELINE)),.o)
# A reference the student kit has only compiled (grader/prebuilt/, mk/dist.mk).
$(BASE_OUT)/baseline.o: $(BASELINE)
	@mkdir -p $(@D)
	$(Q)cp $(BASELINE) $@
$(BASE_OUT)/baseline-worker: $(BASE_OUT)/baseline.o $(WORKER_KIT) $(KIT)/libtilelab.a | need-seccomp
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) $^ $(SECCOMP_LIBS) $(WORKER_LDFLAGS) -o $@
else
# The student's own earlier file: a lab file like any other, mapped inside the sandbox.
$(BASE_OUT)/baseline.o: $(BASELINE) kit/tilelab.h kit/check.h
	@mkdir -p $(@D)
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) -Xcompiler -fPIC -c $(BASELINE) -o $@
$(BASE_OUT)/baseline-worker.so: $(BASE_OUT)/baseline.o
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(LAB_SO_LDFLAGS) $< -o $@
$(BASE_OUT)/baseline-worker: $(BASE_OUT)/baseline-worker.so $(KIT)/lab-worker
	$(Q)cp -f $(KIT)/lab-worker $@
endif
endif

# make bench times lab files side by side in one process (a student's own
# measurement, not a grade): the file with its launch renamed and every
# other global symbol made local, so two files link together.
LAUNCH_FN := $(or $(BASELINE_FN_$(KIND)),launch_$(KIND))
$(BASE_OUT)/as-baseline.o: $(BASELINE) kit/tilelab.h kit/check.h
	@mkdir -p $(@D)
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) -D$(LAUNCH_FN)=tl_baseline_$(LAUNCH_FN) -c $(BASELINE) -o $@.tmp
	$(Q)nm --defined-only -g $@.tmp | awk '$$2 ~ /^[BDRT]$$/ && $$3 != "tl_baseline_$(LAUNCH_FN)" { print $$3 }' > $@.local
	$(Q)objcopy --localize-symbols=$@.local $@.tmp $@
	$(Q)rm -f $@.tmp $@.local
