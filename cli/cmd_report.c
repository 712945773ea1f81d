/* cmd_report.c — `skinbench report`: the CLI side of reports/ (argument
 * parsing, printing; the work is in report.c, render.c and plots.c). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "skb_cli.h"
#include "skb_cli_opts.h"
#include "skb_json.h"
#include "skb_report.h"
#include "skb_regress.h"

#define MAX_RUNS SKB_MAX_RUNS

static void exe_dir(char *buf, size_t n)
{
    ssize_t r = readlink("/proc/self/exe", buf, n - 1);
    buf[r > 0 ? r : 0] = 0;
    char *s = strrchr(buf, '/');
    if (s)
        *s = 0;
}

/* what `report`'s options fill in */
struct report_opts {
    const char *dirs[MAX_RUNS], *out, *refpath, *fuzz, *hist_dir;
    int ndirs, plots;
};

static int add_results(void *opts, const char *v)
{
    struct report_opts *r = opts;
    if (r->ndirs == MAX_RUNS) {
        skb_cli_error("report: more than %d --results (a report merges at most %d runs)", MAX_RUNS, MAX_RUNS);
        return -1;
    }
    r->dirs[r->ndirs++] = v;
    return 0;
}

static const struct skb_opt report_opts_table[] = {
    { "--results", SKB_OPT_VALUE, 0, 0, add_results,
      "  --results DIR    a run directory (default results/latest), or a directory of run\n"
      "                   directories (several machines, merged by machine key); repeatable\n" },
    { "--out", SKB_OPT_STRING, offsetof(struct report_opts, out), 0, NULL,
      "  --out DIR        where to write the report (default: the first --results DIR)\n" },
    { "--reference", SKB_OPT_STRING, offsetof(struct report_opts, refpath), 0, NULL,
      "  --reference F    paper values (default reports/reference.json next to skinbench)\n" },
    { "--fuzz-log", SKB_OPT_STRING, offsetof(struct report_opts, fuzz), 0, NULL,
      "  --fuzz-log F     libFuzzer log to summarise (default RESULTS/fuzz.log, or the fuzz/fuzz.log of\n"
      "                   the build skinbench comes from; never the current directory's)\n" },
    { "--history", SKB_OPT_STRING, offsetof(struct report_opts, hist_dir), 0, NULL,
      "  --history STORE  the nightly runs of the results store (results/skinbench.sqlite): a\n"
      "                   table of steps across nights (first night, revision range), and\n"
      "                   history.html / history.csv / history-steps.csv: per method and machine,\n"
      "                   instructions, CPU times and paired A/B estimates night by night, steps\n"
      "                   marked.  Alone (no --results): only the history pages, into --out\n"
      "                   (default results/history-report)\n" },
    { "--no-plots", SKB_OPT_FLAG, offsetof(struct report_opts, plots), 0, NULL,
      "  --no-plots       skip gnuplot\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL, NULL }
};

static const struct skb_cli_spec report_spec = {
    "report",
    "usage: skinbench report [--results DIR]... [--out DIR] [--reference FILE]\n"
    "                        [--fuzz-log FILE] [--history STORE] [--no-plots]\n"
    "Reads the results JSON of one or more runs and writes report.md, report.html,\n"
    "plots/*.png|svg and tables/<id>.csv with every reproduced table beside the paper's values.\n",
    report_opts_table, NULL, NULL
};

/* "PATH: what" into msg; a path longer than msg is cut there, as in every
 * message (the length is looked at so that gcc's truncation check, which
 * sees PATH_MAX paths after inlining, knows the cut is meant) */
static void path_msg(char *msg, size_t msglen, const char *path, const char *what)
{
    if (snprintf(msg, msglen, "%s: %s", path, what) >= (int)msglen)
        msg[msglen - 1] = 0;
}

static int write_text(const char *path, int html, const struct skb_report *rep, const char *out_dir,
                      char *msg, size_t msglen)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        path_msg(msg, msglen, path, "out of memory");
        return SKB_ENOMEM;
    }
    int rc = html == 2 ? skb_report_render_json(rep, f) : html ? skb_report_render_html(rep, out_dir, f)
                                                               : skb_report_render_md(rep, f);
    fclose(f);
    if (rc == 0)
        rc = skb_write_atomic(path, buf, len, msg, msglen);
    else
        path_msg(msg, msglen, path, "render failed");
    free(buf);
    return rc;
}

