# kit.mk — the kit's shared objects, built once per GPU arch into $(KIT).

KIT_CU := common/check.cu common/case.cu common/device.cu common/devbuf.cu common/bench.cu common/transpose_case.cu common/matmul_case.cu common/supersteps_case.cu
KIT_C := common/matrix.c common/guard.c common/stats.c common/json.c common/shapes.c common/csv.c
KIT_HEADERS := $(wildcard common/*.h grader/*.h)
KIT_OBJS := $(patsubst common/%,$(KIT)/%.o,$(KIT_CU) $(KIT_C))

$(KIT)/%.cu.o: common/%.cu $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) -c $< -o $@

$(KIT)/%.c.o: common/%.c $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) -c $< -o $@

$(KIT)/grader/%.cu.o: grader/%.cu $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) -c $< -o $@

$(KIT)/grader/%.c.o: grader/%.c $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) $(CRITERION_CFLAGS) -c $< -o $@

$(KIT)/libtilelab.a: $(KIT_OBJS)
	$(Q)rm -f $@
	@echo "  AR    $@"
	$(Q)ar rcs $@ $^

$(KIT)/probe: $(KIT)/grader/probe.cu.o $(KIT)/libtilelab.a
	@echo "  NVCC  $@"
	$(Q)$(NVCC) $(NVFLAGS) $^ -o $@

# Host-only: the score-and-report step needs no GPU and no nvcc.
$(B)/tools/report: grader/report.c grader/rubric.c grader/counters.c common/json.c common/csv.c common/shapes.c common/matrix.c $(KIT_HEADERS)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) grader/report.c grader/rubric.c grader/counters.c common/json.c common/csv.c common/shapes.c common/matrix.c -lm -o $@
