#!/bin/sh
# timed.sh NAME COMMAND...: runs COMMAND, then says "NAME: N s" (make test's
# suites, so that its log shows where the time goes); COMMAND's exit status.
name=$1; shift
start=$(date +%s)
"$@"
status=$?
echo "$name: $(( $(date +%s) - start )) s"
exit $status
