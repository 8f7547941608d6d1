/*
 * sandbox.h — what a worker may not do once CUDA is up (libseccomp).
 *
 * After the worker has started CUDA and mapped the judge's buffers, it
 * enters the sandbox: a seccomp filter that stops, with SIGSYS, every system
 * call a launch function has no business making:
 *
 *   starting processes    fork, vfork, clone without CLONE_THREAD, execve
 *   writing files         open/openat/creat for writing, creating or
 *                         truncating; unlink, rename, mkdir, chmod, ...
 *   reaching out          sockets, ptrace, process_vm_*, kill/tgkill of any
 *                         process but itself, setsid/setpgid (leaving the
 *                         process group the judge kills)
 *   the machine           mount, reboot, module loading, ... (graders run as
 *                         root on some hosts)
 *
 * Threads stay allowed (the CUDA runtime starts its own). A blocked call
 * ends the worker; the judge names the call with tl_sandbox_describe().
 */
#ifndef TILELAB_SANDBOX_H
#define TILELAB_SANDBOX_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Enter the sandbox. allow_files: opening, creating and removing files
 * stays allowed (the ncu run, whose injected library writes its own
 * files), but where the kernel has Landlock only beneath the worker's own
 * folder (its working directory), /tmp, /var/tmp and /dev. 0, else -1 and `why`. */
int tl_sandbox_enter(int allow_files, char *why, size_t len);

/* Before a worker maps the lab file (grader/worker.cu, cpu/worker.cc):
 * closes every descriptor open for writing to a regular file but 0-2 and
 * `keep` (-1: none), so nothing the file finds open outlives the rule
 * against opening files for writing; device files, pipes and event
 * descriptors (the CUDA driver's) stay. */
void tl_sandbox_close_files(int keep);

/* The lab file's library, this program's own path + ".so", into `path`:
 * 0, else -1 and `why` (missing, or not a regular file). */
int tl_sandbox_library(char *path, size_t size, char *why, size_t len);

/* "tried to open a file for writing (openat)": what system call `nr` is
 * for, in a student's words. Needs no libseccomp: the judge links it. */
void tl_sandbox_describe(int nr, char *out, size_t len);

#ifdef __cplusplus
}
#endif

#endif
