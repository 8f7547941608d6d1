# rubric.mk — build/tools/rubric, the rubric's one reader for make and the
# shell (grader/rubric_tool.c). Included by the Makefile and mk/submission.mk.
# Host C only, built when this file is read if it is missing or older than its
# sources (a fraction of a second), so make can ask it while reading makefiles.
RUBRIC_TOOL := $(B)/tools/rubric
RUBRIC_TOOL_SRC := grader/rubric_tool.c grader/rubric.c grader/rubric.h
RUBRIC_TOOL_BUILD := mkdir -p $(B)/tools && gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Igrader \
  grader/rubric_tool.c grader/rubric.c -lm -o $(RUBRIC_TOOL)
RUBRIC_TOOL_ERROR := $(shell for f in $(RUBRIC_TOOL_SRC); do [ $(RUBRIC_TOOL) -nt $$f ] || { $(RUBRIC_TOOL_BUILD) 2>&1 | head -5; break; }; done)
ifneq ($(RUBRIC_TOOL_ERROR),)
  $(error build/tools/rubric does not build (the kit's fault): $(RUBRIC_TOOL_ERROR))
endif
$(RUBRIC_TOOL): $(RUBRIC_TOOL_SRC)
	@$(RUBRIC_TOOL_BUILD)
