# plots.mk — `make plots` and `make handouts` (gnuplot, pandoc). Included by the Makefile.

# ---- charts ----------------------------------------------------------------
# Inputs: the bench CSV (`make bench`), the grader's history (one row per
# graded run) and the batch gradebook (`./grade --batch DIR`). Any of them
# may be given on the command line, e.g. `make plots BENCH=other.csv`.
BENCH ?= results/bench.csv
HISTORY ?= results/history.csv
GRADEBOOK ?= results/batch/gradebook.csv
PLOTS_OUT ?= results/plots
GNUPLOT ?= gnuplot

# One line per chart: its script plots/NAME.gp, the CSV it reads, and the
# command that produces that CSV (said when the CSV is missing).
CHARTS := bandwidth ladder matmul history class
bandwidth.input = $(BENCH)
bandwidth.from = make bench
ladder.input = $(BENCH)
ladder.from = make bench
matmul.input = $(BENCH)
matmul.from = make bench
history.input = $(HISTORY)
history.from = ./grade (every graded run adds a row)
class.input = $(GRADEBOOK)
class.from = ./grade --batch DIR

# A missing tool is one line and exit 2, checked when the goal is read: a
# failing recipe would add make's own "*** Error" line under it.
ifneq ($(filter plots plot-%,$(MAKECMDGOALS)),)
  ifeq ($(shell command -v '$(GNUPLOT)' 2>/dev/null),)
    $(error gnuplot is missing (GNUPLOT=$(GNUPLOT)): install it, e.g. 'apt-get install gnuplot-nox' on Debian/Ubuntu, then run 'make plots' again)
  endif
endif

.PHONY: plots $(addprefix plot-,$(CHARTS))
plots: $(addprefix plot-,$(CHARTS))

# Charts are always redrawn (a second or two): an input named on the command
# line may be older than the charts drawn from another one.
$(addprefix plot-,$(CHARTS)): plot-%: $(RUBRIC_TOOL)
	@mkdir -p '$(PLOTS_OUT)'
	@GNUPLOT='$(GNUPLOT)' sh plots/render.sh '$*' '$($*.input)' '$(PLOTS_OUT)' "$($*.from)"

# ---- handouts --------------------------------------------------------------
# handouts/*.md -> HTML (one file each, images embedded), and PDF when a
# LaTeX engine is installed. Images are found relative to handouts/.
HANDOUTS_OUT ?= results/handouts
PANDOC ?= pandoc
HANDOUTS := $(wildcard handouts/*.md)

ifneq ($(filter handouts,$(MAKECMDGOALS)),)
  ifeq ($(shell command -v '$(PANDOC)' 2>/dev/null),)
    $(error pandoc is missing (PANDOC=$(PANDOC)): install it, e.g. 'apt-get install pandoc' on Debian/Ubuntu, then run 'make handouts' again)
  endif
  # pandoc 2.19 renamed --self-contained to --embed-resources --standalone.
  PANDOC_EMBED := $(shell '$(PANDOC)' --help 2>/dev/null | grep -q -- '--embed-resources' && echo '--embed-resources --standalone' || echo --self-contained)
  LATEX_ENGINE := $(firstword $(foreach e,xelatex lualatex pdflatex,$(shell command -v $(e) 2>/dev/null)))
endif

pdf_done = and *.pdf ($(notdir $(LATEX_ENGINE)))
pdf_none = only: no LaTeX engine for PDF (xelatex, lualatex or pdflatex; e.g. apt-get install texlive-xetex texlive-fonts-recommended)

.PHONY: handouts
handouts: $(patsubst handouts/%.md,$(HANDOUTS_OUT)/%.html,$(HANDOUTS)) \
          $(if $(LATEX_ENGINE),$(patsubst handouts/%.md,$(HANDOUTS_OUT)/%.pdf,$(HANDOUTS)))
	@echo "handouts: $(HANDOUTS_OUT)/*.html $(if $(LATEX_ENGINE),$(pdf_done),$(pdf_none))"

$(HANDOUTS_OUT)/%.html: handouts/%.md
	@mkdir -p $(@D)
	$(PANDOC) $< --from gfm --to html5 $(PANDOC_EMBED) --resource-path=handouts \
	  --shift-heading-level-by=-1 --toc --toc-depth=2 -o $@

# For PDF, pandoc's own Markdown: its pipe tables wrap long cells (widths
# from the dashes under the header) where GFM's run off the page. The handouts
# are GFM: lists may follow a line of text, and dollar signs and backslashes
# are not LaTeX.
PDF_MARKDOWN := markdown+lists_without_preceding_blankline-tex_math_dollars-raw_tex

$(HANDOUTS_OUT)/%.pdf: handouts/%.md
	@mkdir -p $(@D)
	$(PANDOC) $< --from $(PDF_MARKDOWN) --standalone --resource-path=handouts \
	  --shift-heading-level-by=-1 --pdf-engine=$(LATEX_ENGINE) -V geometry:margin=2.2cm -o $@
