# plots.mk — `make plots` and `make handouts` (gnuplot, pandoc). Included by the Makefile.
