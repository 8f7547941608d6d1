# handouts.mk — build/tools/rubric-table and `make handout-tables`: each lab
# handout's table of points and thresholds, and what ./grade measured on the
# GPUs they were checked on, written from the lab's rubric between the
# handout's `<!-- rubric-table ... -->` lines (tools/handouts/rubric_table.c).
# A tool test (tests/tools/handouts.c) fails when a handout's tables differ
# from its rubric. Included by the Makefile; `make -f mk/handouts.mk
# build/tools/rubric-table` also works on its own.
ifeq ($(origin B),undefined)
  include mk/toolchain.mk
endif

# Host C only, like the report: it reads the rubric with grader/rubric.c.
$(B)/tools/rubric-table: tools/handouts/rubric_table.c grader/rubric.c grader/rubric.h grader/lab_kinds.c grader/lab_kinds.h \
                         kinds/kinds.def $(wildcard kinds/*/kind.def)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) tools/handouts/rubric_table.c grader/rubric.c grader/lab_kinds.c -lm -o $@

# Rewrites the tables of the handouts in place, after a rubric changed.
.PHONY: handout-tables
handout-tables: $(B)/tools/rubric-table
	$(B)/tools/rubric-table --update $(wildcard handouts/*.md)

# The handouts' access pictures (handouts/img/access/*.png): the report page's
# figures of the reference solutions' CPU-mode grades, and of the contrasts
# their lessons draw, photographed by a headless Chromium
# (tools/handouts/figures.sh). `make handout-figures` draws them all again;
# `make handouts` (mk/plots.mk) draws them first when what they are drawn from
# changed since: a reference, a contrast's patch, CPU mode, the page.
.PHONY: handout-figures
handout-figures:
	@sh tools/handouts/figures.sh
	@mkdir -p $(dir $(HANDOUT_FIGURES)) && touch $(HANDOUT_FIGURES)

HANDOUT_FIGURES := $(B)/handout-figures/.drawn
HANDOUT_FIGURES_FROM := tools/handouts/figures.sh grader/report_page.c $(wildcard solutions/*/*.cu) \
    $(wildcard cpu/*.cc cpu/*.c cpu/*.h cpu/include/*.h) tests/submissions/lab2/missing_barrier.patch \
    tests/fixtures/report-page/lab6-unswizzled.patch kinds/sparse/sparse_wide_launch.cu
# Only where they can be drawn: the instructor kit (the references) with a
# headless Chromium. Elsewhere (the student kit, a machine without Chromium)
# the handouts show the pictures as committed, and make says so once.
ifneq ($(filter handouts,$(MAKECMDGOALS)),)
  HANDOUT_BROWSER := $(shell command -v chromium-headless-shell 2>/dev/null || command -v chromium 2>/dev/null)
  ifneq ($(and $(wildcard solutions),$(HANDOUT_BROWSER)),)
    # Every page waits for the pictures, and is written again when they change.
    $(patsubst handouts/%.md,$(HANDOUTS_OUT)/%.html,$(HANDOUTS)) \
    $(if $(LATEX_ENGINE),$(patsubst handouts/%.md,$(HANDOUTS_OUT)/%.pdf,$(HANDOUTS))): $(HANDOUT_FIGURES)
    $(HANDOUT_FIGURES): $(HANDOUT_FIGURES_FROM)
	@sh tools/handouts/figures.sh
	@touch $@
  else
    $(info handouts: the access pictures in handouts/img/access/ are used as they are: redrawing them needs \
      $(if $(wildcard solutions),,the reference solutions (the instructor kit)$(if $(HANDOUT_BROWSER),, and ))$(if \
      $(HANDOUT_BROWSER),,a headless Chromium (apt-get install chromium-headless-shell)))
  endif
endif
