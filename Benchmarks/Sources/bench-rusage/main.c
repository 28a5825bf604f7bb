// bench-rusage: runs a program as the child of this small process and reports the child's wall time
// and peak resident set size.
//
//     bench-rusage RESULT_FD TIMEOUT_SECONDS PROGRAM [ARGUMENT...]
//
// It exists because Linux charges a parent's peak RSS to its children: exec records the peak of the
// memory map it replaces, and a child made by fork or vfork starts from its parent's. Measured from
// autograph-bench (several MB, more after a corpus run), a 2 MB `qpdf` would report the bench's own
// peak. Forked from this program instead, a child inherits about 1 MB, below any real program's RSS.
//
// The child keeps the standard input, output and error this program was given. When it ends, one
// line goes to RESULT_FD: "EXIT_CODE WALL_NANOSECONDS MAXRSS_KIB TIMED_OUT USER_MICROSECONDS
// SYSTEM_MICROSECONDS MINOR_FAULTS MAJOR_FAULTS" (EXIT_CODE is minus the signal number when the child
// was killed; 127 when PROGRAM could not be run; then the child's CPU time in user and kernel mode
// and its page faults, major ones being those that read from disk). A child still running after
// TIMEOUT_SECONDS (0: no limit) is killed with SIGKILL.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile pid_t child_pid = 0;
static volatile sig_atomic_t timed_out = 0;

static void on_alarm(int signal_number) {
    (void)signal_number;
    timed_out = 1;
    if (child_pid > 0) kill(child_pid, SIGKILL);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: bench-rusage RESULT_FD TIMEOUT_SECONDS PROGRAM [ARGUMENT...]\n");
        return 64;
    }
    int result_fd = atoi(argv[1]);
    unsigned timeout = (unsigned)strtoul(argv[2], NULL, 10);
    if (fcntl(result_fd, F_GETFD) < 0) {
        fprintf(stderr, "bench-rusage: result descriptor %d is not open\n", result_fd);
        return 64;
    }
    // The child must not hold the result pipe open.
    fcntl(result_fd, F_SETFD, FD_CLOEXEC);

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_alarm;
    sigaction(SIGALRM, &action, NULL);

    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t pid = fork();
    if (pid == 0) {
        execvp(argv[3], argv + 3);
        _exit(127);
    }
    if (pid < 0) {
        fprintf(stderr, "bench-rusage: fork: %s\n", strerror(errno));
        return 71;
    }
    child_pid = pid;
    if (timeout > 0) alarm(timeout);

    int status = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "bench-rusage: wait4: %s\n", strerror(errno));
            return 71;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    alarm(0);

    long long nanoseconds = (long long)(end.tv_sec - start.tv_sec) * 1000000000LL + (end.tv_nsec - start.tv_nsec);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    long long user = (long long)usage.ru_utime.tv_sec * 1000000LL + usage.ru_utime.tv_usec;
    long long system = (long long)usage.ru_stime.tv_sec * 1000000LL + usage.ru_stime.tv_usec;
    dprintf(result_fd, "%d %lld %ld %d %lld %lld %ld %ld\n", code, nanoseconds, usage.ru_maxrss, (int)timed_out,
            user, system, usage.ru_minflt, usage.ru_majflt);
    return 0;
}
