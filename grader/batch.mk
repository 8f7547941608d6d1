# batch.mk — the batch grader's tools (gradebook). Included by the Makefile.
# grader/batch builds build/tools/gradebook itself before grading a class.

# Host-only, like the report: reads and writes results.json and the gradebook CSV.
$(B)/tools/gradebook: grader/gradebook.c grader/rubric.c common/json.c common/csv.c $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) grader/gradebook.c grader/rubric.c common/json.c common/csv.c -lm -o $@
