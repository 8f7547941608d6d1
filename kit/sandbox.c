/* sandbox.c — the worker's seccomp filter (see sandbox.h). */
#define _GNU_SOURCE
#include "sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Calls that change files: stopped, except in the counters run. */
static const int file_changes[] = {
    SCMP_SYS(creat), SCMP_SYS(unlink), SCMP_SYS(unlinkat), SCMP_SYS(rename), SCMP_SYS(renameat),
    SCMP_SYS(renameat2), SCMP_SYS(link), SCMP_SYS(linkat), SCMP_SYS(symlink), SCMP_SYS(symlinkat),
    SCMP_SYS(mkdir), SCMP_SYS(mkdirat), SCMP_SYS(rmdir), SCMP_SYS(truncate), SCMP_SYS(chmod),
    SCMP_SYS(fchmod), SCMP_SYS(fchmodat), SCMP_SYS(chown), SCMP_SYS(fchown), SCMP_SYS(lchown),
    SCMP_SYS(fchownat), SCMP_SYS(mknod), SCMP_SYS(mknodat), SCMP_SYS(utimensat), SCMP_SYS(utime),
    SCMP_SYS(utimes), SCMP_SYS(futimesat), SCMP_SYS(name_to_handle_at), SCMP_SYS(open_by_handle_at),
    SCMP_SYS(setxattr), SCMP_SYS(lsetxattr), SCMP_SYS(fsetxattr), SCMP_SYS(removexattr),
    SCMP_SYS(lremovexattr), SCMP_SYS(fremovexattr),
};

/* Calls stopped whatever their arguments. */
static const int always_stopped[] = {
    SCMP_SYS(execve), SCMP_SYS(execveat), SCMP_SYS(fork), SCMP_SYS(vfork),
    SCMP_SYS(socket), SCMP_SYS(socketpair), SCMP_SYS(connect), SCMP_SYS(bind), SCMP_SYS(listen),
    SCMP_SYS(accept), SCMP_SYS(accept4),
    SCMP_SYS(ptrace), SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev), SCMP_SYS(pidfd_open),
    SCMP_SYS(pidfd_send_signal), SCMP_SYS(pidfd_getfd), SCMP_SYS(tkill), SCMP_SYS(setsid), SCMP_SYS(setpgid),
    SCMP_SYS(mount), SCMP_SYS(umount2), SCMP_SYS(pivot_root), SCMP_SYS(chroot), SCMP_SYS(reboot),
    SCMP_SYS(kexec_load), SCMP_SYS(init_module), SCMP_SYS(finit_module), SCMP_SYS(delete_module),
    SCMP_SYS(swapon), SCMP_SYS(swapoff), SCMP_SYS(setuid), SCMP_SYS(setgid), SCMP_SYS(unshare),
    SCMP_SYS(setns), SCMP_SYS(memfd_create), SCMP_SYS(userfaultfd), SCMP_SYS(bpf), SCMP_SYS(perf_event_open),
    SCMP_SYS(kexec_file_load), SCMP_SYS(mq_open),
    /* io_uring does its opens, writes and connects where seccomp cannot see them. */
    SCMP_SYS(io_uring_setup), SCMP_SYS(io_uring_enter), SCMP_SYS(io_uring_register),
};

/* Flags of open() that write, create or truncate: any one stops the call. */
static const int writing_flags[] = {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND};

/*
 * The counters run lets the worker write files (ncu's injected library
 * writes its own), but only beneath its own folder (its working directory,
 * HOME and TMPDIR), /tmp, /var/tmp and /dev (device files open read-write):
 * a Landlock fence, so that run cannot change the kit's programs or other
 * students' results. 1 when the kernel has no Landlock (not fenced), 0 when
 * fenced, -1 on an error (why set).
 */
static int fence_writes(char *why, size_t len)
{
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1)
        return 1;
    __u64 handled = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                    LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                    LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                    LANDLOCK_ACCESS_FS_MAKE_SYM;
#ifdef LANDLOCK_ACCESS_FS_REFER
    if (abi >= 2)
        handled |= LANDLOCK_ACCESS_FS_REFER;
#endif
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
    if (abi >= 3)
        handled |= LANDLOCK_ACCESS_FS_TRUNCATE;
#endif
    struct landlock_ruleset_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.handled_access_fs = handled;
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (ruleset < 0) {
        snprintf(why, len, "landlock_create_ruleset: %s", strerror(errno));
        return -1;
    }
    static const char *const roots[] = {".", "/tmp", "/var/tmp", "/dev"};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        int fd = open(roots[i], O_PATH | O_CLOEXEC);
        if (fd < 0)
            continue;   /* no /var/tmp here: nothing to allow */
        struct landlock_path_beneath_attr beneath = {handled, fd};
        long added = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0);
        close(fd);
        if (added != 0) {
            snprintf(why, len, "landlock_add_rule(%s): %s", roots[i], strerror(errno));
            close(ruleset);
            return -1;
        }
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
        snprintf(why, len, "landlock_restrict_self: %s", strerror(errno));
        close(ruleset);
        return -1;
    }
    close(ruleset);
    return 0;
}

