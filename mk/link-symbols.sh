#!/bin/sh
# link-symbols.sh TRACE CUDA_HOME — every name the lab worker's program
# defines or imports, one "NAME WHERE" line each (WHERE: the file's name),
# for grader/inspect.c --link-symbols. TRACE is the linker's --trace of the
# lab worker's link: its objects, archives and shared libraries (a linker
# script such as libc.so is not an object: nm skips it). The CUDA driver,
# which the runtime loads when it starts, is read from the toolkit's stub.
trace=$1 cuda_home=$2
export LC_ALL=C
{
    sed -e 's/^[^ ]*: //' -e 's/^(\(.*\))\(.*\)$/\1/' -e 's/(\([^)]*\))$//' "$trace"
    for stub in "$cuda_home"/lib64/stubs/libcuda.so "$cuda_home"/targets/*/lib/stubs/libcuda.so; do
        [ -f "$stub" ] && { echo "$stub"; break; }
    done
} | sort -u | while IFS= read -r file; do
    [ -f "$file" ] || continue
    case $file in
    *.so|*.so.*) nm -D "$file" 2>/dev/null ;;
    *) nm -g "$file" 2>/dev/null ;;
    esac | awk -v where="${file##*/}" 'NF >= 2 && $(NF - 1) ~ /^[A-Za-z]$/ { name = $NF; sub(/@.*/, "", name); if (name != "") print name, where }'
done | LC_ALL=C sort -u | awk '$1 != last { print; last = $1 }'
