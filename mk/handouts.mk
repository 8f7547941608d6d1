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
$(B)/tools/rubric-table: tools/handouts/rubric_table.c grader/rubric.c grader/rubric.h
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) tools/handouts/rubric_table.c grader/rubric.c -lm -o $@

# Rewrites the tables of the handouts in place, after a rubric changed.
.PHONY: handout-tables
handout-tables: $(B)/tools/rubric-table
	$(B)/tools/rubric-table --update $(wildcard handouts/*.md)

# The handouts' access pictures (handouts/img/access/*.png): the report page's
# figures of the reference solutions' CPU-mode grades, and of the contrasts
# their lessons draw, photographed by a headless Chromium; rerun after a
# reference or the page changes (tools/handouts/figures.sh).
.PHONY: handout-figures
handout-figures:
	@sh tools/handouts/figures.sh
