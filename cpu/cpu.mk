# cpu.mk — CPU mode (cpu/): the kit's CPU runtime and check, and one lab file
# built for it. Included by mk/submission.mk, where LAB, SRC, KIND and
# OUT name the file; the kit's part is built once, in $(CPU_KIT).
#   make -f mk/submission.mk LAB=lab2 SRC=labs/lab2-shared-tile/transpose.cu cpu
CPU_KIT := $(B)/cpu
CPU_CXX ?= g++
CPU_CXXFLAGS := -std=c++17 -O2 -g -Wall -Wextra -Icpu/include -Ikit $(addprefix -I,$(KIND_DIRS))
# The lab file, as C++ against cpu/include/ and the public headers alone.
# -fsanitize=thread only for the compiler's access hooks: cpu/runtime.cc
# defines them and libtsan is never linked. -fno-tree-vectorize and
# -fno-store-merging keep one hook per access the source makes, as one
# CUDA thread issues them (the counters group them per warp); -fno-tree-sra
# keeps a float4 or float2 that the source moves whole (into a named local,
# out of one, then used field by field) one 16- or 8-byte access, as nvcc's
# ld.global.v4.f32 is, not four 4-byte ones; no tail calls,
# so a barrier's return address is its own line. -fno-threadsafe-statics: a
# function-local static's guard needs no atomics (libtsan's, never linked)
# where every CUDA thread is a fiber of one OS thread. -g: the findings name
# lines (addr2line). -fPIC: the file becomes a shared library, which the
# worker maps once its sandbox is on (cpu/worker.cc); -fno-semantic-interposition
# inlines the file's own functions as the executable it once was linked into did;
# -fno-plt calls the runtime's hooks through the GOT, not a PLT stub.
CPU_LAB_FLAGS := -std=c++17 -O2 -g -fsanitize=thread --param tsan-instrument-func-entry-exit=0 \
                 -fno-tree-vectorize -fno-store-merging -fno-tree-sra -fno-optimize-sibling-calls \
                 -fno-threadsafe-statics
CPU_LAB_PIC := -fPIC -fno-semantic-interposition -fno-plt
# What a file the source step rewrites is preprocessed with. It sees the GPU
# ./grade times it on, an H100 or H200 (sm_90): a path under
# `#if __CUDA_ARCH__ >= 800` runs in CPU mode as it does there, and what the
# CPU cannot run (inline PTX) stops the run with its line. TLC_SOURCE_STEP:
# __device__ and __global__ leave a mark for the source step (cpu/cudafe.c).
CPU_SOURCE_DEFS := -D__CUDA_ARCH__=900 -DTLC_SOURCE_STEP
# A kind's own flags for its lab files in CPU mode (kinds/KIND/kind.mk's
# CPU_LAB_FLAGS_KIND; lab 7's: a hook per basic block, for its branches case).
cpu_lab_flags = $(CPU_LAB_FLAGS) $(CPU_LAB_FLAGS_$(1))
# The kit's own kernels that CPU mode runs beside a lab file's, each a worker
# of its own (kinds/KIND/kind.mk's CPU_CONTRASTS_KIND: lab 7's wide-tile
# kernel, whose branches the page draws beside the student's):
# $(CPU_KIT)/contrast/NAME/worker and its library, from kinds/*/NAME_launch.cu.
CPU_CONTRASTS := $(foreach k,$(notdir $(KIND_DIRS)),$(addprefix $(CPU_KIT)/contrast/,$(addsuffix /worker,$(CPU_CONTRASTS_$(k)))))
CPU_OUT := $(OUT)/cpu
# What a lab file may include in CPU mode, in place of the toolkit's headers.
CPU_HEADERS := $(wildcard cpu/include/*.h cpu/include/*/*.h)
# The kinds of hidden tests CPU mode runs (build/cpu/tests-KIND, below).
CPU_TEST_KINDS := $(notdir $(KIND_DIRS))
# The CUDA headers CPU mode does not emulate (mma.h: cpu/include/mma.h, its names only): each a header of one #error line
# in $(CPU_KIT)/refused/, found before a toolkit's own (which may sit in
# /usr/local/include), so the compiler names the file, its line and the header.
CPU_REFUSED_HEADERS := cuda_fp16.h cuda_bf16.h cublas.h cublas_v2.h cublasLt.h \
                       cufft.h curand.h curand_kernel.h cusparse.h cusolverDn.h nvrtc.h \
                       cuda/pipeline cuda/barrier cuda/annotated_ptr cuda_awbarrier.h

