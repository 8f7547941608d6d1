# rubric.mk — build/tools/rubric, the rubric's one reader for make and the
# shell (grader/rubric_tool.c). Included by the Makefile and mk/submission.mk.
# Host C only: a fraction of a second to build.
RUBRIC_TOOL := $(B)/tools/rubric
RUBRIC_TOOL_SRC := grader/rubric_tool.c grader/rubric.c grader/rubric.h
RUBRIC_TOOL_BUILD := mkdir -p $(B)/tools && gcc $(CFLAGS) grader/rubric_tool.c grader/rubric.c -lm -o $(RUBRIC_TOOL)
$(RUBRIC_TOOL): $(RUBRIC_TOOL_SRC)
	@$(RUBRIC_TOOL_BUILD)

# A makefile that asks it while it is read (mk/submission.mk: the lab's kind)
# sets RUBRIC_AT_PARSE=1 first: the tool is then built here, when missing or
# older than its sources, before the first question.
ifeq ($(RUBRIC_AT_PARSE),1)
  RUBRIC_TOOL_ERROR := $(shell for f in $(RUBRIC_TOOL_SRC); do [ $(RUBRIC_TOOL) -nt $$f ] || { $(RUBRIC_TOOL_BUILD) 2>&1 | head -5; break; }; done)
  ifneq ($(RUBRIC_TOOL_ERROR),)
    $(error build/tools/rubric does not build (the kit's fault): $(RUBRIC_TOOL_ERROR))
  endif
endif

# build/tools/plan: what a grade runs, decided from the rubric (grader/plan.c);
# ./grade executes it. Host C only, built with the report.
$(B)/tools/plan: grader/plan.c grader/paths.c grader/paths.h grader/rubric.c grader/rubric.h grader/counters.h grader/lab_kinds.c grader/lab_kinds.h \
                 kinds/kinds.def $(wildcard kinds/*/kind.def)
	@mkdir -p $(@D)
	@gcc $(CFLAGS) grader/plan.c grader/paths.c grader/rubric.c grader/lab_kinds.c -lm -o $@
