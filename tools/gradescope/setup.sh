#!/bin/bash
# setup.sh — Gradescope runs this once, as root, on its image, while it builds
# the autograder's image (make gradescope LAB=labN packs it). It installs what
# the kit builds with, from the packages of the image's own release (read in
# /etc/os-release), and builds the kit's parts that do not depend on a
# submission, so that each grade does not pay for them.
#
# CPU mode (mode=cpu in autograder.conf) grades without a GPU, but still
# compiles each submission with nvcc: the inspection (what the file calls,
# includes and runs) and the structure points read nvcc's object and PTX of
# the student's own file, which no prebuilt part can stand in for. So mode=cpu
# installs the CUDA compiler and runtime headers, pinned to the release the
# kit is tested with (CUDA_PIN below), from NVIDIA's repository for this
# image's release: its URL is made from os-release's ID and VERSION_ID
# (ubuntu2204, ubuntu2404, debian12, ...), and the package names carry the
# CUDA version only, the same on every release. Nothing else of CUDA is
# needed: no driver, no sanitizers, no ncu.
# mode=local needs a GPU and its driver on the machine that runs the
# autograder, which Gradescope does not provide; then install the whole
# toolkit (cuda-toolkit-13-0) from the same repository, or use an image that
# has it.
# TILELAB_OS_RELEASE names another os-release file (the kit's tests).
set -eu
export DEBIAN_FRONTEND=noninteractive
here=$(cd "$(dirname "$0")" && pwd)
CUDA_PIN=13-0   # the kit is tested with CUDA 13.0 (README: Requirements); packages say 13-0
cuda_version=$(printf '%s' "$CUDA_PIN" | tr - .)

say() { echo "setup.sh: $*"; }
fail() { echo "setup.sh: $*" >&2; exit 1; }

conf() {   # NAME: its value in autograder.conf (the last such line)
    sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*//p" "$here/autograder.conf" 2>/dev/null |
        tail -n 1 | sed 's/[[:space:]]*$//'
}
mode=$(conf mode)
lab=$(conf lab)

# ---- the image's release ------------------------------------------------------
os_release=${TILELAB_OS_RELEASE:-/etc/os-release}
[ -r "$os_release" ] || fail "cannot read $os_release: which Linux this image runs is not known; the autograder needs an apt-based one (Ubuntu, Debian)"
os_field() { sed -n "s/^$1=//p" "$os_release" | head -n 1 | tr -d "\"'"; }
id=$(os_field ID) version_id=$(os_field VERSION_ID) id_like=$(os_field ID_LIKE)
name=$(os_field PRETTY_NAME)
[ -n "$name" ] || name="$(os_field NAME) $version_id"
[ "$name" != " $version_id" ] || name="$id $version_id"
case " $id $id_like " in
*" ubuntu "*|*" debian "*) ;;
*) fail "this image runs $name (os-release ID=$id); the autograder's setup installs with apt on Ubuntu or Debian only: install gcc, g++, make, pkg-config, libseccomp-dev and the CUDA compiler $cuda_version yourself (handouts/instructors.md, Gradescope)" ;;
esac
command -v apt-get >/dev/null 2>&1 || fail "this image runs $name but has no apt-get"
say "image: $name"

# apt-get failed (its own lines above): WHAT, and the one sentence on why.
apt_fail() {   # WHAT EXIT
    fail "apt-get $1 failed (exit $2; apt's lines above): setup.sh installs packages as root from the image's package archive, which needs the network (Gradescope's image build has both); on an image without them, preinstall ${3:-them}"
}

# gcc, g++ and make (build-essential), pkg-config to find libseccomp, the
# static libseccomp the sandbox links, and curl to fetch NVIDIA's keyring:
# names every Ubuntu and Debian release has. Only what is missing is fetched:
# an image that has them all (a rebuilt or custom one) needs no network here.
packages="build-essential make pkg-config libseccomp-dev ca-certificates curl"
missing=
for p in $packages; do
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] || missing="$missing $p"
done
if [ -n "$missing" ]; then
    apt-get update -qq || apt_fail update $? "$packages"
    apt-get install -y -qq $packages || apt_fail install $? "$packages"
else
    say "already installed: $packages"
fi

# ---- the CUDA compiler ---------------------------------------------------------
cuda_home=${CUDA_HOME:-/usr/local/cuda}
if command -v nvcc >/dev/null 2>&1 || [ -x "$cuda_home/bin/nvcc" ]; then
    say "CUDA compiler found: $(command -v nvcc || echo "$cuda_home/bin/nvcc")"
