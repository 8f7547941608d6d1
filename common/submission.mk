# submission.mk — one lab file built into the kit's harnesses. Called as
#   make -f common/submission.mk LAB=lab1 SRC=path/to/file.cu [check|grader]
# Everything lands in $(OUT), a folder named after SRC, so submissions never
# share objects. The file may not supply main(): the harnesses do.
# BASELINE=path/to/earlier.cu also builds measure-vs-<that file>: the
# measurement timing both (lab 3 against the student's own lab 2).
include common/toolchain.mk
include common/kit.mk

RUBRIC := grader/rubrics/$(LAB).rubric
KIND := $(shell sed -n 's/^kind[[:space:]]*\([a-z0-9_]*\).*/\1/p' $(RUBRIC) 2>/dev/null)
OUT := $(B)/$(ARCH)/$(subst /,_,$(patsubst /%,%,$(SRC:.cu=)))

ifeq ($(KIND),)
  $(error no rubric for lab '$(LAB)' (grader/rubrics/$(LAB).rubric))
endif

# The launch the baseline file defines: lab 5 (supersteps) is timed against lab 4.
BASELINE_FN_supersteps := launch_matmul
LAUNCH_FN := $(or $(BASELINE_FN_$(KIND)),launch_$(KIND))
# What a kind's measurement links beside the student's file: lab 4 times
# the grader's naive kernel and cuBLAS in the same run.
MEASURE_EXTRA_matmul := $(KIT)/grader/matmul_naive.cu.o
MEASURE_LIBS_matmul := -lcublas
MEASURE_EXTRA_supersteps := $(KIT)/grader/matmul_naive.cu.o
MEASURE_EXTRA := $(MEASURE_EXTRA_$(KIND))
MEASURE_LIBS := $(MEASURE_LIBS_$(KIND))
ifneq ($(BASELINE),)
  BASE_OUT := $(B)/$(ARCH)/$(subst /,_,$(patsubst /%,%,$(BASELINE:.cu=)))
  MEASURE_VS := $(OUT)/measure-vs-$(notdir $(BASE_OUT))
endif

.PHONY: check student harness grader baseline print-dirs
check: $(OUT)/check
# The file alone, compiled: what the grader inspects before linking it.
student: $(OUT)/student.o $(OUT)/student.ptx
# The grader's side alone: a failure here is the kit's, never the student's.
harness: $(KIT)/libtilelab.a $(KIT)/probe $(B)/tools/report \
         $(KIT)/grader/$(KIND)_tests.c.o $(KIT)/grader/hidden.c.o $(KIT)/grader/$(KIND)_measure.cu.o $(MEASURE_EXTRA)
grader: harness $(OUT)/tests $(OUT)/measure $(OUT)/check
baseline: $(MEASURE_VS)
print-dirs:
	@echo $(OUT) $(KIT) $(CUDA_HOME) $(MEASURE_VS)

$(OUT)/student.o: $(SRC) common/tilelab.h common/check.h
	@mkdir -p $(@D)
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) -c $(SRC) -o $@

# PTX shows what the kernel does (shared loads and stores, barriers) on any toolkit.
$(OUT)/student.ptx: $(SRC) common/tilelab.h common/check.h
	@mkdir -p $(@D)
	@echo "  PTX   $@"
	$(Q)$(NVCC) $(NVFLAGS) -ptx $(SRC) -o $@

# What the quick check prints as its title.
$(OUT)/info.o: $(RUBRIC)
	@mkdir -p $(@D)
	$(Q)printf 'const char tl_lab_id[] = "%s";\nconst char tl_lab_source[] = "%s";\n' '$(LAB)' '$(SRC)' | \
	  gcc -x c -c - -o $@

$(OUT)/check: $(KIT)/$(KIND)_check.cu.o $(OUT)/student.o $(OUT)/info.o $(KIT)/libtilelab.a
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) $^ -o $@

$(OUT)/tests: $(KIT)/grader/$(KIND)_tests.c.o $(KIT)/grader/hidden.c.o $(OUT)/student.o $(KIT)/libtilelab.a | need-criterion
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) $^ $(CRITERION_LIBS) -o $@

$(OUT)/measure: $(KIT)/grader/$(KIND)_measure.cu.o $(OUT)/student.o $(MEASURE_EXTRA) $(KIT)/libtilelab.a
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) $^ $(MEASURE_LIBS) -o $@

# The baseline file with its launch renamed and every other global symbol
# made local, so it links beside the student's file even when both define a
# kernel of the same name. Weak symbols (inline functions) stay shared.
$(BASE_OUT)/as-baseline.o: $(BASELINE) common/tilelab.h common/check.h
	@mkdir -p $(@D)
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) -D$(LAUNCH_FN)=tl_baseline_$(LAUNCH_FN) -c $(BASELINE) -o $@.tmp
	$(Q)nm --defined-only -g $@.tmp | awk '$$2 ~ /^[BDRT]$$/ && $$3 != "tl_baseline_$(LAUNCH_FN)" { print $$3 }' > $@.local
	$(Q)objcopy --localize-symbols=$@.local $@.tmp $@
	$(Q)rm -f $@.tmp $@.local

$(MEASURE_VS): $(KIT)/grader/$(KIND)_measure.cu.o $(OUT)/student.o $(BASE_OUT)/as-baseline.o $(MEASURE_EXTRA) \
               $(KIT)/libtilelab.a
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) $^ $(MEASURE_LIBS) -o $@
