#!/bin/sh
# toolchain.sh PROBE... — what mk/toolchain.mk asks of this machine, every probe in this
# one shell (make's $(shell) would start a shell, and a head or sed, for each of them):
#   cuda       CUDA_HOME from the nvcc on PATH, else /usr/local/cuda
#   arch       ARCH: the first GPU's compute capability (nvidia-smi) as sm_XY, else sm_75
#   multiarch  MULTIARCH: gcc -print-multiarch, else x86_64-linux-gnu
#   criterion, seccomp  TL_PKG_<name> := yes and the pkg-config flags, when pkg-config has it
# Printed as make assignments, each ending in @@ (toolchain.mk turns those into newlines and evals them).
nl='
'
for probe; do
    case $probe in
    cuda)
        nvcc=$(command -v nvcc 2>/dev/null)
        case $nvcc in */bin/nvcc) printf 'CUDA_HOME := %s@@' "${nvcc%/bin/nvcc}" ;;
                      *) printf 'CUDA_HOME := %s@@' "${nvcc:-/usr/local/cuda}" ;; esac ;;
    arch)
        # The first line, when it reads " X.Y " (digits), as sm_XY: sed -n 's/^ *\([0-9]*\)\.\([0-9]*\) *$/sm_\1\2/p'.
        cap= arch=
        command -v nvidia-smi >/dev/null 2>&1 && cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null)
        cap=${cap%%"$nl"*}
        while :; do case $cap in " "*) cap=${cap# } ;; *) break ;; esac; done
        while :; do case $cap in *" ") cap=${cap% } ;; *) break ;; esac; done
        case $cap in
        *.*.*|*[!0-9.]*) ;;
        *.*) arch=sm_${cap%%.*}${cap#*.} ;;
        esac
        printf 'ARCH := %s@@' "${arch:-sm_75}" ;;
    multiarch)
        multiarch=$(gcc -print-multiarch 2>/dev/null) || multiarch=x86_64-linux-gnu
        printf 'MULTIARCH := %s@@' "$multiarch" ;;
    criterion|seccomp)
        pkg=$probe; [ "$probe" = seccomp ] && pkg=libseccomp
        if cflags=$(pkg-config --cflags "$pkg" 2>/dev/null) && libs=$(pkg-config --libs "$pkg"); then
            printf 'TL_PKG_%s := yes@@TL_PKG_%s_CFLAGS := %s@@TL_PKG_%s_LIBS := %s@@' "$probe" "$probe" "$cflags" "$probe" "$libs"
        fi ;;
    esac
done