/* one report at a time per output directory: two gnuplot runs writing the
 * same plots/NAME.png would each find the other's half-written file; the
 * second waits.  Returns the lock's descriptor (kept open), -1 on error */
static int report_lock(const char *out, char *msg, size_t msglen)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/.skb-report.lock", out);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(msg, msglen, "%.900s: cannot open the report lock: %s", path, fd < 0 ? strerror(errno) : "not a regular file");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        return fd;
    fprintf(stderr, "skinbench report: waiting for another report writing to %s (lock %s)\n", out, path);
    while (flock(fd, LOCK_EX) != 0)
        if (errno != EINTR) {
            snprintf(msg, msglen, "%.900s: cannot lock: %s", path, strerror(errno));
            close(fd);
            return -1;
        }
    return fd;
}

/* 1 when name is what skb_write_atomic leaves of a killed write of one of
 * the report's own files in dir: STEM.tmpXXXXXX, with STEM any file of
 * plots/ or tables/, and in OUT itself only report.json, .md or .html */
static int report_scratch(const char *sub, const char *name)
{
    static const char *const own[] = { "report.json", "report.md", "report.html", NULL };
    size_t n = strlen(name);
    if (n <= 10 || strncmp(name + n - 10, ".tmp", 4) != 0)
        return 0;
    for (int i = 0; !sub && own[i]; i++)
        if (n - 10 == strlen(own[i]) && strncmp(name, own[i], n - 10) == 0)
            return 1;
    return sub != NULL;
}

/* the temporary files a killed report left in OUT, OUT/plots and
 * OUT/tables: with the lock held no other report is writing them.  Each
 * directory is entered below OUT without links; only regular files go. */
static void reclaim_scratch(const char *out, const char *sub)
{
    char msg[300];
    int dfd = sub ? skb_open_below(out, sub, 1, msg, sizeof msg) : open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        struct stat st;
        if (report_scratch(sub, e->d_name) && fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0
            && S_ISREG(st.st_mode))
            unlinkat(dfd, e->d_name, 0);
    }
    closedir(d);
}

/* the same run named twice (the same directory after resolving links, or
 * the same machine and start time): merged once, with a note */
static int same_run(const struct skb_results *a, const struct skb_results *b)
{
    char ra[PATH_MAX], rb[PATH_MAX];
    if (realpath(a->dir, ra) && realpath(b->dir, rb) && strcmp(ra, rb) == 0)
        return 1;
    for (int i = 0; i < skb_rfile_count(); i++) {
        const char *sa = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a->doc[i], "started_utc"));
        const char *sb = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(b->doc[i], "started_utc"));
        if (sa && sb)
            return strcmp(sa, sb) == 0 && strcmp(a->machine_key, b->machine_key) == 0;
    }
    return 0;
}

static int drop_duplicate_runs(struct skb_results *runs, int n)
{
    for (int k = 1; k < n; k++)
        for (int j = 0; j < k; j++)
            if (same_run(&runs[j], &runs[k])) {
                skb_cli_error("report: note: %s is the same run as %s; merged once", runs[k].dir, runs[j].dir);
                skb_results_free(&runs[k]);
                memmove(&runs[k], &runs[k + 1], (size_t)(n - k - 1) * sizeof *runs);
                n--;
                k--;
                break;
            }
    return n;
}

/* one report's state, on the heap: the runs alone are some MAX_RUNS x 60 kB */
struct report_job {
    struct report_opts o;
    struct skb_results runs[MAX_RUNS];
    int nruns, bad, lock_fd;
    cJSON *ref;
    char ed[PATH_MAX], msg[1024];
};

/* every --results directory's runs, the same run once; every unreadable or
 * unknown results file named (j->bad counts the unreadable); 0 or -1 */
static int load_runs(struct report_job *j)
{
    for (int i = 0; i < j->o.ndirs; i++) {
        int n;
        if (skb_results_load_many(j->o.dirs[i], j->runs + j->nruns, MAX_RUNS - j->nruns, &n, j->msg,
                                  sizeof j->msg) < 0) {
            skb_cli_error("report: %s", j->msg);
            return -1;
        }
        j->nruns += n;
    }
    j->nruns = drop_duplicate_runs(j->runs, j->nruns);
    for (int k = 0; k < j->nruns; k++) {
        const struct skb_results *r = &j->runs[k];
        /* a folder holding files of two runs (a reused --out) is not one run */
        if (r->mixed[0]) {
            skb_cli_error("report: %s", r->mixed);
            return -1;
        }
        /* edited after the run: shown as it is, and said (compare and the store refuse it) */
        if (r->altered[0])
            skb_cli_error("report: note: %s; reported as it is", r->altered);
        for (int i = 0; i < skb_rfile_count(); i++)
            if (r->err[i][0]) {
                skb_cli_error("report: %s", r->err[i]);
                j->bad++;
            }
        /* never ignored silently: a file no experiment declares (a renamed
         * experiment, a typo, an experiment this build lacks) is named */
        for (int i = 0; i < r->nunknown && i < SKB_MAX_UNKNOWN; i++)
            skb_cli_error("report: %s/%s: unknown results file: no registered experiment writes it (see skinbench "
                          "list experiments); not in the report", r->dir, r->unknown[i]);
    }
    return 0;
}

