# dist.mk — `make dist-student` and `make dist-instructor`. Included by the Makefile.