elif [ "$mode" = cpu ]; then
    # CPU mode runs CUDA threads as x86-64 fibers (cpu/switch_x86_64.S).
    [ "$(uname -m)" = x86_64 ] || fail "this image's processor is $(uname -m); CPU mode needs x86-64 Linux"
    arch=x86_64
    repo=$id$(printf '%s' "$version_id" | tr -d .)
    case " $id " in *" ubuntu "*|*" debian "*) ;; *)   # a derivative: NVIDIA publishes for its parent only
        fail "this image runs $name, a derivative of $id_like; NVIDIA's CUDA repository has no $repo: install the CUDA compiler $cuda_version (cuda-nvcc-$CUDA_PIN, cuda-cudart-dev-$CUDA_PIN, cuda-driver-dev-$CUDA_PIN, cuda-profiler-api-$CUDA_PIN) from the repository of the release it derives from" ;;
    esac
    url=https://developer.download.nvidia.com/compute/cuda/repos/$repo/$arch
    keyring_dir=$(mktemp -d)
    trap 'rm -rf "$keyring_dir"' EXIT
    say "CUDA compiler $cuda_version for CPU mode, from $url"
    # nvcc; the runtime's headers and library; cuda.h (the kit's worker includes it); and
    # cuda_profiler_api.h (grader/worker.cu and kit/case.cu include it), which is in none of
    # those three (mk/kit.mk, CUDA_KIT_HEADERS: the same list, checked before the kit builds).
    cuda_stems="cuda-nvcc cuda-cudart-dev cuda-driver-dev cuda-profiler-api"
    cuda_packages=
    for stem in $cuda_stems; do cuda_packages="$cuda_packages${cuda_packages:+ }$stem-$CUDA_PIN"; done
    # curl's exit 22 is an HTTP error (no such release folder there); any
    # other is the network (no route, no name, a timeout), not the release.
    status=0
    curl -fsSL --connect-timeout 30 "$url/cuda-keyring_1.1-1_all.deb" -o "$keyring_dir/cuda-keyring.deb" || status=$?
    case $status in
    0) ;;
    22) fail "NVIDIA's CUDA repository has no packages for $name ($url): CUDA $cuda_version supports other releases; use a Gradescope base image of one (Ubuntu 22.04 or 24.04), or install the CUDA compiler $cuda_version yourself" ;;
    *) fail "could not reach NVIDIA's CUDA repository ($url; curl exit $status): the image needs the network while it is built, or preinstall the CUDA compiler $cuda_version ($cuda_packages) in /usr/local/cuda" ;;
    esac
    dpkg -i "$keyring_dir/cuda-keyring.deb" || fail "dpkg could not install NVIDIA's keyring (exit $?; its lines above): setup.sh runs as root"
    apt-get update -qq || apt_fail update $? "$cuda_packages"
    # Each package looked up by its name in the repository (STEM-X-Y, CUDA X.Y): one the
    # repository lacks for this release is named here, with what it has, not in apt's error.
    cuda_packages=
    for stem in $cuda_stems; do
        found=$(apt-cache pkgnames "$stem-" 2>/dev/null | grep -x -- "$stem-$CUDA_PIN" | head -n 1)
        [ -n "$found" ] || fail "NVIDIA's CUDA repository for $name has no $stem-$CUDA_PIN (it has: $(apt-cache pkgnames "$stem-" 2>/dev/null | sort | tr '\n' ' ')): the kit needs CUDA $cuda_version's $stem; install it yourself, or use a release NVIDIA publishes it for (Ubuntu 22.04 or 24.04)"
        cuda_packages="$cuda_packages${cuda_packages:+ }$found"
    done
    apt-get install -y -qq --no-install-recommends $cuda_packages || apt_fail install $? "$cuda_packages"
    # The packages install /usr/local/cuda-13.0; the kit looks in /usr/local/cuda.
    installed=/usr/local/cuda-$cuda_version
    [ -x "$cuda_home/bin/nvcc" ] || [ ! -x "$installed/bin/nvcc" ] || ln -sfn "$installed" "$cuda_home"
    [ -x "$cuda_home/bin/nvcc" ] || fail "the CUDA packages installed no $cuda_home/bin/nvcc"
else
    say "no CUDA toolkit (nvcc) in this image, and mode=${mode:-local} needs one and a GPU: every submission will get \"could not grade\" until they are there (handouts/instructors.md, Gradescope). Without a GPU, set mode=cpu in autograder.conf."
fi

# ---- the kit's own first build ---------------------------------------------------
# The grader's report tool (gcc alone); with mode=cpu also what ./grade --cpu
# builds before its first grade (the tools, the worker's link, CPU mode's
# runtime), from the lab's own file: minutes here, not in each grade.
# A failed build would end the image's build in make's own lines: one
# sentence after them says what did not build and what that means.
cd "$here/tilelab" 2>/dev/null || cd /autograder/source/tilelab ||
    fail "the autograder has no kit (no tilelab/ beside setup.sh): rebuild it with make gradescope LAB=labN"
build_fail() {   # WHAT EXIT
    fail "the kit's $1 did not build (make exit $2; its lines above): every submission would get \"could not grade\"; check gcc, g++ and the CUDA compiler, or rebuild the zip with make gradescope"
}
make -s --no-print-directory build/tools/report || build_fail "report tool" $?
if [ "$mode" = cpu ] && [ -n "$lab" ]; then
    make -s --no-print-directory build/tools/rubric build/tools/inspect build/tools/ptx-structure ||
        build_fail "tools (rubric, inspector)" $?
    make -s --no-print-directory -f mk/submission.mk LAB="$lab" SRC="$(ls labs/"$lab"-*/*.cu 2>/dev/null | head -n 1)" \
        need-seccomp link-symbols cpu-kit || build_fail "CPU mode for $lab" $?
    say "CPU mode is ready for $lab"
fi
