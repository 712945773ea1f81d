/* cmd_report.c — `skinbench report` and `skinbench compare`: the CLI side
 * of reports/ (argument parsing, printing; the work is in report.c,
 * render.c, plots.c and compare.c). */
#include <ctype.h>
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
#include "skb_json.h"
#include "skb_report.h"
#include "skb_regress.h"

#define MAX_RUNS SKB_MAX_RUNS
#define DEFAULT_ALPHA 0.01       /* U test level; TOOLCHAIN.md: 0.05 alone flags 5/12 self-comparisons */
#define DEFAULT_MIN_EFFECT 0.05  /* 5 % median slow-down */

static void exe_dir(char *buf, size_t n)
{
    ssize_t r = readlink("/proc/self/exe", buf, n - 1);
    buf[r > 0 ? r : 0] = 0;
    char *s = strrchr(buf, '/');
    if (s)
        *s = 0;
}

static void report_usage(FILE *f)
{
    fprintf(f, "usage: skinbench report [--results DIR]... [--out DIR] [--reference FILE]\n"
               "                        [--fuzz-log FILE] [--history DIR] [--no-plots]\n"
               "Reads the results JSON of one or more runs and writes report.md, report.html,\n"
               "plots/*.png|svg and tables/<id>.csv with every reproduced table beside the paper's values.\n"
               "  --results DIR    a run directory (default results/latest), or a directory of run\n"
               "                   directories (several machines, merged by machine key); repeatable\n"
               "  --out DIR        where to write the report (default: the first --results DIR)\n"
               "  --reference F    paper values (default reports/reference.json next to skinbench)\n"
               "  --fuzz-log F     libFuzzer log to summarise (default RESULTS/fuzz.log or build/fuzz/fuzz.log)\n"
               "  --history DIR    nightly runs (results/history): a table of steps across nights (the\n"
               "                   first night each appeared) and per-method trend plots from 2 nights on\n"
               "  --no-plots       skip gnuplot\n");
}

static int write_text(const char *path, int html, const struct skb_report *rep, const char *plot_dir,
                      char *msg, size_t msglen)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        snprintf(msg, msglen, "%s: out of memory", path);
        return SKB_ENOMEM;
    }
    int rc = html == 2 ? skb_report_render_json(rep, f) : html ? skb_report_render_html(rep, plot_dir, f)
                                                               : skb_report_render_md(rep, f);
    fclose(f);
    if (rc == 0)
        rc = skb_write_atomic(path, buf, len, msg, msglen);
    else
        snprintf(msg, msglen, "%s: render failed", path);
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

/* temporary files (NAME.tmpXXXXXX) a killed report left in plots/: with
 * the lock held no other report is writing them */
