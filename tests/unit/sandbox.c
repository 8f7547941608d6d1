/*
 * The worker's sandbox (kit/sandbox.c), without a GPU: a child enters
 * it, then tries one thing a launch function has no business doing. The
 * sandbox must stop it with SIGSYS; what a launch needs (reading, signals
 * to itself) must still work.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox.h"

/* Runs `attempt` in a sandboxed child; returns the child's wait status. */
static int sandboxed(void (*attempt)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    cr_assert(pid >= 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        char why[256];
        if (tl_sandbox_enter(0, why, sizeof why) != 0)
            _exit(3);
        attempt();
        _exit(0);
    }
    int status;
    cr_assert(waitpid(pid, &status, 0) == pid);
    return status;
}

static void expect_stopped(void (*attempt)(void), const char *what)
{
    int status = sandboxed(attempt);
    cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS, "%s was not stopped by SIGSYS (status %#x)", what,
              status);
}

static void open_for_writing(void) { open("/tmp/tilelab-sandbox-test", O_WRONLY | O_CREAT, 0644); }
static void open_read_write(void) { open("/tmp/tilelab-sandbox-test", O_RDWR); }
static void start_process(void) { syscall(SYS_fork); }
static void start_program(void) { execl("/bin/true", "true", (char *)0); }
static void open_socket(void) { socket(AF_INET, SOCK_STREAM, 0); }
static void signal_parent(void) { kill(getppid(), 0); }
static void queue_signal_to_parent(void)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    info.si_code = -1;
    syscall(SYS_rt_sigqueueinfo, getppid(), SIGCONT, &info);
}
static void leave_group(void) { setsid(); }
static void set_up_io_uring(void) { syscall(SYS_io_uring_setup, 4, NULL); }
static void delete_file(void) { unlink("/tmp/tilelab-sandbox-test"); }
static void map_writable_code(void) { mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); }
/* Its own code made writable as well (to patch it), through the raw call. */
static void make_code_writable(void)
{
    uintptr_t page = (uintptr_t)make_code_writable & ~(uintptr_t)4095;
    syscall(SYS_mprotect, (void *)page, 4096, PROT_READ | PROT_WRITE | PROT_EXEC);
}

Test(sandbox, stops_opening_a_file_for_writing) { expect_stopped(open_for_writing, "open(O_WRONLY|O_CREAT)"); }
Test(sandbox, stops_opening_a_file_read_write) { expect_stopped(open_read_write, "open(O_RDWR)"); }
Test(sandbox, stops_starting_a_process) { expect_stopped(start_process, "fork"); }
Test(sandbox, stops_starting_a_program) { expect_stopped(start_program, "execve"); }
Test(sandbox, stops_sockets) { expect_stopped(open_socket, "socket"); }
Test(sandbox, stops_signals_to_other_processes) { expect_stopped(signal_parent, "kill(parent)"); }
Test(sandbox, stops_queued_signals_to_other_processes)
{
    expect_stopped(queue_signal_to_parent, "rt_sigqueueinfo(parent)");
}
Test(sandbox, stops_leaving_the_process_group) { expect_stopped(leave_group, "setsid"); }
Test(sandbox, stops_io_uring) { expect_stopped(set_up_io_uring, "io_uring_setup"); }
Test(sandbox, stops_deleting_files) { expect_stopped(delete_file, "unlink"); }
Test(sandbox, stops_writable_executable_maps) { expect_stopped(map_writable_code, "mmap(PROT_WRITE|PROT_EXEC)"); }
Test(sandbox, stops_making_code_writable) { expect_stopped(make_code_writable, "mprotect(PROT_WRITE|PROT_EXEC)"); }

static void *nothing(void *arg) { return arg; }
static void start_thread(void)
{
    pthread_t t;
    if (pthread_create(&t, NULL, nothing, NULL) == 0)
        pthread_join(t, NULL);
}
static void copy_descriptor(void) { dup(1); }
static void copy_descriptor_onto(void) { dup2(1, 4); }
static void copy_descriptor_fcntl(void) { fcntl(1, F_DUPFD, 10); }

/* A thread of the lab file's could forge the worker's replies while its kernels run. */
Test(sandbox, stops_starting_a_thread) { expect_stopped(start_thread, "pthread_create"); }
/* A private copy of the reply pipe would let the lab file silence the worker's replies. */
Test(sandbox, stops_copying_descriptors)
{
    expect_stopped(copy_descriptor, "dup");
    expect_stopped(copy_descriptor_onto, "dup2");
    expect_stopped(copy_descriptor_fcntl, "fcntl(F_DUPFD)");
}

