# inspect.mk — build/tools/inspect, the static checks of a lab file
# (grader/inspect.c: allowed calls, no code before or after main, no library
# kernels, no includes but the public headers). Included by the Makefile;
# `make -f mk/inspect.mk build/tools/inspect` also works on its own.

# On its own, it needs the toolchain's B and CFLAGS; the Makefile has them already.
ifeq ($(origin B),undefined)
  include mk/toolchain.mk
endif

# Host-only, like the report tool: it reads the object, the PTX and the
# dependency file nvcc wrote, so it runs in CI without a GPU. libstdc++
# demangles the C++ names it quotes.
$(B)/tools/inspect: grader/inspect.c grader/paths.c grader/paths.h $(LAUNCH_TABLE)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) grader/inspect.c grader/paths.c -lstdc++ -o $@
