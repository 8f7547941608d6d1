# toolchain.mk — compilers, flags and where things are built. Included by the
# Makefile and by mk/submission.mk; exported so sub-makes agree.

# What is looked up on this machine (nvcc, the GPU, gcc's multiarch, pkg-config), all in one
# shell (mk/toolchain.sh), and only what neither the command line nor the environment names:
# ./grade exports what its first make found (make toolchain-env), so its later makes run none.
TOOLCHAIN_SH := $(dir $(lastword $(MAKEFILE_LIST)))toolchain.sh
define tl_newline


endef
TOOLCHAIN_PROBES := $(strip $(if $(filter undefined,$(origin CUDA_HOME)),cuda) \
  $(if $(filter undefined,$(origin ARCH)),arch) $(if $(filter undefined,$(origin MULTIARCH)),multiarch) \
  $(if $(filter undefined,$(origin CRITERION_LIBS)),criterion) $(if $(filter undefined,$(origin SECCOMP_LIBS)),seccomp))
ifneq ($(TOOLCHAIN_PROBES),)
  $(eval $(subst @@,$(tl_newline),$(shell sh '$(TOOLCHAIN_SH)' $(TOOLCHAIN_PROBES))))
endif

# nvcc: from CUDA_HOME, else PATH, else the toolkit's default location.
NVCC := $(CUDA_HOME)/bin/nvcc

# Target GPU: the visible GPU's compute capability (nvidia-smi), else sm_75,
# the oldest CUDA 13 supports; its embedded PTX is JIT-compiled on any newer
# GPU. `make ARCH=sm_86` overrides. Results (speed) depend on this flag.

# Criterion and libseccomp (the worker's sandbox, kit/sandbox.c, linked
# statically): pkg-config first, else a private copy in .deps/ that
# need-criterion / need-seccomp fetch on first use (mk/deps.sh), so the
# flags name .deps/ even before it exists.
# Relative (every build runs in the kit's folder), so a kit under a folder
# with a space in its name still builds its labs; only Criterion's rpath,
# read at run time from anywhere, is absolute.
DEPS := .deps
DEPS_LIB := $(DEPS)/usr/lib/$(MULTIARCH)
ifeq ($(origin CRITERION_LIBS),undefined)
  ifneq ($(TL_PKG_criterion),)
    CRITERION_CFLAGS := $(TL_PKG_criterion_CFLAGS)
    CRITERION_LIBS := $(TL_PKG_criterion_LIBS)
  else
    # The rpath (not a RUNPATH) also reaches libcriterion's own dependencies, which
    # mk/deps.sh carries too; a release that has not merged /usr keeps some in /lib.
    CRITERION_CFLAGS := -I$(DEPS)/usr/include
    CRITERION_LIBS := -L$(DEPS_LIB) -lcriterion -Xlinker --disable-new-dtags -Xlinker -rpath=$(CURDIR)/$(DEPS_LIB) \
      -Xlinker -rpath=$(CURDIR)/$(DEPS)/lib/$(MULTIARCH)
  endif
endif
ifeq ($(origin SECCOMP_LIBS),undefined)
  ifneq ($(TL_PKG_seccomp),)
    SECCOMP_CFLAGS := $(TL_PKG_seccomp_CFLAGS)
    SECCOMP_LIBS := $(TL_PKG_seccomp_LIBS)
  else
    SECCOMP_CFLAGS := -I$(DEPS)/usr/include
    SECCOMP_LIBS := $(DEPS_LIB)/libseccomp.a
  endif
endif
# The libraries whose flags name .deps/ where nothing is unpacked yet.
DEPS_MISSING := $(if $(findstring $(DEPS)/,$(CRITERION_CFLAGS)),$(if $(wildcard $(DEPS)/usr/include/criterion/criterion.h),,criterion)) \
                $(if $(findstring $(DEPS)/,$(SECCOMP_CFLAGS)),$(if $(wildcard $(DEPS)/usr/include/seccomp.h),,seccomp))
TOOLCHAIN_VARS := CUDA_HOME ARCH MULTIARCH CRITERION_CFLAGS CRITERION_LIBS SECCOMP_CFLAGS SECCOMP_LIBS
export $(TOOLCHAIN_VARS)

# V=1 shows the full compiler commands.
Q := $(if $(filter 1,$(V)),,@)

B := build
KIT := $(B)/$(ARCH)/kit

# The kit's source folders: the library, the judge, one folder per kind of lab.
KIND_DIRS := $(sort $(patsubst %/,%,$(wildcard kinds/*/)))
KIT_INCLUDES := -Ikit -Igrader $(addprefix -I,$(KIND_DIRS))
# The launch functions, one table: kit/launches.h reads each kind's descriptor (kind.def).
LAUNCH_TABLE := kit/launches.h kinds/kinds.def $(wildcard kinds/*/kind.def)

# -lineinfo: sanitizer reports name student lines. -O3: timings are graded.
NVFLAGS := -arch=$(ARCH) -O3 -lineinfo -std=c++17 $(KIT_INCLUDES) \
           -Xcompiler -Wall,-Wextra -Wno-deprecated-gpu-targets
CFLAGS := -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L $(KIT_INCLUDES) -I$(CUDA_HOME)/include

# One clear line, and exit 2, when a tool the build needs is missing.
.PHONY: need-nvcc need-criterion need-seccomp
need-nvcc:
	@[ -x "$(NVCC)" ] || { echo "nvcc not found (looked in CUDA_HOME=$(CUDA_HOME)): install the CUDA toolkit, or set CUDA_HOME or PATH to it." >&2; exit 2; }
# `make toolchain-env`: what was found above, as shell exports. ./grade evals them once (its first
# make prints them), so the makes it runs later look nothing up again (no pkg-config, gcc or
# nvidia-smi). Printed by make itself ($(info)): no shell started.
.PHONY: toolchain-env
toolchain-env:
	@:$(strip $(foreach v,$(TOOLCHAIN_VARS),$(info export $(v)='$(subst ','\'',$($(v)))')))
# need-criterion, need-seccomp: fetched into .deps/ on first use when
# pkg-config has none (mk/deps.sh: one line saying so; a failure, one
# sentence and exit 2). The Makefile fetches them before any rule runs for
# its entry points, where a failure must not end in make's own error lines.
need-criterion need-seccomp: need-%:
	@$(if $(filter $*,$(DEPS_MISSING)),sh mk/deps.sh $(DEPS) $*,:)