void tl_sandbox_close_files(int keep)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return;
    int own = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        int fd = atoi(e->d_name);
        if (e->d_name[0] < '0' || e->d_name[0] > '9' || fd == own || fd <= 2 || fd == keep)
            continue;
        struct stat st;
        int flags = fcntl(fd, F_GETFL);
        if (fstat(fd, &st) == 0 && flags >= 0 && (flags & O_ACCMODE) != O_RDONLY && S_ISREG(st.st_mode))
            close(fd);
    }
    closedir(d);
}

int tl_sandbox_library(char *path, size_t size, char *why, size_t len)
{
    ssize_t n = size > 4 ? readlink("/proc/self/exe", path, size - 4) : -1;
    if (n <= 0) {
        snprintf(why, len, "cannot find its own program: %s", strerror(errno));
        return -1;
    }
    memcpy(path + n, ".so", 4);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, len, "the lab file's library %.400s is missing", path);
        return -1;
    }
    return 0;
}

#define ADD(ctx, call, ...) \
    do { if ((rc = seccomp_rule_add(ctx, SCMP_ACT_TRAP, call, __VA_ARGS__)) != 0) goto failed; } while (0)

int tl_sandbox_enter(int allow_files, char *why, size_t len)
{
    if (allow_files && fence_writes(why, len) < 0)
        return -1;
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    int rc = -ENOMEM;
    const char *step = "seccomp_init";
    if (!ctx)
        goto failed;
    step = "seccomp_rule_add";
    for (size_t i = 0; i < sizeof always_stopped / sizeof always_stopped[0]; i++)
        ADD(ctx, always_stopped[i], 0);
    for (size_t i = 0; !allow_files && i < sizeof file_changes / sizeof file_changes[0]; i++)
        ADD(ctx, file_changes[i], 0);
    /* No new process and no new thread: the CUDA runtime's threads (and a
     * sanitizer's) exist before the filter loads, and a thread of
     * the lab file's could write forged replies while its kernels still
     * run. Under ncu (the counters run, allow_files) its injected thread
     * opens sockets and threads of its own: there the filter binds the
     * calling thread alone, threads stay allowed, and that run times
     * nothing. clone3's flags sit in memory a filter cannot read: it
     * answers ENOSYS, and glibc falls back to clone, which the rule sees. */
    if (allow_files)
        ADD(ctx, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
    else
        ADD(ctx, SCMP_SYS(clone), 0);
    if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0)) != 0)
        goto failed;
    /* The reply channel stays the worker's: no copy of a descriptor, so
     * the lab file cannot keep the reply pipe for itself and silence the
     * worker's own replies (a forged early reply then breaks the channel). */
    if (!allow_files) {
        ADD(ctx, SCMP_SYS(dup), 0);
        ADD(ctx, SCMP_SYS(dup2), 0);
        ADD(ctx, SCMP_SYS(dup3), 0);
        ADD(ctx, SCMP_SYS(fcntl), 1, SCMP_A1(SCMP_CMP_EQ, F_DUPFD, 0));
        ADD(ctx, SCMP_SYS(fcntl), 1, SCMP_A1(SCMP_CMP_EQ, F_DUPFD_CLOEXEC, 0));
    }
    if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0)) != 0)
        goto failed;
    if (!allow_files) {
        for (size_t i = 0; i < sizeof writing_flags / sizeof writing_flags[0]; i++) {
            unsigned f = (unsigned)writing_flags[i];
            ADD(ctx, SCMP_SYS(open), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, f, f));
            ADD(ctx, SCMP_SYS(openat), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, f, f));
        }
    }
    /* No memory both writable and executable: the lab file is mapped after
     * this (grader/worker.cu), and neither it (compiled -fPIC: no text
     * relocations) nor CUDA needs such memory; a page of its own code to
     * write and run, or the worker's code made writable and runnable at
     * once, is refused. */
    {
        scmp_datum_t wx = PROT_WRITE | PROT_EXEC;
        ADD(ctx, SCMP_SYS(mmap), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, wx, wx));
        ADD(ctx, SCMP_SYS(mprotect), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, wx, wx));
        ADD(ctx, SCMP_SYS(pkey_mprotect), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, wx, wx));
    }
    /* Signals only to itself: not to the judge, not to other students'
     * or the kit's workers; nor their limits. */
    pid_t self = getpid();
    ADD(ctx, SCMP_SYS(kill), 1, SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)self, 0));
    ADD(ctx, SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)self, 0));
    ADD(ctx, SCMP_SYS(rt_sigqueueinfo), 1, SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)self, 0));
    ADD(ctx, SCMP_SYS(rt_tgsigqueueinfo), 1, SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)self, 0));
    /* glibc's getrlimit and setrlimit name pid 0: any other pid is another process. */
    ADD(ctx, SCMP_SYS(prlimit64), 1, SCMP_A0(SCMP_CMP_NE, 0, 0));
    /* Every thread of the worker, not only the calling one: a signal
     * handler run on one of the runtime's threads is bound too (TSYNC). */
    step = "seccomp_attr_set(TSYNC)";
    if (!allow_files && (rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1)) != 0)
        goto failed;
    step = "seccomp_load";
    if ((rc = seccomp_load(ctx)) != 0)
        goto failed;
    seccomp_release(ctx);
    return 0;

failed:
    snprintf(why, len, "%s: %s", step, strerror(-rc));
    if (ctx)
        seccomp_release(ctx);
    return -1;
}
