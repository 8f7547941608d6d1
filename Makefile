# tilelab — `make help` lists the targets.
.DEFAULT_GOAL := help
include mk/toolchain.mk
include mk/kit.mk
include mk/rubric.mk
# CPU mode: its runtime and check are part of the kit (cpu/cpu.mk), with what
# each kind asks of it (kinds/*/kind.mk).
include $(wildcard kinds/*/kind.mk)
include cpu/cpu.mk

# A lab is a folder, labs/<id>-<name>/, holding its lab.rubric and one .cu:
# the labs are the folders with a rubric.
LABS := $(sort $(foreach r,$(wildcard labs/*/lab.rubric),$(firstword $(subst -, ,$(notdir $(r:/lab.rubric=))))))
lab_file = $(firstword $(wildcard $(1)/$(2)-*/*.cu))
# SOLUTION=1 builds the reference solution instead of the student's file.
ifneq ($(filter 1 yes true,$(SOLUTION)),)
  lab_src = $(call lab_file,solutions,$(1))
else
  lab_src = $(call lab_file,labs,$(1))
endif
SUBMISSION = $(MAKE) --no-print-directory -f mk/submission.mk

# The student kit (make dist-student) has no solutions/ and no tests/: its
# help leaves out what needs them, and the kit's own tests say where they are.
HAVE_SOLUTIONS := $(wildcard solutions/)
HAVE_KIT_TESTS := $(wildcard tests/unit/ tests/gpu/ tests/tools/)
KIT_TESTS_ELSEWHERE := the kit's own tests (tests/) ship with the instructor kit, not with this student kit; to check your lab: make labN, build/labN, ./grade

.PHONY: deps-carry help $(LABS) test test-full test-suites unit-tests tool-tests cpu-tests compile-all gpu-tests kit deps clean $(COMPILE_TARGETS)
help:
	@echo "tilelab — CUDA labs with a grader"
	@echo "  make labN            build build/labN, your quick check, and make labN current (labs: $(LABS))"
	@echo "  build/labN --cpu     the quick check on the CPU, no GPU needed: results, races, barriers, bounds, counters (run by itself without a GPU)"
ifneq ($(HAVE_SOLUTIONS),)
	@echo "  make labN SOLUTION=1 the same with the reference solution (instructors)"
endif
	@echo "  ./grade [labN]       grade the current lab (./grade --help)"
	@echo "  ./grade --batch DIR  grade a class, one folder per student, into a gradebook (instructors; --batch --help)"
	@echo "  ./grade --board DIR  a graded class's boards: pseudonyms, best passing runs, ties (instructors; --board --help)"
ifneq ($(HAVE_SOLUTIONS),)
	@echo "  make dist-student    results/dist/tilelab-student.tar.gz: labs, kit, grader, handouts; no solutions or tests"
	@echo "  make dist-instructor results/dist/tilelab-instructor.tar.gz: every tracked file"
	@echo "  make gradescope LAB=labN  results/dist/tilelab-gradescope-labN.zip: an autograder to upload to Gradescope"
endif
ifneq ($(HAVE_KIT_TESTS),)
	@echo "  make test            unit tests, every skeleton and solution compiled, CPU mode's tests, GPU suite (skipped without a GPU)"
	@echo "  make test-full       the same, CPU mode's fixtures graded on the real hidden cases, not reduced ones (before a release)"
endif
ifneq ($(HAVE_SOLUTIONS),)
	@echo "  make bench           time copy, every lab's reference and your kernels, cuBLAS over 256^2..16384^2 -> results/bench.csv (GPU)"
else
	@echo "  make bench           time copy, your kernels and cuBLAS over 256^2..16384^2 -> results/bench.csv (GPU)"
endif
	@echo "  make bench-cpu       CPU mode's speed on this machine: each lab's reference, the barrier and access costs (a table, no GPU)"
	@echo "  make plots           charts (PNG and SVG) in results/plots/ from make bench, ./grade and --batch results (gnuplot)"
	@echo "  make handouts        handouts/*.md to HTML, and PDF when LaTeX is installed, in results/handouts/ (pandoc); the access pictures redrawn first where the references and a headless Chromium are"
ifneq ($(HAVE_SOLUTIONS),)
	@echo "  make handout-tables  rewrite the handouts' points and thresholds tables from labs/*/lab.rubric (after a rubric changed)"
endif
	@echo "  make deps            fetch $(DEPS_NAMES) into .deps/ now, without root (else done on first use)"
	@echo "  make deps-carry      the same, with every library they need, even where installed: a kit for a machine with no network"
	@echo "  make clean           remove build/"
	@echo "  ARCH=sm_86           target another GPU (now: $(ARCH)); CUDA_HOME=... picks the toolkit ($(CUDA_HOME))"
ifeq ($(HAVE_KIT_TESTS),)
	@echo "  (the student kit: the solutions, the kit's own tests (make test) and the instructors' targets ship with the instructor kit)"
endif

# The libraries the README's entry points link (need-* in mk/toolchain.mk):
# fetched into .deps/ on first use, before any rule runs (below).
LAB_NEEDS := seccomp
$(foreach l,$(LABS),$(eval NEEDS_$(l) := $(LAB_NEEDS)))
NEEDS_test := $(if $(HAVE_KIT_TESTS),criterion seccomp)
NEEDS_test-full := $(NEEDS_test)
# The student kit has no Criterion tests: libseccomp alone.
NEEDS_deps := $(if $(HAVE_KIT_TESTS),criterion) seccomp
DEPS_NAMES := $(if $(HAVE_KIT_TESTS),Criterion and libseccomp,libseccomp)

# `make lab1`: build the quick check, link build/lab1 to it, remember the lab.
# The kit it needs first builds one file per core unless make was given its own -j.
LAB_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1))
$(LABS): need-nvcc $(addprefix need-,$(LAB_NEEDS))
	@src='$(call lab_src,$@)'; [ -n "$$src" ] || { echo "no .cu file for $@ (looked in $(if $(SOLUTION),solutions,labs)/$@-*/$(if $(SOLUTION),$(if $(HAVE_SOLUTIONS),,; the reference solutions ship with the instructor kit only)))" >&2; exit 2; }; \
	$(SUBMISSION) $(LAB_JOBS) LAB=$@ SRC="$$src" check && \
	{ $(SUBMISSION) LAB=$@ SRC="$$src" cpu >/dev/null 2>&1 || echo "(CPU mode cannot build this file: build/$@ --cpu says why)"; } && \
	out=$$($(SUBMISSION) LAB=$@ SRC="$$src" print-dirs | cut -d' ' -f1) && \
	ln -sfn "$${out#$(B)/}/check" $(B)/$@ && \
	printf '%s %s\n' $@ "$$src" > $(B)/current-lab && \
	echo "built $(B)/$@ from $$src — run it for a quick check, then ./grade"

