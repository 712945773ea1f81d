/* cmd_run.c — `skinbench run EXPERIMENT...|all`: the one entry point every
 * experiment plugs into (reports/experiment_list.c lists them). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "skb_cli.h"
#include "skb_cli_opts.h"
#include "skb_dataset.h"
#include "skb_json.h"
#include "skb_report.h"
#include <sys/random.h>
#include <sys/stat.h>
#include "skb_run.h"
#include "skb_sha256.h"
#include "skb_ticker.h"
#include "skb_timing.h"

#define SKB_DEFAULT_SEED 20070601     /* fixed, so runs repeat; recorded in every result */
#define MAX_REPETITIONS 1000          /* Google Benchmark keeps every repetition in memory */
#define MAX_NAMES 64                  /* experiments named on one command line */
#define STR_(x) #x
#define STR(x) STR_(x)

/* what `run`'s options fill in: the experiments' context and the names */
struct run_opts {
    struct skb_run_ctx ctx;
    const char *names[MAX_NAMES];
    int nnames, all;
    char methods[1024];         /* --methods with each name made its registry name */
};

static int set_methods(void *opts, const char *v)
{
    struct run_opts *r = opts;
    size_t at = 0;
    for (const char *p = v; *p;) {
        size_t len = strcspn(p, ",");
        const struct skb_method *m = skb_method_lookup(p, len);
        if (!m) {
            const char *near = skb_method_suggest(p, len);
            skb_cli_error("run: --methods: unknown method '%.*s'%s%s%s (see skinbench list methods)", (int)len, p,
                          near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
            return -1;
        }
        int n = snprintf(r->methods + at, sizeof r->methods - at, "%s%s", at ? "," : "", m->name);
        if (n < 0 || (size_t)n >= sizeof r->methods - at) {
            skb_cli_error("run: --methods: the list is too long");
            return -1;
        }
        at += (size_t)n;
        p += len;
        if (*p == ',')
            p++;
    }
    r->ctx.methods_filter = r->methods;
    return 0;
}

static int check_datasets(const char *v);

static int set_datasets(void *opts, const char *v)
{
    if (check_datasets(v) < 0)
        return -1;
    ((struct run_opts *)opts)->ctx.datasets_filter = v;
    return 0;
}

static int set_repetitions(void *opts, const char *v)
{
    unsigned long r;
    if (skb_cli_parse_ulong(v, &r) < 0 || r < 1 || r > MAX_REPETITIONS) {
        skb_cli_error("run: --repetitions '%s': expected an integer from 1 to %d", v, MAX_REPETITIONS);
        return -1;
    }
    ((struct run_opts *)opts)->ctx.repetitions = (int)r;
    return 0;
}

static int set_planner(void *opts, const char *v)
{
    static const char *const modes[] = { "measure", "wisdom", "none" };
    struct skb_run_ctx *ctx = &((struct run_opts *)opts)->ctx;
    ctx->planner = -1;
    for (int k = 0; k < 3; k++)
        if (strcmp(v, modes[k]) == 0)
            ctx->planner = k;
    if (ctx->planner < 0) {
        skb_cli_error("run: --planner '%s': expected measure, wisdom or none", v);
        return -1;
    }
    return 0;
}

static int set_planner_budget(void *opts, const char *v)
{
    struct skb_run_ctx *ctx = &((struct run_opts *)opts)->ctx;
    char *end;
    ctx->planner_budget_ms = strtod(v, &end);
    if (end == v || *end || !(ctx->planner_budget_ms >= 0.1 && ctx->planner_budget_ms <= 10000)) {
        skb_cli_error("run: --planner-budget '%s': expected milliseconds from 0.1 to 10000", v);
        return -1;
    }
    return 0;
}

static int set_seed(void *opts, const char *v)
{
    if (skb_cli_parse_ulong(v, &((struct run_opts *)opts)->ctx.seed) < 0) {
        skb_cli_error("run: --seed '%s': expected a non-negative integer", v);
        return -1;
    }
    return 0;
}

/* EXPERIMENT or all; more than MAX_NAMES names are ignored, as always */
static int add_name(void *opts, const char *a)
{
    struct run_opts *r = opts;
    if (strcmp(a, "all") == 0) {
        r->all = 1;
    } else if (!skb_experiment_desc_find(a)) {
        skb_cli_error("run: unknown experiment '%s' (see skinbench list experiments)", a);
        return -1;
    } else if (r->nnames < MAX_NAMES) {
        r->names[r->nnames++] = a;
    }
    return 0;
}

#define CTX_AT(field) offsetof(struct run_opts, ctx.field)
static const struct skb_opt run_opts_table[] = {
    { "--out", SKB_OPT_STRING, CTX_AT(out_dir), 0, NULL,
      "  --out DIR      results directory (default results/latest; with --dataset,\n"
      "                 results/<model>-<UTC time>: your model never lands in the\n"
      "                 reproduction's folder)\n" },
    { "--seed", SKB_OPT_VALUE, 0, 0, set_seed,
      "  --seed N       random seed (default " STR(SKB_DEFAULT_SEED) "); written into every result\n" },
    { "--quick", SKB_OPT_FLAG, CTX_AT(quick), 1, NULL,
      "  --quick        seconds-long version (used by make check)\n" },
    { "--methods", SKB_OPT_VALUE, 0, 0, set_methods,
      "  --methods L    only these methods (comma-separated registry names, or the\n"
      "                 papers' words: lbs, sbs, dqs, log, qlb, two-phase; any case)\n" },
    { "--dataset", SKB_OPT_STRING, CTX_AT(dataset_file), 0, NULL,
      "  --dataset FILE your model (any format assimp reads, with a skin and an\n"
      "                 animation) instead of the catalogue datasets, in every\n"
      "                 experiment that takes one; the others say why not\n" },
    { "--datasets", SKB_OPT_VALUE, 0, 0, set_datasets,
      "  --datasets L   cpu, icount: only these datasets (names of `list datasets`, bcn_human+random,\n"
      "                 roofline for the large mesh; default all); naming another\n"
      "                 experiment with it is a usage error (exit 2)\n" },
    { "--repetitions", SKB_OPT_VALUE, 0, 0, set_repetitions,
      "  --repetitions N  cpu: Google Benchmark repetitions per kernel (default 2, --quick 2)\n" },
    { "--planner", SKB_OPT_VALUE, 0, 0, set_planner,
      "  --planner P    cpu: how the @plan rows choose their fast kernel: measure (default:\n"
      "                 time every candidate), wisdom (reuse --wisdom's choice for this CPU,\n"
      "                 build and mesh, measure and store it when absent), none (the fixed\n"
      "                 choice: split layout, load-time clone, 8-wide renormalisation)\n" },
    { "--planner-budget", SKB_OPT_VALUE, 0, 0, set_planner_budget,
      "  --planner-budget MS  cpu: wall time per planner candidate (default 50, --quick 5)\n" },
    { "--wisdom", SKB_OPT_STRING, CTX_AT(wisdom_file), 0, NULL,
      "  --wisdom FILE  cpu: the planner's wisdom (default $XDG_CACHE_HOME/skinbench/wisdom.json\n"
      "                 or ~/.cache/skinbench/wisdom.json)\n" },
    { "--offset-sweep", SKB_OPT_FLAG, CTX_AT(offset_sweep), 1, NULL,
      "  --offset-sweep cpu: only the roofline mesh's stream-alignment sweep (cpu-offsets.json)\n" },
    { "--quiet", SKB_OPT_FLAG, CTX_AT(verbose), 0, NULL,
      "  --quiet        nothing on stdout or stderr but errors\n" },
    { NULL, SKB_OPT_TEXT, 0, 0, NULL, NULL }
};

static void list_experiments(FILE *f)
{
    fputs("experiments:\n", f);
    int w = 0;   /* the name column as wide as the longest name */
    for (int i = 0; skb_experiment_list[i]; i++)
        if ((int)strlen(skb_experiment_list[i]->run->name) > w)
            w = (int)strlen(skb_experiment_list[i]->run->name);
    for (int i = 0; skb_experiment_list[i]; i++)
        fprintf(f, "  %-*s %s\n", w, skb_experiment_list[i]->run->name, skb_experiment_list[i]->run->description);
}

static const struct skb_cli_spec run_spec = {
    "run",
    "usage: skinbench run EXPERIMENT...|all [--out DIR] [--seed N] [--quick]\n"
    "                     [--methods a,b,...] [--datasets a,b,...] [--dataset FILE]\n"
    "                     [--repetitions N] [--planner measure|wisdom|none]\n"
    "                     [--planner-budget MS] [--wisdom FILE] [--offset-sweep] [--quiet]\n",
    run_opts_table, list_experiments, add_name
};

/* run --dataset FILE: the file must import (assimp, isolated) with a skin
 * and an animation of at least two sampled poses; 0, or msg naming the file.
 * Loaded as the experiments load it (ctx->quick caps only the pose count,
 * at 8 or more): the run keeps this import for them */
static int check_dataset(const struct skb_run_ctx *ctx, char *msg, size_t msglen)
{
    struct skb_dataset_opts o = { ctx->seed, ctx->quick, 0 };
    struct skb_dataset d;
    const char *f = ctx->dataset_file;
    /* a file, not a catalogue name (those are `run`'s defaults already) */
    if (access(f, F_OK) != 0) {
        snprintf(msg, msglen, "%s: no such file", f);
        return SKB_EINVAL;
    }
    int rc = skb_run_dataset_load(ctx, f, &o, &d, msg, msglen);
    if (rc < 0)
        return rc;
    if (!d.clip[0] || d.nposes < 2) {
        snprintf(msg, msglen, "%s: %s (run --dataset needs a skinned mesh with an animation)", f,
                 d.clip[0] ? "its animation clip samples to a single pose" : "no animation clip");
        rc = SKB_EINVAL;
    }
    skb_dataset_free(&d);
    return rc;
}

/* under --dataset, one line per experiment on what runs on the model or why
 * it cannot; 1 when the experiment runs */
static int dataset_line(const struct skb_run_ctx *ctx, const struct skb_experiment *e)
{
    if (!ctx->dataset_file)
        return 1;
    if (ctx->verbose)
        fprintf(stderr, "[%s] %s %s: %s\n", e->name, e->takes_dataset ? "on" : "not run on", ctx->dataset_file,
                e->dataset_note ? e->dataset_note : "");
    return e->takes_dataset;
}

/* how many of the wanted experiments run on a model file */
static int dataset_takers(int all, const char *const *names, int nnames)
{
    int n = 0;
    for (int i = 0; skb_experiment_list[i]; i++) {
        const struct skb_experiment *e = skb_experiment_list[i]->run;
        int wanted = all;
        for (int k = 0; k < nnames; k++)
            wanted |= strcmp(names[k], e->name) == 0;
        n += wanted && e->takes_dataset;
    }
    return n;
}

/* every name of the comma-separated list is a dataset run cpu knows */
static int check_datasets(const char *v)
{
    for (const char *p = v; *p;) {
        size_t len = strcspn(p, ",");
        int found = (len == 16 && strncmp(p, "bcn_human+random", len) == 0)
                    || (len == 8 && strncmp(p, "roofline", len) == 0);
        for (int k = 0; !found && skb_dataset_sources[k]; k++)
            found = strlen(skb_dataset_sources[k]->name) == len && strncmp(skb_dataset_sources[k]->name, p, len) == 0;
        if (!found) {
            skb_cli_error("run: --datasets: unknown dataset '%.*s' (see skinbench list datasets; also "
                          "bcn_human+random, roofline)", (int)len, p);
            return -1;
        }
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* run --datasets with an experiment that ignores it: one line naming them */
static int check_datasets_takers(int all, const char *const *names, int nnames)
{
    char ignoring[256] = "", taking[256] = "";
    for (int i = 0; skb_experiment_list[i]; i++) {
        const struct skb_experiment *e = skb_experiment_list[i]->run;
        int wanted = all;
        for (int k = 0; k < nnames; k++)
            wanted |= strcmp(names[k], e->name) == 0;
        char *list = e->takes_datasets_filter ? taking : ignoring;
        if ((wanted || e->takes_datasets_filter) && strlen(list) + strlen(e->name) + 3 < sizeof ignoring)
            strcat(strcat(list, list[0] ? ", " : ""), e->name);
    }
    if (!ignoring[0])
        return 0;
    skb_cli_error("run: --datasets is taken only by %s; %s would ignore it (run them without --datasets)",
                  taking, ignoring);
    return -1;
}


/* one judged row on stderr, at most ~200 characters: a longer one (a
 * counterexample's whole story) is cut at a character boundary, its full
 * text being in table-4.1.md */
#define T41_LINE_MAX 150
static void table41_line(void *arg, const char *line)
{
    size_t n = strlen(line);
    if (n <= T41_LINE_MAX) {
        skb_run_progress(arg, "table-4.1", "%s", line);
        return;
    }
    n = T41_LINE_MAX;
    while (n > 0 && ((unsigned char)line[n] & 0xC0) == 0x80)   /* not inside a UTF-8 sequence */
        n--;
    skb_run_progress(arg, "table-4.1", "%.*s ... (whole row in table-4.1.md)", (int)n, line);
}

/* the inputs of table-4.1.md: results are written by rename (a new inode),
 * so a file this run wrote differs from the one seen before it */
static const char *const t41_inputs[] = { "properties.json", "flops.json" };
struct t41_seen { int have; dev_t dev; ino_t ino; struct timespec mtime; };

static void t41_snapshot(const char *dir, struct t41_seen seen[2])
{
    for (int i = 0; i < 2; i++) {
        char path[PATH_MAX];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, t41_inputs[i]);
        memset(&seen[i], 0, sizeof seen[i]);
        if (stat(path, &st) == 0) {
            seen[i].have = 1;
            seen[i].dev = st.st_dev;
            seen[i].ino = st.st_ino;
            seen[i].mtime = st.st_mtim;
        }
    }
}

/* table-4.1.md, when this run wrote the results it shows (properties.json
 * or flops.json changed since `before`): rendered by the report's renderer,
 * each row that differs from the thesis also one progress line */
static int table41_refresh(const struct skb_run_ctx *ctx, const struct t41_seen before[2], char *msg, size_t msglen)
{
    struct t41_seen now[2];
    int fresh = 0;
    t41_snapshot(ctx->out_dir, now);
    for (int i = 0; i < 2; i++)
        fresh |= now[i].have && (!before[i].have || now[i].dev != before[i].dev || now[i].ino != before[i].ino
                                 || now[i].mtime.tv_sec != before[i].mtime.tv_sec
                                 || now[i].mtime.tv_nsec != before[i].mtime.tv_nsec);
    if (!fresh)
        return 0;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", ctx->exe_path ? ctx->exe_path : "");
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        dir[0] = 0;
    return skb_report_write_table41(ctx->out_dir, dir, table41_line, (void *)ctx, msg, msglen);
}

/* the checks that need every option: 0, or the exit code after the error */
static int check_run(const struct run_opts *r, char *msg, size_t msglen)
{
    if (!r->all && r->nnames == 0) {
        skb_cli_error("run: name at least one experiment, or all (see skinbench run --help)");
        return 2;
    }
    if (r->ctx.datasets_filter && check_datasets_takers(r->all, r->names, r->nnames) < 0)
        return 2;
    if (r->ctx.dataset_file && !dataset_takers(r->all, r->names, r->nnames)) {
        char takers[256] = "";
        for (int i = 0; skb_experiment_list[i]; i++) {
            const struct skb_experiment *e = skb_experiment_list[i]->run;
            if (e->takes_dataset && strlen(takers) + strlen(e->name) + 3 < sizeof takers)
                strcat(strcat(takers, takers[0] ? ", " : ""), e->name);
        }
        skb_cli_error("run: --dataset: none of the experiments named runs on a model file (these do: %s)", takers);
        return 2;
    }
    if (r->ctx.dataset_file && check_dataset(&r->ctx, msg, msglen) < 0) {
        skb_cli_error("run: --dataset: %s", msg);
        return 1;
    }
    if (skb_output_dir_check(r->ctx.out_dir, msg, msglen) < 0) {
        skb_cli_error("run: --out %s", msg);
        return 2;
    }
    if (skb_mkdirs(r->ctx.out_dir, msg, msglen) < 0) {
        skb_cli_error("%s", msg);
        return 1;
    }
    return 0;
}

/* every wanted experiment in the registry's order, its status into
 * status ({name: "ok" | "failed: why"}, for the manifest); the count that
 * failed, *total the count run */
/* ---- progress: what runs, for how long, and what is left ---- */

/* the times of the previous run into this folder (its manifest's
 * experiment_seconds), read before the manifest is removed: NULL when
 * there is none */
static cJSON *previous_seconds(const char *out_dir)
{
    cJSON *m = NULL, *s = NULL;
    char msg[256];
    if (skb_json_read_below(out_dir, "manifest.json", &m, msg, sizeof msg) == 0 && m)
        s = cJSON_DetachItemFromObjectCaseSensitive(m, "experiment_seconds");
    cJSON_Delete(m);
    return cJSON_IsObject(s) ? s : (cJSON_Delete(s), NULL);
}

static double seconds_of(const cJSON *times, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(times, name);
    return cJSON_IsNumber(v) && v->valuedouble >= 0 ? v->valuedouble : NAN;
}

static int wanted(const struct run_opts *r, const struct skb_experiment *e)
{
    int w = r->all;
    for (int k = 0; k < r->nnames; k++)
        w |= strcmp(r->names[k], e->name) == 0;
    return w;
}

/* the previous run's seconds of the wanted experiments after list index i
 * (NAN when one of them has none: no estimate is better than a wrong one) */
static double left_after(const struct run_opts *r, const cJSON *prev, int i)
{
    double left = 0;
    for (int j = i + 1; skb_experiment_list[j]; j++)
        if (wanted(r, skb_experiment_list[j]->run))
            left += seconds_of(prev, skb_experiment_list[j]->run->name);
    return left;
}

/* the heartbeat of one experiment: every 30 s ($SKB_HEARTBEAT_INTERVAL) a
 * line with its time so far and, from the previous run, what is left */
struct beat {
    int k;
    const char *name;
    double last_s, rest_s;
};

static void beat_line(void *arg, double elapsed)
{
    const struct beat *b = arg;
    if (isfinite(b->last_s) && isfinite(b->rest_s))
        fprintf(stderr, "[%d] %s: %.0f s so far (last run %.0f s; about %.0f s left in this run)\n", b->k, b->name,
                elapsed, b->last_s, fmax(b->last_s - elapsed, 0) + b->rest_s);
    else
        fprintf(stderr, "[%d] %s: %.0f s so far (no earlier run in this folder to estimate from)\n", b->k, b->name,
                elapsed);
}

static int run_experiments(const struct run_opts *r, const cJSON *prev, cJSON *status, cJSON *seconds, int *total_out,
                           char *msg, size_t msglen)
{
    const struct skb_run_ctx *ctx = &r->ctx;
    int failed = 0, total = 0;
    for (int i = 0; skb_experiment_list[i]; i++) {
        const struct skb_experiment *e = skb_experiment_list[i]->run;
        if (!wanted(r, e) || !dataset_line(ctx, e))
            continue;
        total++;
        double t0 = skb_clock_ms(SKB_CLOCK_WALL);
        struct beat b = { total, e->name, seconds_of(prev, e->name), left_after(r, prev, i) };
        struct skb_ticker tick;
        if (ctx->verbose) {
            if (isfinite(b.last_s))
                fprintf(stderr, "[%d] %s: %s ... (last run %.0f s)\n", total, e->name, e->description, b.last_s);
            else
                fprintf(stderr, "[%d] %s: %s ...\n", total, e->name, e->description);
            skb_ticker_start(&tick, skb_ticker_interval("SKB_HEARTBEAT_INTERVAL", 30), beat_line, &b);
        }
        msg[0] = 0;
        int rc = e->run(ctx, msg, msglen);
        if (ctx->verbose)
            skb_ticker_stop(&tick);
        double took = 1e-3 * (skb_clock_ms(SKB_CLOCK_WALL) - t0);
        cJSON_AddNumberToObject(seconds, e->name, took);
        if (rc < 0) {
            skb_cli_error("run %s: %s", e->name, msg[0] ? msg : "failed");
            char why[600];
            snprintf(why, sizeof why, "failed: %.580s", msg[0] ? msg : "no reason given");
            cJSON_AddStringToObject(status, e->name, why);
            failed++;
        } else {
            cJSON_AddStringToObject(status, e->name, "ok");
            if (ctx->verbose && isfinite(b.rest_s) && b.rest_s > 0)
                fprintf(stderr, "[%d] %s: done in %.1f s; about %.0f s left (the last run's times)\n", total, e->name,
                        took, b.rest_s);
            else if (ctx->verbose)
                fprintf(stderr, "[%d] %s: done in %.1f s\n", total, e->name, took);
        }
    }
    *total_out = total;
    return failed;
}

/* ---- the run's identity and its manifest (reports/run_manifest.c) ---- */

/* what this invocation is: a random run id, the running binary's SHA-256,
 * the start time; a manifest left by an earlier run in the folder is
 * removed first, so that a run killed before its end leaves none */
struct run_identity {
    char run_id[33], binary[65], started[32];
};

static int identity_begin(struct run_opts *r, struct run_identity *id, char *msg, size_t msglen)
{
    unsigned char raw[16];
    if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw) {
        snprintf(msg, msglen, "run: cannot draw a run id (getrandom: %s)", strerror(errno));
        return SKB_EIO;
    }
    for (int i = 0; i < 16; i++)
        snprintf(id->run_id + 2 * i, 3, "%02x", raw[i]);
    if (skb_sha256_file("/proc/self/exe", id->binary, msg, msglen) < 0)
        return SKB_EIO;
    time_t t = time(NULL);
    struct tm tmv;
    gmtime_r(&t, &tmv);
    strftime(id->started, sizeof id->started, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    r->ctx.run_id = id->run_id;
    r->ctx.binary_sha256 = id->binary;
    char path[PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/manifest.json", r->ctx.out_dir) < sizeof path) {
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && unlink(path) != 0) {
            snprintf(msg, msglen, "run: %.900s: cannot remove the earlier run's manifest: %s", path, strerror(errno));
            return SKB_EIO;
        }
    }
    return 0;
}

/* why this run cannot be whole, or NULL: a filter leaves out methods or
 * datasets, a model file replaces the catalogue */
static const char *partial_reason(const struct run_opts *r, char *buf, size_t len)
{
    const struct skb_run_ctx *c = &r->ctx;
    if (c->methods_filter)
        snprintf(buf, len, "--methods %.200s", c->methods_filter);
    else if (c->datasets_filter)
        snprintf(buf, len, "--datasets %.200s", c->datasets_filter);
    else if (c->dataset_file)
        snprintf(buf, len, "--dataset %.200s", c->dataset_file);
    else if (c->offset_sweep)
        snprintf(buf, len, "--offset-sweep");
    else
        return NULL;
    return buf;
}

/* where a --dataset run without --out writes: results/<model>-<UTC time>
 * (the model's file name without its extension, every byte outside
 * [A-Za-z0-9._-] made '_'), so that a user's model never lands in
 * results/latest among the reproduction's files (README "Everyday tasks";
 * docs/experiments.md "Datasets") */
static const char *dataset_out_dir(const char *file, char *buf, size_t len)
{
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot > base ? (size_t)(dot - base) : strlen(base);
    char stem[65], stamp[32];
    size_t k = 0;
    for (size_t i = 0; i < n && k < sizeof stem - 1; i++) {
        unsigned char c = (unsigned char)base[i];
        stem[k++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-'
                            || c == '_' ? (char)c : '_';
    }
    stem[k] = 0;
    time_t now = time(NULL);
    struct tm tm;
    if (!gmtime_r(&now, &tm) || strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm) == 0)
        snprintf(stamp, sizeof stamp, "%lld", (long long)now);
    snprintf(buf, len, "results/%s-%s", k ? stem : "model", stamp);
    return buf;
}

/* manifest.json, the run's last file */
static int identity_end(const struct run_opts *r, const struct run_identity *id, const cJSON *status,
                        const cJSON *seconds, char *msg, size_t msglen)
{
    char partial[260];
    struct skb_manifest_info mi = { id->run_id, id->started, id->binary, skb_build_info.git_rev,
                                    skb_build_info.git_describe, skb_build_info.compiler, r->ctx.seed, r->ctx.quick,
                                    partial_reason(r, partial, sizeof partial), status, seconds };
    return skb_manifest_write(r->ctx.out_dir, &mi, msg, msglen);
}

/* Ctrl-C, kill or a closed terminal: one line saying the run stopped and
 * its folder is partial (no manifest.json: report marks the run "not
 * finished"), then the signal's default action, so the exit status still
 * names the signal.  Only async-signal-safe calls. */
static void run_stopped(int sig)
{
    static const char line[] = "\nskinbench run: interrupted: the results folder holds what finished, no manifest.json "
                               "(report marks the run not finished); run again to complete it\n";
    ssize_t w = write(STDERR_FILENO, line, sizeof line - 1);
    (void)w;
    signal(sig, SIG_DFL);
    raise(sig);
}

/* a signal the parent set to be ignored (nohup, a background job's
 * SIGINT) stays ignored */
static void say_when_stopped(void)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = run_stopped;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(sigs[i], &sa, NULL);
}

