/* Whole-process timing for benches/hook.sh: posix_spawn with stdin from a file
 * and stdout to /dev/null, waited for, alternating with a do-nothing run of the
 * same binary so that both see the same load. Prints the case's median and
 * minimum, then the do-nothing median, then the case's median until every
 * process it started has ended, in milliseconds.
 *
 * A run is timed until the hook's process exits: that is what Claude Code waits
 * for. A hook hands its fsyncs to a detached process (src/io/fsync_later.rs); on
 * Linux this runner is its subreaper and waits for it before the next run, so
 * that it never runs during another run's timing.
 *
 *   spawn_time RUNS INPUT EMPTY [CLEAN_DIR[:CLEAN_DIR...]] -- BIN ARGS...
 *
 * INPUT may hold one %d, replaced by the run's number (one input file per run).
 * Files that appear in a CLEAN_DIR during a run are removed after it, untimed
 * (up to 4 folders, separated by ':').
 * Built by benches/hook.sh with the machine's C compiler. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

extern char **environ;

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Times one run; `all` gets the time until its detached processes ended too. */
static double run(char **argv, const char *input, double *all) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    double start = now_ms();
    if (posix_spawn(&pid, argv[0], &actions, NULL, argv, environ) != 0) {
        perror("posix_spawn");
        exit(1);
    }
    int status;
    waitpid(pid, &status, 0);
    double took = now_ms() - start;
    while (waitpid(-1, &status, 0) > 0 || errno == EINTR) {
    }
    *all = now_ms() - start;
    posix_spawn_file_actions_destroy(&actions);
    return took;
}

/* The names in `dir`, as one string of NUL-terminated names. */
static char *names_in(const char *dir, size_t *len) {
    size_t cap = 4096, used = 0;
    char *out = malloc(cap);
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t n = strlen(e->d_name) + 1;
        if (used + n > cap) out = realloc(out, cap = 2 * (cap + n));
        memcpy(out + used, e->d_name, n);
        used += n;
    }
    if (d) closedir(d);
    *len = used;
    return out;
}

static int listed(const char *names, size_t len, const char *name) {
    for (size_t at = 0; at < len; at += strlen(names + at) + 1)
        if (strcmp(names + at, name) == 0) return 1;
    return 0;
}

/* Removes what appeared in `dir` since `before` was listed. */
static void tidy(const char *dir, const char *before, size_t before_len) {
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[4096];
    while (d && (e = readdir(d))) {
        if (listed(before, before_len, e->d_name)) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d) closedir(d);
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int dashes = 0;
    while (dashes < argc && strcmp(argv[dashes], "--") != 0) dashes++;
    if (dashes < 4 || dashes + 1 >= argc) {
        fprintf(stderr, "usage: spawn_time RUNS INPUT EMPTY [CLEAN_DIR[:CLEAN_DIR...]] -- BIN ARGS...\n");
        return 2;
    }
#ifdef __linux__
    prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
    int runs = atoi(argv[1]);
    const char *input = argv[2], *empty = argv[3];
    char *clean[4];
    size_t cleans = 0;
    for (char *dir = dashes > 4 ? strtok(argv[4], ":") : NULL; dir && cleans < 4; dir = strtok(NULL, ":"))
        clean[cleans++] = dir;
    char **cmd = argv + dashes + 1;
    char *baseline[] = {cmd[0], "hook", NULL};
    size_t before_len[4];
    char *before[4];
    for (size_t c = 0; c < cleans; c++) before[c] = names_in(clean[c], &before_len[c]);
    double *times = calloc(runs, sizeof *times), *base = calloc(runs, sizeof *base);
    double *alls = calloc(runs, sizeof *alls), all, ignored;
    char path[4096];
    for (int i = -5; i < runs; i++) {
        if (strstr(input, "%d")) {
            snprintf(path, sizeof path, input, i < 0 ? runs - i : i);
        } else {
            snprintf(path, sizeof path, "%s", input);
        }
        double t = run(cmd, path, &all);
        for (size_t c = 0; c < cleans; c++) tidy(clean[c], before[c], before_len[c]);
        double b = run(baseline, empty, &ignored);
        if (i >= 0) {
            times[i] = t;
            base[i] = b;
            alls[i] = all;
        }
    }
    qsort(times, runs, sizeof *times, by_value);
    qsort(base, runs, sizeof *base, by_value);
    qsort(alls, runs, sizeof *alls, by_value);
    printf("%.2f %.2f %.2f %.2f\n", times[runs / 2], times[0], base[runs / 2], alls[runs / 2]);
    return 0;
}