# ---- tests ---------------------------------------------------------------
comma := ,
# Each suite's Criterion XML report: every test's time, for make test's five slowest.
TEST_TIMES := $(B)/test-times
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_KIT := grader/rubric.c grader/counters.c grader/ptx.c kit/sandbox.c kit/sandbox_calls.c
$(B)/tests/unit: $(UNIT_SRC) $(KIT_C) $(UNIT_KIT) $(KIT_HEADERS) | need-criterion need-seccomp
	@mkdir -p $(@D)
	gcc $(CFLAGS) $(CRITERION_CFLAGS) $(SECCOMP_CFLAGS) $(UNIT_SRC) $(KIT_C) $(UNIT_KIT) -lm \
	  $(subst -Xlinker ,-Wl$(comma),$(CRITERION_LIBS)) $(SECCOMP_LIBS) -o $@

# The GPU suite's table (tests/gpu/fixtures.c) is checked without a GPU by the tool tests.
GPU_TABLE := tests/gpu/fixtures.c tests/gpu/fixtures.h
# The table, one row a line, for tests/gpu/device-run.sh's summary.
$(B)/tests/rows: tests/gpu/rows.c $(GPU_TABLE)
	@mkdir -p $(@D)
	gcc $(CFLAGS) tests/gpu/rows.c tests/gpu/fixtures.c -o $@
$(B)/tests/gpu: tests/gpu/grading.c $(GPU_TABLE) $(KIT)/json.c.o $(KIT_HEADERS) | need-criterion
	@mkdir -p $(@D)
	gcc $(CFLAGS) $(CRITERION_CFLAGS) tests/gpu/grading.c tests/gpu/fixtures.c $(KIT)/json.c.o -lm \
	  $(subst -Xlinker ,-Wl$(comma),$(CRITERION_LIBS)) -o $@