.PHONY: cpu cpu-grade cpu-kit print-cpu
cpu: $(CPU_OUT)/worker $(CPU_OUT)/worker.ptx $(CPU_KIT)/cpu-check
# ./grade --cpu: the same, and the hidden tests of the lab's kind.
cpu-grade: cpu $(CPU_KIT)/tests-$(KIND)
# "WORKER KIND": what the kit's tests (tests/cpu/) run the CPU check with.
print-cpu:
	@:$(info $(strip $(CPU_OUT)/worker $(KIND)))
cpu-kit: $(CPU_KIT)/libtlcpu.a $(CPU_KIT)/worker $(CPU_KIT)/cpu-check $(addprefix $(CPU_KIT)/tests-,$(CPU_TEST_KINDS)) $(CPU_KIT)/cudafe $(CPU_KIT)/refused/.stamp \
         $(CPU_CONTRASTS)

$(CPU_KIT)/refused/.stamp: cpu/cpu.mk
	@rm -rf $(@D) && mkdir -p $(@D)
	$(Q)for h in $(CPU_REFUSED_HEADERS); do \
	  mkdir -p $(@D)/$$(dirname $$h) && printf '#error "not supported in CPU mode: %s (a CUDA library or feature the CPU runtime does not emulate)"\n' $$h > $(@D)/$$h; \
	done && touch $@
$(CPU_KIT)/cudafe: cpu/cudafe.c
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc -std=c11 -O2 -Wall -Wextra $< -o $@
$(CPU_KIT)/runtime.o: cpu/runtime.cc cpu/runtime.h cpu/protocol.h kit/guard.h cpu/include/cuda_runtime.h
	@mkdir -p $(@D)
	@echo "  CXX   $@"
	$(Q)$(CPU_CXX) $(CPU_CXXFLAGS) -c $< -o $@
$(CPU_KIT)/worker.o: cpu/worker.cc cpu/runtime.h cpu/protocol.h kit/guard.h cpu/include/cuda_runtime.h kit/sandbox.h kit/tilelab.h kit/lab_launches.h kit/lab_exits.h $(LAUNCH_TABLE) | need-seccomp
	@mkdir -p $(@D)
	@echo "  CXX   $@"
	$(Q)$(CPU_CXX) $(CPU_CXXFLAGS) $(SECCOMP_CFLAGS) -c $< -o $@
# CHECK_CUDA in a lab file: the kit's own error path, built for the CPU.
$(CPU_KIT)/check.o: kit/check.cu kit/check.h cpu/include/cuda_runtime.h
	@mkdir -p $(@D)
	@echo "  CXX   $@"
	$(Q)$(CPU_CXX) $(CPU_CXXFLAGS) -x c++ -c $< -o $@
$(CPU_KIT)/switch.o: cpu/switch_x86_64.S
	@mkdir -p $(@D)
	$(Q)gcc -c $< -o $@
$(CPU_KIT)/sandbox.o: kit/sandbox.c kit/sandbox.h | need-seccomp
	@mkdir -p $(@D)
	$(Q)gcc $(CFLAGS) $(SECCOMP_CFLAGS) -c $< -o $@
# A lab file's exit, abort, ... said in its reply (kit/lab_exits.c), exported with the runtime.
$(CPU_KIT)/lab_exits.o: kit/lab_exits.c kit/lab_exits.h
	@mkdir -p $(@D)
	$(Q)gcc $(CFLAGS) -c $< -o $@