/* the output directory, locked, with its plots/ ready; 0 or -1 */
static int prepare_out(struct report_job *j)
{
    const char *out = j->o.out;
    if (skb_mkdirs(out, j->msg, sizeof j->msg) < 0 || (j->lock_fd = report_lock(out, j->msg, sizeof j->msg)) < 0
        || (j->o.plots && skb_mkdirs_below(out, "plots", j->msg, sizeof j->msg) < 0)) {
        skb_cli_error("report: %s", j->msg);
        return -1;
    }
    reclaim_scratch(out, NULL);
    reclaim_scratch(out, "tables");
    reclaim_scratch(out, "plots");
    return 0;
}

/* --fuzz-log, or the log of the run (RESULTS/fuzz.log, read below it), or
 * the one make fuzz leaves in the build skinbench was built in (next to the
 * binary: build/skinbench or a copy in the tree's root).  Never the current
 * directory's: a claim about this binary must not come from wherever the
 * command happens to run. */
static void read_fuzz(struct skb_report *rep, const struct report_job *j)
{
    if (j->o.fuzz) {
        if (skb_report_read_fuzz_log(rep, NULL, j->o.fuzz) < 0)
            skb_cli_error("report: --fuzz-log %s: not readable or not a libFuzzer log (ignored)", j->o.fuzz);
        return;
    }
    if (skb_report_read_fuzz_log(rep, j->o.dirs[0], "fuzz.log") < 0 && j->ed[0]
        && skb_report_read_fuzz_log(rep, j->ed, "fuzz/fuzz.log") < 0)
        skb_report_read_fuzz_log(rep, j->ed, "build/fuzz/fuzz.log");
    skb_report_read_verdict(rep, j->o.dirs[0]);   /* the nightly's compare wrote it into the run */
}

/* --history STORE: a folder there is an old history (import it once) */
static int history_load(struct report_job *j, struct skb_history **hist)
{
    struct stat st;
    *hist = NULL;
    if (stat(j->o.hist_dir, &st) == 0 && S_ISDIR(st.st_mode)) {
        skb_cli_error("report: --history %s is a folder: --history reads the results store (results/skinbench.sqlite);"
                      " import an old history folder once with: skinbench store import --history %s",
                      j->o.hist_dir, j->o.hist_dir);
        return -1;
    }
    if (skb_history_load(j->o.hist_dir, hist, j->msg, sizeof j->msg) < 0) {
        skb_cli_error("report: --history: %s", j->msg);
        return -1;
    }
    return 0;
}

/* --history's table, its pages, and the plots (gnuplot); -1 after an error */
static int history_and_plots(struct skb_report *rep, struct report_job *j)
{
    struct skb_history *hist = NULL;
    int rc = j->o.hist_dir ? history_load(j, &hist) : 0;
    if (hist) {
        skb_history_table(rep, hist);
        if ((rc = skb_history_write(hist, j->o.out, j->msg, sizeof j->msg)) < 0)
            skb_cli_error("report: %s", j->msg);
    }
    if (j->o.plots)
        skb_plots_write(rep, j->o.out);
    skb_history_free(hist);
    return rc < 0 ? -1 : 0;
}

/* --history without --results: the history pages alone */
static int history_only(struct report_job *j)
{
    struct skb_history *hist = NULL;
    if (skb_mkdirs(j->o.out, j->msg, sizeof j->msg) < 0) {
        skb_cli_error("report: %s", j->msg);
        return 1;
    }
    if (history_load(j, &hist) < 0)
        return 1;
    int rc = skb_history_write(hist, j->o.out, j->msg, sizeof j->msg);
    if (rc < 0)
        skb_cli_error("report: %s", j->msg);
    else
        printf("skinbench report: %s/history.html, %s/history.csv and %s/history-steps.csv\n", j->o.out, j->o.out,
               j->o.out);
    skb_history_free(hist);
    return rc < 0 ? 1 : 0;
}