static void reclaim_plot_scratch(const char *out)
{
    char dir[PATH_MAX + 16];
    snprintf(dir, sizeof dir, "%s/plots", out);
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *t = strstr(e->d_name, ".tmp");
        if (t && strlen(t) == 10)
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

int skb_cmd_report(int argc, char **argv)
{
    const char *dirs[MAX_RUNS], *out = NULL, *refpath = NULL, *fuzz = NULL, *hist_dir = NULL;
    int ndirs = 0, plots = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (skb_cli_is_help(a)) {
            report_usage(stdout);
            return 0;
        } else if (v && strcmp(a, "--results") == 0) {
            if (ndirs == MAX_RUNS) {
                skb_cli_error("report: more than %d --results (a report merges at most %d runs)", MAX_RUNS, MAX_RUNS);
                return 2;
            }
            dirs[ndirs++] = v;
            i++;
        } else if (v && strcmp(a, "--out") == 0) {
            out = v; i++;
        } else if (v && strcmp(a, "--reference") == 0) {
            refpath = v; i++;
        } else if (v && strcmp(a, "--fuzz-log") == 0) {
            fuzz = v; i++;
        } else if (v && strcmp(a, "--history") == 0) {
            hist_dir = v; i++;
        } else if (strcmp(a, "--no-plots") == 0) {
            plots = 0;
        } else {
            skb_cli_error("report: unknown or incomplete option '%s' (see skinbench report --help)", a);
            return 2;
        }
    }
    if (!ndirs)
        dirs[ndirs++] = "results/latest";
    if (!out)
        out = dirs[0];
    char msg[1024], ed[PATH_MAX];
    exe_dir(ed, sizeof ed);
    cJSON *ref = NULL;
    if (skb_reference_load(refpath, ed, &ref, msg, sizeof msg) < 0) {
        skb_cli_error("report: %s", msg);
        return 1;
    }
    static struct skb_results runs[MAX_RUNS];
    int nruns = 0, bad = 0, rc = 0, lock_fd = -1;
    for (int i = 0; i < ndirs; i++) {
        int n;
        if (skb_results_load_many(dirs[i], runs + nruns, MAX_RUNS - nruns, &n, msg, sizeof msg) < 0) {
            skb_cli_error("report: %s", msg);
            rc = 1;
            goto done;
        }
        nruns += n;
    }
    nruns = drop_duplicate_runs(runs, nruns);
    for (int k = 0; k < nruns; k++) {
        for (int i = 0; i < skb_rfile_count(); i++)
            if (runs[k].err[i][0]) {
                skb_cli_error("report: %s", runs[k].err[i]);
                bad++;
            }
        /* never ignored silently: a file no experiment declares (a renamed
         * experiment, a typo, an experiment this build lacks) is named */
        for (int i = 0; i < runs[k].nunknown && i < SKB_MAX_UNKNOWN; i++)
            skb_cli_error("report: %s/%s: unknown results file: no registered experiment writes it (see skinbench "
                          "list experiments); not in the report", runs[k].dir, runs[k].unknown[i]);
    }
    if (skb_mkdirs(out, msg, sizeof msg) < 0 || (lock_fd = report_lock(out, msg, sizeof msg)) < 0
        || (plots && skb_mkdirs_below(out, "plots", msg, sizeof msg) < 0)) {
        skb_cli_error("report: %s", msg);
        rc = 1;
        goto done;
    }
    if (plots)
        reclaim_plot_scratch(out);
    struct skb_report *rep = calloc(1, sizeof *rep);
    if (!rep || skb_report_build(runs, nruns, ref, rep, msg, sizeof msg) < 0) {
        skb_cli_error("report: %s", rep ? msg : "out of memory");
        free(rep);
        rc = 1;
        goto done;
    }
    char path[PATH_MAX + 64];
    if (fuzz) {
        if (skb_report_read_fuzz_log(rep, fuzz) < 0)
            skb_cli_error("report: --fuzz-log %s: not readable or not a libFuzzer log (ignored)", fuzz);
    } else {
        snprintf(path, sizeof path, "%s/fuzz.log", dirs[0]);
        if (skb_report_read_fuzz_log(rep, path) < 0) {
            snprintf(path, sizeof path, "%s/../build/fuzz/fuzz.log", ed);
            if (skb_report_read_fuzz_log(rep, path) < 0)
                skb_report_read_fuzz_log(rep, "build/fuzz/fuzz.log");
        }
    }
    struct skb_history *hist = NULL;
    if (hist_dir && skb_history_load(hist_dir, &hist, msg, sizeof msg) < 0)
        skb_cli_error("report: --history: %s (no history section)", msg);
    if (hist)
        skb_history_table(rep, hist);
    char plot_dir[PATH_MAX + 16];
    snprintf(plot_dir, sizeof plot_dir, "%s/plots", out);
    if (plots) {
        skb_plots_write(rep, out);
        skb_history_plots(rep, out, hist);
    }
    skb_history_free(hist);
    /* report.json first: the row model the two pages render */
    snprintf(path, sizeof path, "%s/report.json", out);
    if (write_text(path, 2, rep, NULL, msg, sizeof msg) < 0) {
        skb_cli_error("report: %s", msg);
        rc = 1;
    }
    snprintf(path, sizeof path, "%s/report.md", out);
    if (rc == 0 && write_text(path, 0, rep, plots ? plot_dir : NULL, msg, sizeof msg) < 0) {
        skb_cli_error("report: %s", msg);
        rc = 1;
    }
    snprintf(path, sizeof path, "%s/report.html", out);
    if (rc == 0 && write_text(path, 1, rep, plots ? plot_dir : NULL, msg, sizeof msg) < 0) {
        skb_cli_error("report: %s", msg);
        rc = 1;
    }
    if (rc == 0 && skb_report_write_csv(rep, out, msg, sizeof msg) < 0) {
        skb_cli_error("report: %s", msg);
        rc = 1;
    }
    if (rc == 0) {
        int okp = 0;
        for (int i = 0; i < rep->nplots; i++)
            okp += rep->plots[i].ok;
        /* the counts of report.json, every status named as it is there */
        printf("skinbench report:");
        for (int s = 0; s < SKB_ROW_NSTATUS; s++)
            printf("%s %d %s", s ? "," : "", rep->count[s], skb_row_status_name(s));
        printf("; %d of %d plots\n", okp, rep->nplots);
        for (int i = 0; plots && i < rep->nplots; i++)
            if (!rep->plots[i].ok)
                skb_cli_error("report: plot %s not drawn: %s", rep->plots[i].name, rep->plots[i].why);
        printf("skinbench report: %s/report.html, %s/report.md and %s/report.json (every table also as "
               "%s/tables/*.csv)\n", out, out, out, out);
        if (bad) {
            skb_cli_error("report: %d results file(s) unreadable; their tables say so", bad);
            rc = 1;
        }
    }
    skb_report_free(rep);
    free(rep);
done:
    if (lock_fd >= 0)
        close(lock_fd);
    for (int k = 0; k < nruns; k++)
        skb_results_free(&runs[k]);
    cJSON_Delete(ref);
    return rc;
}