$(CPU_KIT)/libtlcpu.a: $(CPU_KIT)/runtime.o $(CPU_KIT)/worker.o $(CPU_KIT)/switch.o $(CPU_KIT)/sandbox.o $(CPU_KIT)/check.o $(CPU_KIT)/lab_exits.o
	$(Q)rm -f $@
	@echo "  AR    $@"
	$(Q)ar rcs $@ $^
# The worker: the runtime and no lab code, one program for every lab file.
# -rdynamic exports the runtime (the access hooks, the CUDA calls, threadIdx)
# to the lab file's library, which it maps inside its sandbox (cpu/worker.cc).
CPU_WORKER_OBJS := $(CPU_KIT)/worker.o $(CPU_KIT)/runtime.o $(CPU_KIT)/switch.o $(CPU_KIT)/sandbox.o $(CPU_KIT)/check.o $(CPU_KIT)/lab_exits.o
$(CPU_KIT)/worker: $(CPU_WORKER_OBJS) | need-seccomp
	@echo "  LINK  $@"
	$(Q)$(CPU_CXX) -rdynamic $(CPU_WORKER_OBJS) $(SECCOMP_LIBS) -ldl -lpthread -o $@
# Lab 7's encoder, the GPU tests' own code (kinds/sparse/sparse_case.cu without its
# CUDA part), built against CPU mode's header: the judge draws and encodes B with it.
$(CPU_KIT)/sparse_encode.o: kinds/sparse/sparse_case.cu kinds/sparse/sparse_encode.h kit/tilelab.h kit/matrix.h cpu/include/cuda_runtime.h
	@mkdir -p $(@D)
	@echo "  CXX   $@"
	$(Q)$(CPU_CXX) $(CPU_CXXFLAGS) -x c++ -DTL_SPARSE_ENCODER_ONLY -c $< -o $@
# A contrast, built as a lab file is (below), with the flags of its kind:
# the folder that holds it.
contrast_src = $(wildcard kinds/*/$(1)_launch.cu)
contrast_kind = $(notdir $(patsubst %/,%,$(dir $(call contrast_src,$(1)))))
$(CPU_KIT)/contrast/%/student.o: $(CPU_HEADERS) $(CPU_KIT)/refused/.stamp $(CPU_KIT)/cudafe cpu/cpu.mk $(wildcard kinds/*/kind.mk) $(wildcard kinds/*/*_launch.cu)
	@mkdir -p $(@D)
	@echo "  CPU   $@"
	$(Q)$(CPU_CXX) -E -x c++ -std=c++17 $(CPU_SOURCE_DEFS) -Icpu/include -I$(CPU_KIT)/refused -Ikit -iquote $(dir $(call contrast_src,$*)) $(call contrast_src,$*) -o $(@D)/student.ii
	$(Q)$(CPU_KIT)/cudafe < $(@D)/student.ii > $(@D)/student.cpu.ii
	$(Q)$(CPU_CXX) -x c++-cpp-output $(call cpu_lab_flags,$(call contrast_kind,$*)) $(CPU_LAB_PIC) -c $(@D)/student.cpu.ii -o $@
$(CPU_KIT)/contrast/%/worker.so: $(CPU_KIT)/contrast/%/student.o
	$(Q)$(CPU_CXX) -shared -Wl,-z,now -Wl,-z,relro $< -o $@
$(CPU_KIT)/contrast/%/worker: $(CPU_KIT)/contrast/%/worker.so $(CPU_KIT)/worker
	$(Q)cp -f $(CPU_KIT)/worker $@

# The judge: no lab file in it, and no CUDA. A kind may keep its own CPU-mode
# check in its folder (cpu/cpu_judge.h): linked when it is there.
CPU_OWN_JUDGES := $(wildcard kinds/*/*_cpu_judge.c)
# grader/ptx.c: the PTX reader of the grader's checks, for each line's access widths.
$(CPU_KIT)/cpu-check: cpu/judge.c cpu/protocol.h $(LAUNCH_TABLE) cpu/cpu_judge.h $(CPU_OWN_JUDGES) kit/guard.h kit/matrix.c kit/json.c kit/shapes.c kit/sandbox_calls.c kit/sandbox.h kit/matrix.h kit/json.h kit/shapes.h kinds/sparse/sparse_encode.h $(CPU_KIT)/sparse_encode.o grader/ptx.c grader/ptx.h
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(filter-out -I$(CUDA_HOME)/include,$(CFLAGS)) -Icpu -Igrader cpu/judge.c $(CPU_OWN_JUDGES) kit/matrix.c kit/json.c kit/shapes.c kit/sandbox_calls.c grader/ptx.c $(CPU_KIT)/sparse_encode.o -lm -o $@

