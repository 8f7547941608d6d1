# batch.mk — the batch grader's tools (gradebook). Included by the Makefile.