static void compare_usage(FILE *f)
{
    fprintf(f, "usage: skinbench compare BASELINE_DIR CURRENT_DIR [--update-baseline]\n"
               "                         [--alpha A] [--min-effect E] [--rerun DIR] [--ab DIR]\n"
               "                         [--validation FILE] [--summary FILE]\n"
               "Exact gates: property verdicts, FLOP fits, callgrind and shader instruction counts,\n"
               "instructions per kernel (icount.json, 0.5 %% tolerance), missing experiments.\n"
               "  --ab DIR           the timing verdict from a paired A/B sitting (DIR/round-K/{a,b}/,\n"
               "                     scripts/nightly-ab.sh): per method a CI of current/baseline; the\n"
               "                     unpaired U test below then only informs.\n"
               "  --validation FILE  the gates' measured detection and false-alarm rates\n"
               "                     (scripts/gate-summary.sh) copied into the summary and shown.\n"
               "Timing: a benchmark regresses only when the Mann-Whitney U\n"
               "test on raw repetitions (p < A, default %g), the median slow-down (> E, default %g)\n"
               "and the confirming re-run (DIR, default CURRENT_DIR/rerun/cpu-gbench.json) agree;\n"
               "without a re-run such a change is unconfirmed: inconclusive (exit 3), not a failure.\n"
               "  --update-baseline  replace BASELINE_DIR with CURRENT_DIR (atomically) after comparing,\n"
               "                     only when the comparison passed (exit 0) and the run is verified and\n"
               "                     not injected; creates it when absent; in a baseline of several\n"
               "                     machines' runs only this machine's run.  Never written otherwise.\n"
               "  --summary FILE     comparison summary JSON (default CURRENT_DIR/compare.json)\n"
               "Exit: 0 pass, 1 regression (named on stdout), 2 usage or unreadable input,\n"
               "3 inconclusive (a gate could not judge: powerless, unconfirmed, a measurement missing or\n"
               "not a finite positive number, another machine key without --ab; never a pass).\n"
               "The machine key is the hardware (CPU model, cores, memory), prefixed by $SKB_MACHINE_NAME.\n",
            DEFAULT_ALPHA, DEFAULT_MIN_EFFECT);
}

/* --update-baseline after the comparison: only a run that passed (exit 0)
 * and may be a baseline is installed; in a baseline of several machines'
 * runs only this machine's run is replaced (or added), the others stay */