/* report.json first (the row model the two pages render), then report.md,
 * report.html and the CSV tables; 0, or -1 after the first failure */
static int write_pages(const struct skb_report *rep, struct report_job *j)
{
    static const char *const names[] = { "report.json", "report.md", "report.html" };
    static const int kinds[] = { 2, 0, 1 };
    const char *out = j->o.out;
    char path[PATH_MAX + 64];
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", out, names[i]);
        if (write_text(path, kinds[i], rep, kinds[i] == 2 || !j->o.plots ? NULL : out, j->msg, sizeof j->msg) < 0) {
            skb_cli_error("report: %s", j->msg);
            return -1;
        }
    }
    if (skb_report_write_csv(rep, out, j->msg, sizeof j->msg) < 0) {
        skb_cli_error("report: %s", j->msg);
        return -1;
    }
    return 0;
}

/* the counts of report.json, every status named as it is there; 1 when a
 * results file was unreadable */
static int print_counts(const struct skb_report *rep, const struct report_job *j)
{
    const char *out = j->o.out;
    int okp = 0;
    for (int i = 0; i < rep->nplots; i++)
        okp += rep->plots[i].ok;
    printf("skinbench report:");
    for (int s = 0; s < SKB_ROW_NSTATUS; s++)
        printf("%s %d %s", s ? "," : "", rep->count[s], skb_row_status_name(s));
    printf("; %d of %d plots\n", okp, rep->nplots);
    for (int i = 0; j->o.plots && i < rep->nplots; i++)
        if (!rep->plots[i].ok)
            skb_cli_error("report: plot %s not drawn: %s", rep->plots[i].name, rep->plots[i].why);
    printf("skinbench report: %s/report.html, %s/report.md and %s/report.json (every table also as "
           "%s/tables/*.csv)\n", out, out, out, out);
    if (j->bad) {
        skb_cli_error("report: %d results file(s) unreadable; their tables say so", j->bad);
        return 1;
    }
    return 0;
}

/* the report from the loaded runs: 0, or 1 on a failure (printed) */
static int build_and_write(struct report_job *j)
{
    struct skb_report *rep = calloc(1, sizeof *rep);
    if (!rep || skb_report_build(j->runs, j->nruns, j->ref, rep, j->msg, sizeof j->msg) < 0) {
        skb_cli_error("report: %s", rep ? j->msg : "out of memory");
        free(rep);
        return 1;
    }
    read_fuzz(rep, j);
    int rc = history_and_plots(rep, j) < 0 || write_pages(rep, j) < 0 ? 1 : print_counts(rep, j);
    skb_report_free(rep);
    free(rep);
    return rc;
}

int skb_cmd_report(int argc, char **argv)
{
    struct report_job *j = calloc(1, sizeof *j);
    if (!j) {
        skb_cli_error("report: out of memory");
        return 1;
    }
    j->o.plots = 1;
    j->lock_fd = -1;
    int rc = skb_cli_parse(&report_spec, argc, argv, &j->o);
    if (rc) {
        free(j);
        return rc == 1 ? 0 : rc;
    }
    if (!j->o.ndirs && j->o.hist_dir) {
        if (!j->o.out)
            j->o.out = "results/history-report";
        rc = history_only(j);
        free(j);
        return rc;
    }
    if (!j->o.ndirs)
        j->o.dirs[j->o.ndirs++] = "results/latest";
    if (!j->o.out)
        j->o.out = j->o.dirs[0];
    if (skb_output_dir_check(j->o.out, j->msg, sizeof j->msg) < 0) {
        skb_cli_error("report: --out %s", j->msg);
        free(j);
        return 2;
    }
    exe_dir(j->ed, sizeof j->ed);
    if (skb_reference_load(j->o.refpath, j->ed, &j->ref, j->msg, sizeof j->msg) < 0) {
        skb_cli_error("report: %s", j->msg);
        free(j);
        return 1;
    }
    rc = load_runs(j) < 0 || prepare_out(j) < 0 ? 1 : build_and_write(j);
    if (j->lock_fd >= 0)
        close(j->lock_fd);
    for (int k = 0; k < j->nruns; k++)
        skb_results_free(&j->runs[k]);
    cJSON_Delete(j->ref);
    free(j);
    return rc;
}
