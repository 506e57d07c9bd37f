/*
 * imglab-measure FILE PROGRAM [ARG...]
 *
 * Runs PROGRAM with its arguments, waits for it, writes what it cost to FILE as one line
 * "maxrss_kib user_us system_us" (wait4's resource usage of PROGRAM and the descendants it waited
 * for) and exits with PROGRAM's status (128 + the signal when a signal ended it).
 *
 * Why a separate, tiny C program: on Linux, exec records the old address space's peak resident
 * size in the new program's ru_maxrss. A child spawned by the lab itself would start its peak at
 * the lab's own (tens of MiB after generating sources); spawned from this program, it starts at
 * this program's few hundred KiB, so the figure is the measured program's own.
 */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: imglab-measure FILE PROGRAM [ARG...]\n");
        return 2;
    }
    pid_t pid;
    int spawned = posix_spawnp(&pid, argv[2], NULL, NULL, argv + 2, environ);
    if (spawned != 0) {
        fprintf(stderr, "imglab-measure: cannot start %s: %s\n", argv[2], strerror(spawned));
        return 127;
    }
    int status = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    for (;;) {
        pid_t r = wait4(pid, &status, 0, &usage);
        if (r == pid) break;
        if (r < 0 && errno != EINTR) {
            fprintf(stderr, "imglab-measure: wait4: %s\n", strerror(errno));
            return 125;
        }
    }
    FILE *out = fopen(argv[1], "w");
    if (out == NULL) {
        fprintf(stderr, "imglab-measure: cannot write %s: %s\n", argv[1], strerror(errno));
        return 125;
    }
    long long user = (long long)usage.ru_utime.tv_sec * 1000000 + usage.ru_utime.tv_usec;
    long long system = (long long)usage.ru_stime.tv_sec * 1000000 + usage.ru_stime.tv_usec;
    fprintf(out, "%ld %lld %lld\n", usage.ru_maxrss, user, system);
    if (fclose(out) != 0) return 125;
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