# The judge once more, as an object for the hidden tests (below): its main is
# tl_cpu_check_main, which each case runs in a child of the test's process instead
# of starting cpu-check (cpu/hidden_cases.c), and its exit and atexit are that
# child's own (the test's handlers must not run in it). What cpu-check links beyond what
# tests-KIND links itself (json, shapes, matrix, sparse_encode.o) goes in with it: keep the two rules together.
$(CPU_KIT)/cpu-check-cases.o: cpu/judge.c cpu/protocol.h $(LAUNCH_TABLE) cpu/cpu_judge.h $(CPU_OWN_JUDGES) kit/guard.h kit/sandbox_calls.c kit/sandbox.h kit/matrix.h kit/json.h kit/shapes.h kinds/sparse/sparse_encode.h grader/ptx.c grader/ptx.h
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(filter-out -I$(CUDA_HOME)/include,$(CFLAGS)) -Icpu -Dmain=tl_cpu_check_main -Dexit=tl_cpu_check_exit -Datexit=tl_cpu_check_atexit \
	  -Igrader -r -nostdlib cpu/judge.c $(CPU_OWN_JUDGES) kit/sandbox_calls.c grader/ptx.c -o $@

# The hidden tests in CPU mode (./grade --cpu): grader/hidden.c and the same
# tests, with the cases run by the judge (cpu/hidden_cases.c; a kind may keep
# its own in kinds/KIND/KIND_cpu_cases.c, linked when it is there). The tests'
# objects are the GPU judges' own (gcc; in the student kit, grader/prebuilt/).
# The CUDA headers only declare types here: nothing of CUDA is linked.
$(CPU_KIT)/tests-%: $(KIT)/grader/%_tests.c.o $(KIT)/grader/hidden.c.o cpu/hidden_cases.c cpu/cpu_cases.h $(LAUNCH_TABLE) $(wildcard kinds/*/*_cpu_cases.c) kit/json.c kit/shapes.c kit/matrix.c $(CPU_KIT)/cpu-check $(CPU_KIT)/cpu-check-cases.o $(CPU_KIT)/sparse_encode.o
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) -Icpu -DTL_CPU_KIND='"$*"' $(KIT)/grader/$*_tests.c.o $(KIT)/grader/hidden.c.o cpu/hidden_cases.c $(wildcard kinds/$*/$*_cpu_cases.c) kit/json.c kit/shapes.c kit/matrix.c $(CPU_KIT)/cpu-check-cases.o $(CPU_KIT)/sparse_encode.o -lm -o $@

ifneq ($(SRC),)
# The lab file: preprocessed, rewritten by the source step, compiled with hooks.
# Its public headers are copied beside it, as for nvcc (mk/submission.mk).
$(CPU_OUT)/student.o: $(SRC) $(PUBLIC_HEADERS) $(CPU_HEADERS) $(CPU_KIT)/refused/.stamp $(CPU_KIT)/cudafe cpu/cpu.mk $(wildcard kinds/$(KIND)/kind.mk)
	@rm -rf $(CPU_OUT)/public
	@mkdir -p $(CPU_OUT)/public
	$(Q)cp $(PUBLIC_HEADERS) $(CPU_OUT)/public/
	@echo "  CPU   $@"
	$(Q)$(CPU_CXX) -E -x c++ -std=c++17 $(CPU_SOURCE_DEFS) -Icpu/include -I$(CPU_KIT)/refused -I$(CPU_OUT)/public -iquote $(dir $(SRC)) '$(SRC)' -o $(CPU_OUT)/student.ii
	$(Q)$(CPU_KIT)/cudafe < $(CPU_OUT)/student.ii > $(CPU_OUT)/student.cpu.ii
	$(Q)$(CPU_CXX) -x c++-cpp-output $(call cpu_lab_flags,$(KIND)) $(CPU_LAB_PIC) -c $(CPU_OUT)/student.cpu.ii -o $@
