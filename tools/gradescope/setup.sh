#!/bin/bash
# setup.sh — Gradescope runs this once, as root, on its Ubuntu image, while it
# builds the autograder's image (make gradescope LAB=labN packs it).
# It installs what the kit builds with. It cannot install the GPU: grading
# needs an NVIDIA GPU and its driver on the machine that runs run_autograder.
set -eu
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# gcc and make (build-essential), pkg-config to find libseccomp, and the
# static libseccomp the sandbox links: stable names on every Ubuntu release.
apt-get install -y -qq build-essential make pkg-config libseccomp-dev

# The CUDA toolkit (nvcc, compute-sanitizer, ncu) must be in the image: the
# kit finds it through CUDA_HOME, then PATH, then /usr/local/cuda. Ubuntu's
# own nvidia-cuda-toolkit package is often older than the kit supports (it is
# tested with CUDA 13.0); install NVIDIA's from its repository
# (https://developer.nvidia.com/cuda-downloads: the "deb (network)" steps for
# this image's Ubuntu release), or use an image that has it.
if command -v nvcc >/dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
    echo "setup.sh: CUDA toolkit found: $(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")"
else
    echo "setup.sh: no CUDA toolkit (nvcc) in this image: every submission will get \"could not grade\" until one is" \
         "installed (see the comment in setup.sh and handouts/instructors.md, Gradescope)" >&2
fi

# The kit's own first build (the grader's report tool, libseccomp found),
# done now so that each submission does not pay for it.
cd "$(dirname "$0")/tilelab" 2>/dev/null || cd /autograder/source/tilelab
make -s --no-print-directory build/tools/report
