# dist.mk — `make dist-student`, `make dist-instructor` and `make gradescope LAB=labN`. Included by the Makefile.
# Each writes results/dist/tilelab-<kind>.tar.gz, which unpacks into one folder,
# tilelab-<kind>/. Only tracked files ship (git ls-files, as they are in the
# working tree), so untracked junk never does; outside a git checkout, every
# file but build outputs, results and .deps/.

DIST := results/dist
# What students get: the lab files, the harness and grader `make labN` and
# ./grade need, handouts, charts. Never solutions/, nor tests/ (its
# submissions are near-solutions), nor the hidden tests' source, nor the
# instructors' handout. A trailing / keeps a whole folder.
DIST_STUDENT := labs/ kit/ kinds/ mk/ cpu/ grader/ tools/ handouts/ plots/ Makefile grade README.md VERSION .gitignore
# The hidden tests ship as host objects (x86-64, built here with the kit's
# own flags), not as source: grader/prebuilt/KIND_tests.o, which
# mk/kit.mk links where kinds/KIND/KIND_tests.c is absent.
HIDDEN_TEST_SRC := $(wildcard kinds/*/*_tests.c)
DIST_STUDENT_DROP := handouts/instructors.md $(HIDDEN_TEST_SRC)
# Lab 5 part 3 is timed against lab 4's reference: it ships compiled too
# (grader/prebuilt/lab4-reference.o; grade finds it through lab 5's
# baseline_dirs), for every architecture CUDA 13 supports (SASS up to
# sm_90, PTX beyond), so a student kit's maximum is 100 as an instructor's.
PREBUILT_ARCHS := -gencode arch=compute_75,code=[sm_75,compute_75] -gencode arch=compute_80,code=sm_80 \
  -gencode arch=compute_86,code=sm_86 -gencode arch=compute_89,code=sm_89 -gencode arch=compute_90,code=[sm_90,compute_90]
dist_extra_student = mkdir -p "$$stage/grader/prebuilt" && \
	for f in $(HIDDEN_TEST_SRC); do \
	  o=$$(basename "$$f" .c).o; gcc $(CFLAGS) -c "$$f" -o "$$stage/grader/prebuilt/$$o" || exit 1; \
	done && \
	$(NVCC) $(filter-out -arch=%,$(NVFLAGS)) $(PREBUILT_ARCHS) -c $(wildcard solutions/lab4-*/*.cu) \
	  -o "$$stage/grader/prebuilt/lab4-reference.o"
dist_extra_instructor = :

dist_files = if [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$$(pwd -P)" ]; then \
	  git -c core.quotePath=false ls-files; \
	else \
	  find . -type f ! -path './.git/*' ! -path './$(B)/*' ! -path './results/*' ! -path './.deps/*' | sed 's|^\./||'; \
	fi
dist_filter_student = awk -v keep='$(DIST_STUDENT)' -v drop='$(DIST_STUDENT_DROP)' ' \
	BEGIN { nk = split(keep, k, " "); nd = split(drop, d, " ") } \
	{ for (i = 1; i <= nd; i++) if ($$0 == d[i]) next; \
	  for (i = 1; i <= nk; i++) \
	    if (substr(k[i], length(k[i])) == "/" ? index($$0, k[i]) == 1 : $$0 == k[i]) { print; next } }'
dist_filter_instructor = cat

# $(call dist_stage,KIND): copies KIND's file set (and its prebuilt objects)
# into the folder "$$stage", which the caller names. The tarballs and the
# Gradescope zip (below) share it: the student kit is one list, staged one way.
dist_stage = { $(dist_files); } | $(dist_filter_$(1)) | while IFS= read -r f; do \
	  [ -f "$$f" ] || continue; \
	  mkdir -p "$$stage/$$(dirname "$$f")" && cp -p "$$f" "$$stage/$$f" || exit 1; \
	done && { $(dist_extra_$(1)); }

.PHONY: dist-student dist-instructor gradescope
# Staged in a folder of this run's own and renamed into place whole: two runs
# at once, or one stopped half-way, never leave a mixed tarball.
dist-student dist-instructor: dist-%:
	@work=$(B)/dist/$*.$$$$; stage=$$work/tilelab-$*; rm -rf "$$work" && mkdir -p "$$stage" $(DIST) && \
	$(call dist_stage,$*) && \
	tar -cf - -C "$$work" tilelab-$* | gzip -9 > "$$work.tar.gz" && \
	mv -f "$$work.tar.gz" $(DIST)/tilelab-$*.tar.gz && \
	echo "$(DIST)/tilelab-$*.tar.gz: $$(find "$$stage" -type f | wc -l | tr -d ' ') files, unpacks into tilelab-$*/"; \
	status=$$?; rm -rf "$$work" "$$work.tar.gz"; exit $$status

# `make gradescope LAB=labN`: results/dist/tilelab-gradescope-labN.zip, an
# autograder for Gradescope. At the zip's root: setup.sh and run_autograder
# (tools/gradescope/), autograder.conf (the lab and the mode), not_graded.sh
# (grader/'s "could not grade" writer, which run_autograder uses even where
# the kit is missing), and tilelab/,
# the student kit as dist-student stages it (hidden tests compiled). Gradescope
# unpacks it into /autograder/source; handouts/instructors.md walks through it.
GRADESCOPE_DIR := tools/gradescope
# Looked for only when `make gradescope` runs (=, not :=): every other make skips three lookups.
ZIP_TOOL = $(firstword $(foreach t,zip bsdtar 7z,$(if $(shell command -v $(t) 2>/dev/null),$(t))))
zip_cmd.zip = zip -q -r -X
zip_cmd.bsdtar = bsdtar --format zip -cf
zip_cmd.7z = 7z a -tzip -bd >/dev/null
gradescope:
	@case " $(LABS) " in *" $(LAB) "*) ;; *) echo "make gradescope: name a lab: make gradescope LAB=labN (labs: $(LABS))" >&2; exit 2 ;; esac
	@[ -n "$(ZIP_TOOL)" ] || { echo "make gradescope: no zip tool found (zip, bsdtar or 7z); install one: sudo apt-get install zip" >&2; exit 2; }
	@work=$$(pwd)/$(B)/dist/gradescope-$(LAB).$$$$; root=$$work/zip; stage=$$root/tilelab; \
	rm -rf "$$work" && mkdir -p "$$stage" $(DIST) && \
	$(call dist_stage,student) && \
	cp $(GRADESCOPE_DIR)/setup.sh $(GRADESCOPE_DIR)/run_autograder grader/not_graded.sh "$$root/" && chmod 755 "$$root/setup.sh" "$$root/run_autograder" && \
	sed 's/^lab=.*/lab=$(LAB)/' $(GRADESCOPE_DIR)/autograder.conf > "$$root/autograder.conf" && \
	(cd "$$root" && $(zip_cmd.$(ZIP_TOOL)) "$$work.zip" setup.sh run_autograder autograder.conf not_graded.sh tilelab) && \
	mv -f "$$work.zip" $(DIST)/tilelab-gradescope-$(LAB).zip && \
	echo "$(DIST)/tilelab-gradescope-$(LAB).zip: setup.sh, run_autograder, autograder.conf (lab=$(LAB), mode=local; mode=cpu grades without a GPU), not_graded.sh and the student kit in tilelab/ ($$(find "$$stage" -type f | wc -l | tr -d ' ') files); upload it as the assignment's autograder"; \
	status=$$?; rm -rf "$$work" "$$work.zip"; exit $$status
