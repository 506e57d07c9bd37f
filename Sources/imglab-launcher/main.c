/*
 * imglab: the command users run. It only chooses which build of imglab runs and replaces itself
 * with it (execv), the way glibc chooses its glibc-hwcaps/x86-64-v3 libraries:
 *
 *   - imglab-x86-64-v3 beside it (built by scripts/build-hardware-variant: -target-cpu haswell,
 *     the Swift runtime and Foundation linked statically), when it exists, is not older than
 *     imglab-core (a variant left from an earlier build never runs in place of newer code), the
 *     first processor's /proc/cpuinfo flags list every feature that build may use, and
 *     IMGLAB_HARDWARE_VARIANT is not "baseline";
 *   - imglab-core beside it otherwise (the Swift program, linked against the shared Swift runtime).
 *
 * Why C: a Swift program pays for loading the Swift runtime and Foundation (about 9 ms) before
 * its first line runs, so a Swift launcher made every command start twice. This one starts in
 * well under a millisecond. Nothing is added to the environment, and argv is passed on as is.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The /proc/cpuinfo flags -target-cpu haswell may use. */
static const char *const required_flags[] = {
    "sse4_2", "popcnt", "avx", "avx2", "fma", "bmi1", "bmi2", "f16c",
    "movbe", "abm", "aes", "pclmulqdq", "rdrand", "fsgsbase", "xsave",
};

/* Whether the space-separated list `flags` holds the word `flag`. */
static int has_word(const char *flags, const char *flag) {
    size_t n = strlen(flag);
    for (const char *p = flags; (p = strstr(p, flag)) != NULL; p += n) {
        int starts = p == flags || p[-1] == ' ' || p[-1] == '\t';
        int ends = p[n] == '\0' || p[n] == ' ' || p[n] == '\n';
        if (starts && ends) return 1;
    }
    return 0;
}

/* Whether the first processor's flags line lists every required flag. */
static int cpu_has_required_flags(void) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL) return 0;
    char line[8192];
    int ok = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "flags", 5) != 0) continue;
        char *colon = strchr(line, ':');
        if (colon == NULL) break;
        ok = 1;
        for (size_t i = 0; i < sizeof required_flags / sizeof required_flags[0]; i++) {
            if (!has_word(colon + 1, required_flags[i])) { ok = 0; break; }
        }
        break;
    }
    fclose(f);
    return ok;
}

/* Whether `variant` is executable and was modified no earlier than `core`. */
static int is_current(const char *variant, const char *core) {
    struct stat v, c;
    if (access(variant, X_OK) != 0 || stat(variant, &v) != 0 || stat(core, &c) != 0) return 0;
    if (v.st_mtim.tv_sec != c.st_mtim.tv_sec) return v.st_mtim.tv_sec > c.st_mtim.tv_sec;
    return v.st_mtim.tv_nsec >= c.st_mtim.tv_nsec;
}

int main(int argc, char **argv) {
    (void)argc;
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        fprintf(stderr, "imglab: cannot find its own folder (/proc/self/exe: %s)\n", strerror(errno));
        return 2;
    }
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash == NULL) return 2;
    *slash = '\0';
    char core[PATH_MAX], variant[PATH_MAX];
    if (snprintf(core, sizeof core, "%s/imglab-core", self) >= (int)sizeof core ||
        snprintf(variant, sizeof variant, "%s/imglab-x86-64-v3", self) >= (int)sizeof variant) {
        fprintf(stderr, "imglab: its folder's path is too long: %s\n", self);
        return 2;
    }
    const char *choice = getenv("IMGLAB_HARDWARE_VARIANT");
    if ((choice == NULL || strcmp(choice, "baseline") != 0) && is_current(variant, core) && cpu_has_required_flags()) {
        execv(variant, argv);  /* returns only if the exec failed: carry on with the baseline build */
    }
    execv(core, argv);
    fprintf(stderr, "imglab: cannot run %s: %s (build it with 'swift build -c release')\n", core, strerror(errno));
    return 2;
}
