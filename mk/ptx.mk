# ptx.mk — build/tools/ptx-structure: the structure of the kernels that ran,
# read from the submission's PTX (grader/ptx.h). Host C only, like the report:
# it builds and its tests run without a GPU. Included by the Makefile.
$(B)/tools/ptx-structure: grader/ptx_structure.c grader/ptx.c grader/ptx.h kit/json.c kit/json.h
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) grader/ptx_structure.c grader/ptx.c kit/json.c -lm -o $@
