/*
 * Setup on first use (mk/deps.sh, need-* in mk/toolchain.mk, the
 * Makefile's entry points): with no Criterion or libseccomp anywhere (DEPS
 * an empty temporary folder, pkg-config pointed at nothing), the build fetches
 * them itself, saying so in one line, and a second build fetches nothing; when
 * the fetch fails, `make lab1` and `make test` print one sentence naming what
 * to install, and none of make's own error lines.
 *
 * No network: apt-get and apt-cache are fakes on PATH that serve .deb files
 * built here with dpkg-deb (a header, a runtime library the -dev package
 * depends on and one that library depends on, both to be followed, as Debian's
 * libgit2 needs libssh2), or fail as an offline machine does. Every package
 * but those depends on libc6: the base, which is never fetched.
 * dpkg -x and dpkg-query are the real ones. Each test works in its own
 * temporary folder, removed when it passes and kept, named, when it fails.
 */
#include <criterion/criterion.h>
#include "tool.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char deps_dir[256];      /* this test's temporary folder */

/* A file of the test's folder, whole (empty when missing). */
static const char *deps_read(const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", deps_dir, file);
    return tool_read(path, NULL);
}

static int deps_exists(const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", deps_dir, file);
    return access(path, F_OK) == 0;
}

/* One fake package: PACKAGE, then the file it holds (under usr/). */
static void deps_package(const char *package, const char *file)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && mkdir -p pkg/%s/DEBIAN pkg/%s/usr/$(dirname %s) && echo fake > pkg/%s/usr/%s && "
             "printf 'Package: %s\\nVersion: 2.4.1-2\\nArchitecture: all\\nMaintainer: tilelab <t@l>\\n"
             "Description: fake\\n' > pkg/%s/DEBIAN/control && "
             "dpkg-deb --build pkg/%s debs/%s.deb > /dev/null",
             deps_dir, package, package, file, package, file, package, package, package, package);
    cr_assert_eq(tool_sh(cmd), 0, "cannot build the fake package %s in %s", package, deps_dir);
}

/* The temporary folder with the fake packages, and the fake apt-get and
 * apt-cache in bin/. The -dev packages depend on a runtime library (to be
 * fetched), libc6 (installed: not fetched), pkg-config (a tool) and a
 * virtual package (neither fetched). `offline` in the folder makes apt-get
 * download fail as without a network. */
static void deps_setup(void)
{
    if (tool_sh("command -v dpkg-deb > /dev/null && command -v dpkg-query > /dev/null") != 0)
        cr_skip_test("no dpkg-deb or dpkg-query here (not Debian or Ubuntu): nothing to fetch with");
    const char *tmp = getenv("TMPDIR");
    snprintf(deps_dir, sizeof deps_dir, "%.200s/tilelab-deps-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    cr_assert(mkdtemp(deps_dir), "cannot make a temporary folder %s", deps_dir);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && mkdir bin debs pkg pkgconfig && "
             "printf '%%s\\n' '#!/bin/sh' 'here=$(dirname \"$0\")/..' 'echo \"$*\" >> \"$here/apt-get.log\"' "
             "'[ \"$1\" = download ] || exit 100' 'shift' "
             "'[ -e \"$here/offline\" ] && { echo \"E: Failed to fetch http://deb.example/x.deb  Temporary failure "
             "resolving deb.example\" >&2; exit 100; }' "
             "'for p; do cp \"$here/debs/$p.deb\" . || exit 100; done' > bin/apt-get && "
             "printf '%%s\\n' '#!/bin/sh' 'cmd=$1; shift' 'case $cmd in' "
             "'policy) echo \"$1:\"; echo \"  Installed: (none)\"; echo \"  Candidate: 2.4.1-2\" ;;' "
             "'depends) for p; do case $p in -*) continue ;; esac; echo \"$p\"; case $p in *-dev) "
             "echo \"  Depends: libtilelab-fake0\"; echo \"  Depends: libc6\"; echo \"  Depends: pkg-config\"; "
             "echo \"  Depends: <libc-dev>\" ;; libtilelab-fake0) echo \"  Depends: libtilelab-ssh1\" ;; "
             "libtilelab-ssh1) ;; *) echo \"  PreDepends: libc6\" ;; esac; done ;;' 'esac' > bin/apt-cache && chmod +x bin/*",
             deps_dir);
    cr_assert_eq(tool_sh(cmd), 0, "cannot write the fake apt-get and apt-cache in %s", deps_dir);
    deps_package("libcriterion-dev", "include/criterion/criterion.h");
    deps_package("libseccomp-dev", "include/seccomp.h");
    deps_package("libtilelab-fake0", "lib/libtilelab-fake.so.0");
    deps_package("libtilelab-ssh1", "lib/libtilelab-ssh.so.1");
}