/* TSYNC: a thread that was running before the filter loaded (as the CUDA
 * runtime's are) is bound by it too. */
static volatile int go;
static void *socket_later(void *arg)
{
    while (!go)
        usleep(1000);
    socket(AF_INET, SOCK_STREAM, 0);
    return arg;
}

Test(sandbox, binds_threads_started_before_it)
{
    fflush(NULL);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        pthread_t t;
        if (pthread_create(&t, NULL, socket_later, NULL) != 0)
            _exit(4);
        char why[256];
        if (tl_sandbox_enter(0, why, sizeof why) != 0)
            _exit(3);
        go = 1;
        pthread_join(t, NULL);
        _exit(0);
    }
    int status;
    cr_assert(waitpid(pid, &status, 0) == pid);
    cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS,
              "a socket from a thread started before the sandbox was not stopped (status %#x)", status);
}

/* What a launch function may do: read files, start threads, signal itself. */
static void allowed_things(void)
{
    char buf[64];
    int fd = open("/proc/self/status", O_RDONLY);
    if (fd < 0 || read(fd, buf, sizeof buf) <= 0)
        _exit(4);
    close(fd);
    signal(SIGUSR1, SIG_IGN);
    if (raise(SIGUSR1) != 0)
        _exit(5);
    /* What dlopen does: code mapped read-execute, data read-write, made read-only. */
    void *code = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    void *data = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (code == MAP_FAILED || data == MAP_FAILED || mprotect(data, 4096, PROT_READ) != 0)
        _exit(6);
}

Test(sandbox, allows_what_a_launch_needs)
{
    int status = sandboxed(allowed_things);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a read, or a signal to itself, was stopped (status %#x)",
              status);
}

/* ---- the counters run: files, but fenced (Landlock) ---- */

static char fence_target[4096];

/* In an empty folder of its own, as a worker runs: writes there pass, a
 * write to fence_target (outside the allowed roots) must not. */
static void write_here_and_there(void)
{
    char why[256];
    if (tl_sandbox_enter(1, why, sizeof why) != 0)
        _exit(3);
    int here = open("written-here", O_WRONLY | O_CREAT, 0644);
    if (here < 0)
        _exit(4);
    int there = open(fence_target, O_WRONLY | O_CREAT, 0644);
    _exit(there >= 0 ? 5 : errno == EACCES ? 0 : 6);
}

Test(sandbox, counters_run_writes_only_beneath_its_folder)
{
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, 1 /* LANDLOCK_CREATE_RULESET_VERSION */);
    if (abi < 1)
        cr_skip_test("this kernel has no Landlock: the counters run is not fenced here");
    const char *home = getenv("HOME");
    if (!home || !*home || !strncmp(home, "/tmp", 4) || !strncmp(home, "/var/tmp", 8) || !strncmp(home, "/dev", 4))
        cr_skip_test("HOME (%s) lies beneath an allowed root: nothing outside them to try", home ? home : "unset");
    snprintf(fence_target, sizeof fence_target, "%s/tilelab-fence-test-%d", home, (int)getpid());
    char folder[] = "/tmp/tilelab-sandbox-XXXXXX";
    cr_assert(mkdtemp(folder), "mkdtemp: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        if (chdir(folder) != 0)
            _exit(7);
        write_here_and_there();
    }
    int status;
    cr_assert(waitpid(pid, &status, 0) == pid);
    char here[4200];
    snprintf(here, sizeof here, "%s/written-here", folder);
    unlink(here);
    rmdir(folder);
    unlink(fence_target);
    cr_expect(WIFEXITED(status), "the child died (status %#x)", status);
    cr_expect_eq(WEXITSTATUS(status), 0, "exit %d: 3 no sandbox, 4 its own folder refused, 5 a write outside "
                 "allowed, 6 refused but not with EACCES", WEXITSTATUS(status));
}

Test(sandbox, names_a_stopped_call)
{
    char out[160];
    tl_sandbox_describe(SYS_openat, out, sizeof out);
    cr_expect_str_eq(out, "tried to open a file for writing (openat)");
    tl_sandbox_describe(SYS_io_uring_setup, out, sizeof out);
    cr_expect(strstr(out, "io_uring_setup") != NULL, "%s", out);
}