int skb_cmd_run(int argc, char **argv)
{
    struct run_opts r;
    static const char latest[] = "results/latest";
    char exe[PATH_MAX], msg[1024], own_out[PATH_MAX];
    memset(&r, 0, sizeof r);
    r.ctx.out_dir = latest;
    r.ctx.seed = SKB_DEFAULT_SEED;
    r.ctx.verbose = 1;
    skb_params_default(&r.ctx.params);
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    r.ctx.exe_path = exe;
    int rc = skb_cli_parse(&run_spec, argc, argv, &r);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (r.ctx.dataset_file && r.ctx.out_dir == latest)   /* no --out given */
        r.ctx.out_dir = dataset_out_dir(r.ctx.dataset_file, own_out, sizeof own_out);
    if (skb_run_open(&r.ctx) < 0) {   /* the run's shared datasets (harness/run_datasets.c) */
        skb_cli_error("run: out of memory");
        return 1;
    }
    if ((rc = check_run(&r, msg, sizeof msg)) != 0) {
        skb_run_close(&r.ctx);
        return rc;
    }
    if (!skb_run_is_measured_child())
        say_when_stopped();
    if (r.ctx.verbose)
        fprintf(stderr, "skinbench run: seed %lu, results in %s%s\n", r.ctx.seed, r.ctx.out_dir,
                r.ctx.quick ? " (quick)" : "");
    struct run_identity id;
    int measured_child = skb_run_is_measured_child(), manifest_failed = 0;
    cJSON *prev = previous_seconds(r.ctx.out_dir), *seconds = cJSON_CreateObject();
    if (!measured_child && identity_begin(&r, &id, msg, sizeof msg) < 0) {
        skb_cli_error("%s", msg);
        cJSON_Delete(prev);
        cJSON_Delete(seconds);
        skb_run_close(&r.ctx);
        return 1;
    }
    struct t41_seen before[2];
    t41_snapshot(r.ctx.out_dir, before);
    cJSON *status = cJSON_CreateObject();
    int total, failed = run_experiments(&r, prev, status, seconds, &total, msg, sizeof msg);
    if (table41_refresh(&r.ctx, before, msg, sizeof msg) < 0) {
        skb_cli_error("run: %s", msg);
        failed++;
    }
    /* the manifest's failure fails the run, but it is no experiment's */
    if (!measured_child && identity_end(&r, &id, status, seconds, msg, sizeof msg) < 0) {
        skb_cli_error("run: %s", msg);
        manifest_failed = 1;
    }
    cJSON_Delete(status);
    cJSON_Delete(seconds);
    cJSON_Delete(prev);
    if (r.ctx.verbose && r.ctx.dataset_file)   /* tests/run_dataset.sh: once, shared by the experiments */
        fprintf(stderr, "skinbench run: %s imported %d time(s)\n", r.ctx.dataset_file, skb_run_imports(&r.ctx));
    skb_run_close(&r.ctx);
    if (r.ctx.verbose)
        fprintf(stderr, "skinbench run: %d experiment(s), %d failed; results in %s\n", total, failed, r.ctx.out_dir);
    return failed || manifest_failed ? 1 : 0;
}
