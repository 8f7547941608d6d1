/* sandbox_calls.c — a stopped system call in a student's words (see sandbox.h). */
#define _GNU_SOURCE
#include "sandbox.h"

#include <stdio.h>
#include <sys/syscall.h>

typedef struct {
    long nr;
    const char *name, *what;
} stopped_call;

static const stopped_call calls[] = {
    {SYS_execve, "execve", "tried to start another program"},
    {SYS_execveat, "execveat", "tried to start another program"},
    {SYS_fork, "fork", "tried to start a process"},
    {SYS_mmap, "mmap", "tried to map memory both writable and executable"},
    {SYS_mprotect, "mprotect", "tried to make memory both writable and executable"},
    {SYS_pkey_mprotect, "pkey_mprotect", "tried to make memory both writable and executable"},
    {SYS_vfork, "vfork", "tried to start a process"},
    {SYS_clone, "clone", "tried to start a process or a thread"},
    {SYS_dup, "dup", "tried to copy a file descriptor (the grader's channel is not the lab file's)"},
    {SYS_dup2, "dup2", "tried to copy a file descriptor (the grader's channel is not the lab file's)"},
    {SYS_dup3, "dup3", "tried to copy a file descriptor (the grader's channel is not the lab file's)"},
    {SYS_fcntl, "fcntl", "tried to copy a file descriptor (the grader's channel is not the lab file's)"},
    {SYS_open, "open", "tried to open a file for writing"},
    {SYS_openat, "openat", "tried to open a file for writing"},
    {SYS_creat, "creat", "tried to create a file"},
    {SYS_unlink, "unlink", "tried to delete a file"},
    {SYS_unlinkat, "unlinkat", "tried to delete a file"},
    {SYS_rename, "rename", "tried to rename a file"},
    {SYS_renameat, "renameat", "tried to rename a file"},
    {SYS_renameat2, "renameat2", "tried to rename a file"},
    {SYS_truncate, "truncate", "tried to truncate a file"},
    {SYS_mkdir, "mkdir", "tried to create a folder"},
    {SYS_mkdirat, "mkdirat", "tried to create a folder"},
    {SYS_chmod, "chmod", "tried to change a file's permissions"},
    {SYS_fchmodat, "fchmodat", "tried to change a file's permissions"},
    {SYS_socket, "socket", "tried to open a network socket"},
    {SYS_connect, "connect", "tried to connect to a socket"},
    {SYS_ptrace, "ptrace", "tried to trace a process"},
    {SYS_process_vm_writev, "process_vm_writev", "tried to write another process's memory"},
    {SYS_process_vm_readv, "process_vm_readv", "tried to read another process's memory"},
    {SYS_kill, "kill", "tried to signal another process"},
    {SYS_tgkill, "tgkill", "tried to signal another process"},
    {SYS_tkill, "tkill", "tried to signal another thread"},
    {SYS_setsid, "setsid", "tried to leave its process group"},
    {SYS_setpgid, "setpgid", "tried to leave its process group"},
    {SYS_memfd_create, "memfd_create", "tried to create an in-memory file"},
    {SYS_io_uring_setup, "io_uring_setup", "tried to set up io_uring (file and network calls the sandbox cannot see)"},
    {SYS_rt_sigqueueinfo, "rt_sigqueueinfo", "tried to signal another process"},
    {SYS_rt_tgsigqueueinfo, "rt_tgsigqueueinfo", "tried to signal another process"},
    {SYS_prlimit64, "prlimit64", "tried to change another process's limits"},
};

void tl_sandbox_describe(int nr, char *out, size_t len)
{
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (calls[i].nr == nr) {
            snprintf(out, len, "%s (%s)", calls[i].what, calls[i].name);
            return;
        }
    snprintf(out, len, "made a system call a graded run may not make (number %d)", nr);
}