# The kit's shared objects, built here once: with -j, sub-makes that each
# built them too would write the same files at the same time.
KINDS := $(notdir $(KIND_DIRS))
KIT_SHARED := $(KIT)/libtilelab.a $(KIT)/libjudge.a $(KIT)/probe $(B)/tools/report $(B)/tools/plan $(RUBRIC_TOOL) $(WORKER_KIT) $(KIT)/lab-worker $(KIT)/link-symbols.txt $(CPU_KIT)/worker \
  $(B)/tools/inspect $(B)/tools/ptx-structure \
  $(foreach k,$(KINDS),$(KIT)/judge/tests-$(k) $(KIT)/judge/measure-$(k) $(KIT)/judge/check-$(k)) \
  $(patsubst %_launch.cu,$(KIT)/workers/%,$(notdir $(wildcard kinds/*/*_launch.cu))) \
  $(patsubst %.cu,$(KIT)/grader/%.cu.o,$(notdir $(wildcard kinds/*/*_naive.cu))) \
  $(CPU_KIT)/libtlcpu.a $(CPU_KIT)/cpu-check $(CPU_KIT)/cudafe $(CPU_KIT)/refused/.stamp
kit: need-nvcc need-seccomp $(KIT_SHARED)

# Every lab's skeleton and solution, built exactly as the grader builds them
# (the student kit has no solutions/: its skeletons only).
COMPILE_TARGETS := $(filter-out %@,$(foreach l,$(LABS),compile@$(l)@$(call lab_file,labs,$(l)) compile@$(l)@$(call lab_file,solutions,$(l))))
compile-all: $(COMPILE_TARGETS)
$(COMPILE_TARGETS): compile@%: need-nvcc kit
	+@$(SUBMISSION) -s LAB=$(word 1,$(subst @, ,$*)) SRC=$(word 2,$(subst @, ,$*)) check grader

