#!/bin/sh
# deps.sh — Criterion and libseccomp without root: their Debian/Ubuntu
# packages fetched with apt-get download and unpacked with dpkg -x into DEPS
# (.deps/), where mk/toolchain.mk finds them. The one place the kit fetches
# them: `make deps`, and need-criterion / need-seccomp on first use.
#
#   sh mk/deps.sh [--announce | --quiet | --carry] DEPS LIB...     LIB: criterion, seccomp
#
# A LIB already there (pkg-config, or its header in DEPS) is left alone; with
# nothing to fetch it prints nothing. Otherwise one line on stdout says what is
# fetched and where (--announce: only that line; --quiet: not that line). The
# package names are resolved for the running release (apt-cache depends), never
# hard-coded beyond the -dev package. Exit 0 when every LIB is there; else one
# sentence on stderr, what to install and the command for it, and exit 2.
#
# What is fetched: the LIB's -dev package and the closure of the libraries it
# needs at run time, installed here or not, all but the base every Debian and
# Ubuntu system has; so the kit, with its .deps/, runs its suites on another
# Debian or Ubuntu machine that reaches no package archive (README). --carry
# (make deps-carry) fetches every LIB whatever is there: such a kit made here.
set -u

mode=
case ${1:-} in --announce|--quiet|--carry) mode=$1; shift ;; esac
[ $# -ge 2 ] || { echo "usage: sh mk/deps.sh [--announce|--quiet|--carry] DEPS criterion|seccomp..." >&2; exit 2; }
deps=$1; shift

# name, what it is for, its -dev package, pkg-config name, header, oldest version
lib_facts() {
    case $1 in
    criterion) echo "Criterion|the test library|libcriterion-dev|criterion|criterion/criterion.h|2.4" ;;
    seccomp)   echo "libseccomp|the sandbox student code runs in|libseccomp-dev|libseccomp|seccomp.h|" ;;
    *) echo "deps.sh: unknown library '$1' (criterion, seccomp)" >&2; exit 2 ;;
    esac
}
fact() { lib_facts "$1" | cut -d'|' -f"$2"; }

for lib; do lib_facts "$lib" >/dev/null; done   # an unknown LIB ends the script here
missing=
for lib; do   # --carry: fetched again, over what an older kit's .deps/ may hold without the closure
    if [ "$mode" != --carry ]; then
        pkg-config --exists "$(fact "$lib" 4)" 2>/dev/null && continue
        [ -r "$deps/usr/include/$(fact "$lib" 5)" ] && continue
    fi
    missing="$missing $lib"
done
[ -n "$missing" ] || exit 0

names= pkgs= n=0
for lib in $missing; do
    n=$((n + 1))
    names="${names:+$names and }$(fact "$lib" 1) ($(fact "$lib" 2))"
    pkgs="${pkgs:+$pkgs }$(fact "$lib" 3)"
done
[ $n = 1 ] && it="it" is="is" || { it="them"; is="are"; }

if [ "$mode" = --carry ]; then
    echo "$names: fetching $it with apt-get download into $deps, and every library $([ $n = 1 ] && echo it needs || echo they need) beyond the base system (a kit to carry to another machine)"
elif [ "$mode" != --quiet ]; then
    echo "$names $is not installed: fetching $it once with apt-get download into $deps (no root needed)"
fi
[ "$mode" = --announce ] && exit 0

# The one sentence a failure gets: why, then what to install and how.
fail() {   # REASON FIX
    echo "$names $is missing and could not be fetched ($1): $2" >&2
    exit 2
}
command -v apt-get >/dev/null && command -v apt-cache >/dev/null && command -v dpkg >/dev/null ||
    fail "this system has no apt-get" \
         "install $it with your package manager, then check with 'pkg-config --exists $(for lib in $missing; do fact "$lib" 4; done | paste -sd' ' -)'."
apt_fix="install $it with 'sudo apt-get install $pkgs', or run 'make deps' again once apt-get can download"

for lib in $missing; do
    pkg=$(fact "$lib" 3) oldest=$(fact "$lib" 6)
    candidate=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
    case $candidate in
    ''|'(none)') fail "apt knows no package $pkg: its package lists are empty or this release lacks it" \
                      "run 'sudo apt-get update', then 'sudo apt-get install $pkgs'." ;;
    esac
    if [ -n "$oldest" ] && ! dpkg --compare-versions "$candidate" ge "$oldest"; then
        fail "this release offers $(fact "$lib" 1) $candidate, the kit needs $oldest or newer" \
             "install $(fact "$lib" 1) $oldest or newer from its project's releases, or use a newer release."
    fi
done

# The -dev packages and the libraries they need at run time: Depends followed
# through lib* packages (other -dev packages, tools and virtual packages are not
# needed to link against the kit's copy), whether installed here or not: Debian
# 12's libgit2, which its Criterion needs, needs libssh2, which an Ubuntu 24.04
# GPU host lacks. Left out: the base, the Essential packages installed here and
# all they depend on (libc6, libgcc-s1, zlib1g, ...), which every Debian and
# Ubuntu system has; the C library must be the machine's own.
depends() {   # PACKAGE...: what apt says they depend on (one level; --recurse and --installed may come first)
    apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances "$@" 2>/dev/null
}
# shellcheck disable=SC2046  # the Essential packages: names, one word each
base=" $(depends --recurse --installed $(dpkg-query -W -f='${Package} ${Essential}\n' 2>/dev/null | awk '$2 == "yes" { print $1 }') |
         awk '/^[a-z0-9]/ { name = $1 } /^ *\|?(Pre)?Depends: [^<]/ { name = $2 } name { sub(/:.*/, "", name); print name; name = "" }' |
         sort -u | tr '\n' ' ') "
fetch= todo=$pkgs
while [ -n "$todo" ]; do
    fetch="$fetch $todo"
    next=
    for p in $(depends $todo | awk '/^ *\|?(Pre)?Depends: [^<]/ { sub(/:.*/, "", $2); if ($2 ~ /^lib/ && $2 !~ /-dev$/) print $2 }' | sort -u); do
        case " $fetch $next " in *" $p "*) continue ;; esac
        case $base in *" $p "*) continue ;; esac
        next="$next $p"
    done
    todo=$next
done

# Downloaded and unpacked beside DEPS first, then copied in: an interrupted
# fetch never leaves a header without its libraries.
mkdir -p "$deps" || fail "cannot create $deps" "$apt_fix."
tmp=$(mktemp -d "$deps/.fetch.XXXXXX") || fail "cannot write in $deps" "$apt_fix."
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP
mkdir "$tmp/debs" "$tmp/root"
# shellcheck disable=SC2086  # $fetch: package names, one word each
if ! (cd "$tmp/debs" && apt-get download $fetch) >"$tmp/apt.log" 2>&1; then
    why=$(grep '^E:' "$tmp/apt.log" | head -n1 | sed 's/^E: *//; s/^Failed to fetch [^ ]*  *//; s/[.[:space:]]*$//')
    fail "apt-get download failed: ${why:-see 'apt-get download $pkgs'}" "$apt_fix."
fi
for f in "$tmp"/debs/*.deb; do
    dpkg -x "$f" "$tmp/root" 2>>"$tmp/apt.log" || fail "dpkg -x could not unpack ${f##*/}" "$apt_fix."
done
cp -RP "$tmp/root/." "$deps/" || fail "cannot copy into $deps" "$apt_fix."
for lib in $missing; do
    [ -r "$deps/usr/include/$(fact "$lib" 5)" ] ||
        fail "$(fact "$lib" 3) held no $(fact "$lib" 5)" "$apt_fix."
done