static int update_baseline(const char *bdir, const char *cdir, const struct skb_results *base, int nbase, int pick,
                           const struct skb_results *cur, int rc)
{
    char msg[1024], target[PATH_MAX];
    if (rc != 0) {
        skb_cli_error("compare: baseline %s not replaced: the comparison did not pass (exit %d); nothing was swapped",
                      bdir, rc);
        return rc;
    }
    if (skb_compare_installable(cur, msg, sizeof msg) < 0) {
        skb_cli_error("compare: baseline %s not replaced: %s", bdir, msg);
        return 2;
    }
    int multi = nbase > 1 || strcmp(base[0].dir, bdir) != 0;
    if (!multi) {
        snprintf(target, sizeof target, "%s", bdir);
    } else if (strcmp(base[pick].machine_key, cur->machine_key) == 0) {
        snprintf(target, sizeof target, "%s", base[pick].dir);
    } else {
        /* a machine new to this baseline: its own run directory beside the others */
        char name[200];
        size_t j = 0;
        for (const char *c = cur->machine_key; *c && j + 1 < sizeof name; c++)
            name[j++] = (isalnum((unsigned char)*c) || *c == '-' || *c == '_') ? *c : '_';
        name[j] = 0;
        snprintf(target, sizeof target, "%s/run-%s", bdir, j ? name : "unknown");
    }
    if (skb_dir_replace(cdir, target, msg, sizeof msg) < 0) {
        skb_cli_error("compare: %s", msg);
        return 2;
    }
    if (multi)
        printf("compare: baseline %s: run %s (machine %s) replaced by %s; the other %d machine run(s) kept "
               "(--update-baseline)\n", bdir, target, cur->machine_key, cdir,
               nbase - (strcmp(base[pick].machine_key, cur->machine_key) == 0));
    else
        printf("compare: baseline %s replaced by %s (--update-baseline)\n", bdir, cdir);
    return 0;
}

static int parse_pos(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= 0) || v > 1e6)
        return -1;
    *out = v;
    return 0;
}