ifneq ($(HAVE_KIT_TESTS),)
# CPU mode (cpu/, tests/cpu/): the lab files on the CPU, no GPU needed. The
# CPU kit is built first, so the tests' parallel builds of lab files never build it.
CPU_TESTS_SRC := $(wildcard tests/cpu/*.c)
$(B)/tests/cpu: $(CPU_TESTS_SRC) $(wildcard tests/cpu/*.h) $(GPU_TABLE) kit/json.c grader/counters.c $(KIT_HEADERS) | need-criterion
	@mkdir -p $(@D)
	gcc $(CFLAGS) $(CRITERION_CFLAGS) $(CPU_TESTS_SRC) tests/gpu/fixtures.c kit/json.c grader/counters.c -lm \
	  $(subst -Xlinker ,-Wl$(comma),$(CRITERION_LIBS)) -o $@
cpu-tests: $(B)/tests/cpu cpu-kit need-seccomp
	@mkdir -p $(TEST_TIMES)
	MAKEFLAGS= MAKELEVEL= sh mk/timed.sh "CPU-mode suite" $(B)/tests/cpu -j2 --xml=$(TEST_TIMES)/cpu.xml

# -j1: the report tests share one output folder.
unit-tests: $(B)/tests/unit $(B)/tools/report
	@mkdir -p $(TEST_TIMES)
	sh mk/timed.sh "unit suite" $(B)/tests/unit -j1 --xml=$(TEST_TIMES)/unit.xml

# Grades solutions, skeletons and tests/submissions/ with ./grade, four at a
# time: their tests share the GPU, but each measurement holds it alone
# (./grade's GPU lock). Skips (and passes) without a GPU. Not more than four:
# with eleven at once on a 16-core H100 host (2026-11-28), builds and
# sanitizers starved a worker past its 5 s kernel deadline and a correct
# shape read as a hang (lab1/swapped_rows_cols lost its diagnosis).
# The kit is built first where there is a GPU, so parallel grades never build it.
gpu-tests: $(B)/tests/gpu compile-all $(KIT)/probe
	@! $(KIT)/probe >/dev/null 2>&1 || $(MAKE) --no-print-directory kit
	@mkdir -p $(TEST_TIMES)
	MAKEFLAGS= MAKELEVEL= TILELAB_PROBE=$(KIT)/probe sh mk/timed.sh "GPU suite" $(B)/tests/gpu -j4 --verbose --xml=$(TEST_TIMES)/gpu.xml

# Host-only tests of the instructor tools (plots, batch grading, dists):
# Criterion tests in tests/tools/ that run the tools on fixtures; they read
# what the tools write with the kit's own JSON reader.
# TILELAB_CPU_FALLBACK=0: their grades stop at the GPU probe, as they test
# what comes before it (./grade in CPU mode has tests of its own, tests/cpu/).
TOOLS_SRC := $(wildcard tests/tools/*.c)
$(B)/tests/tools: $(TOOLS_SRC) $(GPU_TABLE) kit/json.c kit/json.h | need-criterion
	@mkdir -p $(@D)
	gcc $(CFLAGS) $(CRITERION_CFLAGS) $(TOOLS_SRC) tests/gpu/fixtures.c kit/json.c -lm \
	  $(subst -Xlinker ,-Wl$(comma),$(CRITERION_LIBS)) -o $@
# Two parts at once, each one test at a time (tests of one file share their folders): the
# tests that unpack a kit (dist/, gradescope/), which share the suite run's kits in
# $(B)/tests/kits (made afresh each run: tests/tools/tool.c), beside all the others. The
# tools both parts make in build/ are built first, so no two makes write one file at once.
TOOL_TEST_PARTS := '@(dist|gradescope)/*' '!(@(dist|gradescope))/*'
tool-tests: $(if $(TOOLS_SRC),$(B)/tests/tools $(B)/tools/report $(B)/tools/plan $(RUBRIC_TOOL) $(B)/tools/inspect)
	$(if $(TOOLS_SRC),rm -rf $(B)/tests/kits && MAKEFLAGS= MAKELEVEL= TILELAB_CPU_FALLBACK=0 sh mk/timed.sh "tool suite" \
	  sh mk/suite-parts.sh $(TEST_TIMES)/tools.xml $(B)/tests/tools $(TOOL_TEST_PARTS))

# make test: every suite, the five slowest tests (mk/slowest.sh, from each suite's
# Criterion XML in $(TEST_TIMES)), then one count line over them all, printed last
# whatever failed (mk/test-count.sh: "N passed, N failed, N skipped").
# make test-full (before a release): the same, CPU mode's fixture rows graded on
# the real cases, never reduced ones (tests/cpu/grade.c).
test test-full: $(addprefix need-,$(NEEDS_test))
	@rm -rf $(TEST_TIMES); mkdir -p $(TEST_TIMES); \
	{ $(if $(filter test-full,$@),TILELAB_TEST_FULL=1) sh mk/timed.sh "make $@" $(MAKE) --no-print-directory test-suites; echo $$? >$(B)/test.status; } 2>&1 | tee $(B)/test.log; \
	sh mk/slowest.sh $(TEST_TIMES)/*.xml | tee -a $(B)/test.log; sh mk/test-count.sh $(B)/test.log; exit $$(cat $(B)/test.status)
test-suites: unit-tests tool-tests compile-all
	@$(MAKE) --no-print-directory cpu-tests
	@$(MAKE) --no-print-directory gpu-tests
else
# The student kit: one sentence, exit 0 (nothing failed; there is nothing to run).
test test-full test-suites unit-tests tool-tests cpu-tests gpu-tests:
	@echo "make $@: $(KIT_TESTS_ELSEWHERE)."
endif

# The grader's static checks: what a file may call and include (inspect),
# and the structure of the kernels that ran (ptx-structure).
include mk/inspect.mk
include mk/ptx.mk

# Instructor and self-study tools, one fragment each.
include mk/plots.mk
include mk/dist.mk
include mk/batch.mk
include mk/board.mk
include mk/bench.mk
include mk/handouts.mk

# ---- Criterion and libseccomp on first use ---------------------------------
# mk/deps.sh fetches what pkg-config lacks into .deps/ (apt-get download,
# dpkg -x: no root needed); the build finds it there on its own. For the
# README's commands, `make deps` and ./grade's `make need-criterion
# need-seccomp`, that happens here, while the makefiles are read: a failure
# is then deps.sh's one sentence, and -q makes make run nothing and exit 1
# (a failing rule would end in make's own "*** Error" lines).
DEPS_NOW := $(filter $(DEPS_MISSING),$(foreach g,$(MAKECMDGOALS),$(NEEDS_$(g)) $(patsubst need-%,%,$(filter need-%,$(g)))))
ifneq ($(DEPS_NOW),)
  $(info $(shell sh mk/deps.sh --announce $(DEPS) $(sort $(DEPS_NOW))))
  ifneq ($(shell sh mk/deps.sh --quiet $(DEPS) $(sort $(DEPS_NOW)) && echo ok),ok)
    MAKEFLAGS += -q
  endif
endif
deps: $(addprefix need-,$(NEEDS_deps))
	@echo "$(DEPS_NAMES) $(if $(HAVE_KIT_TESTS),are,is) ready (pkg-config finds $(if $(HAVE_KIT_TESTS),them,it), else $(if $(HAVE_KIT_TESTS),they are,it is) in $(DEPS))."
# A kit for a machine that reaches no package archive: $(DEPS_NAMES) and every
# library they need beyond the base system, fetched here into $(DEPS) (README).
deps-carry:
	@sh mk/deps.sh --carry $(DEPS) $(NEEDS_deps) && echo "$(DEPS) holds $(DEPS_NAMES) and what $(if $(HAVE_KIT_TESTS),they need,it needs): copy the kit with it to the machine without network"

clean:
	rm -rf $(B)
