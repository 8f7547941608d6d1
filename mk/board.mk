# board.mk — build/tools/board, the class board (./grade --board, make board;
# tools/board/). Included by the Makefile; `make -f mk/board.mk
# build/tools/board` also works on its own.
ifeq ($(origin B),undefined)
  include mk/toolchain.mk
endif

# Host C only, like the gradebook: reads results.json, ncu's counters and the
# gradebook CSV, writes HTML, CSV and JSON.
BOARD_SRC := tools/board/board.c tools/board/names.c tools/board/page.c tools/board/rerun.c tools/board/voids.c
$(B)/tools/board: $(BOARD_SRC) tools/board/board.h tools/board/voids.h kit/json.c kit/json.h kit/csv.c kit/csv.h grader/counters.c grader/counters.h
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)gcc $(CFLAGS) $(BOARD_SRC) kit/json.c kit/csv.c grader/counters.c -lm -o $@

# make board GRADEBOOK_DIR=DIR: the boards of a graded class (default results/batch, the batch's default).
GRADEBOOK_DIR ?= results/batch
.PHONY: board
board:
	@sh tools/board/board $(GRADEBOOK_DIR)