int skb_cmd_compare(int argc, char **argv)
{
    const char *pos[2], *rerun_dir = NULL, *summary_path = NULL, *ab_dir = NULL, *val_path = NULL;
    int npos = 0;
    struct skb_compare_opts o = { DEFAULT_ALPHA, DEFAULT_MIN_EFFECT, 0, NULL };
    static struct skb_ab ab;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (skb_cli_is_help(a)) {
            compare_usage(stdout);
            return 0;
        } else if (strcmp(a, "--update-baseline") == 0) {
            o.update_baseline = 1;
        } else if (v && strcmp(a, "--alpha") == 0) {
            if (parse_pos(v, &o.alpha) < 0 || o.alpha <= 0 || o.alpha >= 1) {
                skb_cli_error("compare: --alpha '%s': expected a number in (0, 1)", v);
                return 2;
            }
            i++;
        } else if (v && strcmp(a, "--min-effect") == 0) {
            if (parse_pos(v, &o.min_effect) < 0) {
                skb_cli_error("compare: --min-effect '%s': expected a non-negative number (0.05 = 5 %%)", v);
                return 2;
            }
            i++;
        } else if (v && strcmp(a, "--rerun") == 0) {
            rerun_dir = v; i++;
        } else if (v && strcmp(a, "--ab") == 0) {
            ab_dir = v; i++;
        } else if (v && strcmp(a, "--validation") == 0) {
            val_path = v; i++;
        } else if (v && strcmp(a, "--summary") == 0) {
            summary_path = v; i++;
        } else if (a[0] == '-') {
            skb_cli_error("compare: unknown or incomplete option '%s' (see skinbench compare --help)", a);
            return 2;
        } else if (npos < 2) {
            pos[npos++] = a;
        } else {
            skb_cli_error("compare: too many arguments ('%s')", a);
            return 2;
        }
    }
    if (npos != 2) {
        skb_cli_error("compare: need BASELINE_DIR and CURRENT_DIR (see skinbench compare --help)");
        return 2;
    }
    char msg[1024];
    static struct skb_results base[MAX_RUNS], cur, rr;
    int nbase = 0, rc = 0, have_rr = 0;
    if (skb_results_load(pos[1], &cur, msg, sizeof msg) < 0) {
        skb_cli_error("compare: %s", msg);
        return 2;
    }
    if (skb_compare_inputs_ok(NULL, &cur, msg, sizeof msg) < 0) {
        skb_cli_error("compare: %s", msg);
        skb_results_free(&cur);
        return 2;
    }
    if (access(pos[0], F_OK) != 0) {
        if (!o.update_baseline) {
            skb_cli_error("compare: no baseline at %s (create it with --update-baseline)", pos[0]);
            skb_results_free(&cur);
            return 2;
        }
        /* an unverified, failed or injected run never becomes the baseline */
        if (skb_compare_installable(&cur, msg, sizeof msg) < 0 || skb_dir_replace(pos[1], pos[0], msg, sizeof msg) < 0) {
            skb_cli_error("compare: %s", msg);
            rc = 2;
        } else {
            printf("compare: created baseline %s from %s\n", pos[0], pos[1]);
        }
        skb_results_free(&cur);
        return rc;
    }
    if (skb_results_load_many(pos[0], base, MAX_RUNS, &nbase, msg, sizeof msg) < 0) {
        skb_cli_error("compare: baseline: %s", msg);
        skb_results_free(&cur);
        return 2;
    }
    for (int k = 0; k < nbase; k++)
        if (skb_compare_inputs_ok(&base[k], NULL, msg, sizeof msg) < 0) {
            skb_cli_error("compare: %s", msg);
            rc = 2;
            goto done;
        }
    /* a baseline of several machines: compare against this machine's run */
    int pick = 0;
    for (int k = 0; k < nbase; k++)
        if (strcmp(base[k].machine_key, cur.machine_key) == 0)
            pick = k;
    char rpath[PATH_MAX];
    snprintf(rpath, sizeof rpath, "%s/rerun", pos[1]);
    if (!rerun_dir && access(rpath, F_OK) == 0)
        rerun_dir = rpath;
    if (rerun_dir) {
        if (skb_results_load(rerun_dir, &rr, msg, sizeof msg) < 0) {
            skb_cli_error("compare: re-run: %s", msg);
            rc = 2;
            goto done;
        }
        have_rr = 1;
    }
    if (ab_dir) {
        if (skb_ab_load(ab_dir, &ab, msg, sizeof msg) < 0) {
            skb_cli_error("compare: A/B: %s", msg);
            rc = 2;
            goto done;
        }
        o.ab = &ab;
    }
    cJSON *sum = NULL, *val = NULL;
    if (val_path && skb_json_read_file(val_path, &val, msg, sizeof msg) < 0) {
        skb_cli_error("compare: --validation: %s", msg);
        rc = 2;
        goto done;
    }
    int nreg = skb_compare_run(&base[pick], &cur, have_rr ? &rr : NULL, &o, stdout, &sum);
    if (val)
        skb_compare_add_validation(sum, val, val_path, stdout);   /* copies what it keeps */
    cJSON_Delete(val);
    char spath[PATH_MAX];
    snprintf(spath, sizeof spath, "%s/compare.json", pos[1]);
    int sum_failed = skb_json_write_atomic(summary_path ? summary_path : spath, sum, msg, sizeof msg) < 0;
    if (sum_failed)
        skb_cli_error("compare: %s", msg);
    double undecided = 0;
    skb_json_get_number(cJSON_GetObjectItemCaseSensitive(sum, "inconclusive_count"), &undecided);
    cJSON_Delete(sum);
    /* a summary that was not written is not a pass; nor is an undecided timing gate (3) */
    rc = sum_failed ? 2 : nreg ? 1 : undecided > 0 ? 3 : 0;
    if (o.update_baseline)
        rc = update_baseline(pos[0], pos[1], base, nbase, pick, &cur, rc);
done:
    for (int k = 0; k < nbase; k++)
        skb_results_free(&base[k]);
    skb_results_free(&cur);
    if (have_rr)
        skb_results_free(&rr);
    if (o.ab)
        skb_ab_free(&ab);
    return rc;
}
