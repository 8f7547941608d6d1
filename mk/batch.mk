# batch.mk — the batch grader's tools (gradebook). Included by the Makefile.
# tools/batch/batch builds build/tools/gradebook itself before grading a class.

# Host-only, like the report: reads and writes results.json and the gradebook CSV.
$(B)/tools/gradebook: tools/batch/gradebook.c grader/rubric.c kit/json.c kit/csv.c $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) tools/batch/gradebook.c grader/rubric.c kit/json.c kit/csv.c -lm -o $@