/* `make GOALS` in the kit's folder as on a machine with neither library:
 * no flags from the make running the tests, pkg-config finding nothing,
 * DEPS the test's empty deps/. Output in out and err; the exit status. */
static int deps_make(const char *goals)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "unset CRITERION_CFLAGS CRITERION_LIBS SECCOMP_CFLAGS SECCOMP_LIBS; "
             "PKG_CONFIG_LIBDIR='%s/pkgconfig' PKG_CONFIG_PATH= PATH='%s/bin':\"$PATH\" "
             "make --no-print-directory %s DEPS='%s/deps' > '%s/out' 2> '%s/err'",
             deps_dir, deps_dir, goals, deps_dir, deps_dir, deps_dir);
    return tool_sh(cmd);
}

/* Passed: the temporary folder goes. */
static void deps_done(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", deps_dir);
    tool_sh(cmd);
}

Test(deps, first_use_fetches_into_deps_once)
{
    deps_setup();
    int status = deps_make("-s need-criterion need-seccomp");
    cr_assert_eq(status, 0, "the first build did not fetch Criterion and libseccomp (%s), stderr:\n%s",
                 deps_dir, deps_read("err"));
    const char *out = deps_read("out");
    cr_assert(tool_lines(out) == 1 && strstr(out, "fetching") && strstr(out, deps_dir),
              "the first build says in one line what it fetches and where (%s); it printed:\n%s", deps_dir, out);
    cr_assert(deps_exists("deps/usr/include/criterion/criterion.h") && deps_exists("deps/usr/include/seccomp.h"),
              "nothing unpacked into %s/deps", deps_dir);
    cr_assert(deps_exists("deps/usr/lib/libtilelab-fake.so.0") && deps_exists("deps/usr/lib/libtilelab-ssh.so.1"),
              "the library the -dev package depends on, and the one that library depends on, were not both "
              "fetched (%s)", deps_dir);
    const char *apt = deps_read("apt-get.log");
    cr_assert(strstr(apt, "libcriterion-dev") && strstr(apt, "libseccomp-dev") && !strstr(apt, "libc6") &&
              !strstr(apt, "pkg-config") && !strstr(apt, "libc-dev"),
              "fetched: the -dev packages and the closure of their libraries, no base package (libc6, which the "
              "Essential packages depend on), tool or virtual package; apt-get was asked for:\n%s", apt);

    status = deps_make("-s need-criterion need-seccomp");
    cr_assert(status == 0 && !*deps_read("out") && tool_lines(deps_read("apt-get.log")) == 1,
              "a second build fetches again or says something (%s): exit %d, output:\n%s", deps_dir, status,
              deps_read("out"));
    deps_done();
}

/* The README's commands, offline: exactly one sentence on stderr. */
static void deps_offline(const char *goal, const char *install)
{
    int status = deps_make(goal);
    const char *err = deps_read("err");
    cr_assert_neq(status, 0, "make %s succeeded although nothing could be fetched (%s)", goal, deps_dir);
    cr_assert_eq(tool_lines(err), 1, "make %s offline: one sentence on stderr, not (%s):\n%s", goal, deps_dir, err);
    cr_assert(strstr(err, install) && strstr(err, "Temporary failure resolving"),
              "make %s offline names why and the command '%s' (%s):\n%s", goal, install, deps_dir, err);
    cr_assert(!strstr(err, "***") && !strstr(deps_read("out"), "***"),
              "make %s offline ends in make's own error lines (%s):\n%s%s", goal, deps_dir, deps_read("out"), err);
}

Test(deps, offline_failure_is_one_sentence)
{
    deps_setup();
    char cmd[512];
    snprintf(cmd, sizeof cmd, "touch '%s/offline'", deps_dir);
    cr_assert_eq(tool_sh(cmd), 0);
    deps_offline("lab1", "sudo apt-get install libseccomp-dev'");
    deps_offline("test", "sudo apt-get install libcriterion-dev libseccomp-dev'");
    cr_assert(!deps_exists("deps/usr/include"), "a failed fetch left files in %s/deps", deps_dir);
    deps_done();
}