# The file's library (worker.so), and the kit's worker copied beside it, which
# maps it once its sandbox is on: no code of the file is linked into a
# program, and none runs before the sandbox. First the file is linked with
# the runtime into a program that is thrown away: a name the runtime lacks
# (a CUDA call CPU mode does not emulate) or defines too (an access hook of
# the file's own) fails the build here, as when the file was linked in,
# not when the worker maps the library.
$(CPU_OUT)/worker.so: $(CPU_OUT)/student.o $(CPU_KIT)/libtlcpu.a | need-seccomp
	@echo "  LINK  $@"
	$(Q)$(CPU_CXX) $^ $(SECCOMP_LIBS) -ldl -lpthread -o $(CPU_OUT)/link-check && rm -f $(CPU_OUT)/link-check
	$(Q)$(CPU_CXX) -shared -Wl,-z,now -Wl,-z,relro $< -o $@
$(CPU_OUT)/worker: $(CPU_OUT)/worker.so $(CPU_KIT)/worker
	$(Q)cp -f $(CPU_KIT)/worker $@
# The PTX nvcc compiles the file to (student.ptx of mk/submission.mk, with
# -lineinfo), beside the worker: cpu-check reads each line's access widths
# from it, so its requests count what nvcc issues, not what g++ does
# (cpu/judge.c, apply_ptx_widths). Made by the GPU build's own rule when that
# has not run yet. Where nvcc cannot make it, there is none (its log beside
# it): CPU mode still builds, and counts one request per access, saying so.
$(CPU_OUT)/worker.ptx: $(SRC) $(PUBLIC_HEADERS) mk/submission.mk
	@mkdir -p $(@D)
	$(Q)if $(MAKE) --no-print-directory -s -f mk/submission.mk LAB='$(LAB)' KIND='$(KIND)' SRC='$(SRC)' ARCH='$(ARCH)' $(OUT)/student.ptx \
	      > $(CPU_OUT)/ptx.log 2>&1; then cp -f $(OUT)/student.ptx $@; else rm -f $@; fi
endif

# make bench-cpu: CPU mode's speed on this machine, a table (cpu/bench.sh);
# a benchmark, not a test: nothing fails on a slow machine.
.PHONY: bench-cpu
$(CPU_KIT)/bench/micro: cpu/bench/micro.cu $(CPU_KIT)/cudafe $(CPU_KIT)/runtime.o $(CPU_KIT)/switch.o cpu/include/cuda_runtime.h kit/tilelab.h
	@mkdir -p $(@D)
	@echo "  CPU   $@"
	$(Q)$(CPU_CXX) -E -x c++ -std=c++17 $(CPU_SOURCE_DEFS) -Icpu/include -Ikit $(addprefix -I,$(KIND_DIRS)) -Icpu cpu/bench/micro.cu -o $@.ii
	$(Q)$(CPU_KIT)/cudafe < $@.ii > $@.cpu.ii
	$(Q)$(CPU_CXX) -x c++-cpp-output $(CPU_LAB_FLAGS) -c $@.cpu.ii -o $@.o
	$(Q)$(CPU_CXX) $@.o $(CPU_KIT)/runtime.o $(CPU_KIT)/switch.o -lpthread -o $@
bench-cpu: $(CPU_KIT)/bench/micro $(CPU_KIT)/cpu-check
	@sh cpu/bench.sh
