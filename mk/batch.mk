# batch.mk — the batch grader's tools (gradebook). Included by the Makefile.
# tools/batch/batch builds build/tools/gradebook itself before grading a class.

# Host-only, like the report: reads and writes results.json and the gradebook CSV.
# The void register (tools/board/voids.c) is the class board's: a void shows in
# every gradebook the batch writes.
$(B)/tools/gradebook: tools/batch/gradebook.c tools/board/voids.c tools/board/voids.h grader/rubric.c kit/json.c kit/csv.c $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) -Itools/board tools/batch/gradebook.c tools/board/voids.c grader/rubric.c kit/json.c kit/csv.c -lm -o $@
