/* cmd_run.c — `skinbench run EXPERIMENT...|all`: the one entry point every
 * experiment plugs into (harness/experiments.c lists them). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "skb_cli.h"
#include "skb_dataset.h"
#include "skb_json.h"
#include "skb_run.h"

#define SKB_DEFAULT_SEED 20070601UL   /* fixed, so runs repeat; recorded in every result */
#define MAX_REPETITIONS 1000          /* Google Benchmark keeps every repetition in memory */

static void run_usage(FILE *f)
{
    fprintf(f, "usage: skinbench run EXPERIMENT...|all [--out DIR] [--seed N] [--quick]\n"
               "                     [--methods a,b,...] [--datasets a,b,...] [--repetitions N] [--quiet]\n"
               "  --out DIR      results directory (default results/latest)\n"
               "  --seed N       random seed (default %lu); written into every result\n"
               "  --quick        seconds-long version (used by make check)\n"
               "  --methods L    only these methods (comma-separated registry names)\n"
               "  --datasets L   cpu: only these datasets (names of `list datasets`, bcn_human+random,\n"
               "                 roofline for the large mesh; default all)\n"
               "  --repetitions N  cpu: Google Benchmark repetitions per kernel (default 5, --quick 2)\n"
               "  --quiet        nothing on stdout or stderr but errors\n"
               "experiments:\n", SKB_DEFAULT_SEED);
    int w = 0;   /* the name column as wide as the longest name */
    for (int i = 0; skb_experiments[i]; i++)
        if ((int)strlen(skb_experiments[i]->name) > w)
            w = (int)strlen(skb_experiments[i]->name);
    for (int i = 0; skb_experiments[i]; i++)
        fprintf(f, "  %-*s %s\n", w, skb_experiments[i]->name, skb_experiments[i]->description);
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

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int skb_cmd_run(int argc, char **argv)
{
    struct skb_run_ctx ctx;
    const char *names[64];
    int nnames = 0, all = 0;
    static char exe[PATH_MAX];
    memset(&ctx, 0, sizeof ctx);
    ctx.out_dir = "results/latest";
    ctx.seed = SKB_DEFAULT_SEED;
    ctx.verbose = 1;
    skb_params_default(&ctx.params);
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    ctx.exe_path = exe;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (skb_cli_is_help(a)) { run_usage(stdout); return 0; }
        else if (strcmp(a, "--quick") == 0) ctx.quick = 1;
        else if (strcmp(a, "--quiet") == 0) ctx.verbose = 0;
        else if (v && strcmp(a, "--out") == 0) { ctx.out_dir = v; i++; }
        else if (v && strcmp(a, "--methods") == 0) {
            ctx.methods_filter = v;
            i++;
            for (const char *p = v; *p;) {
                size_t len = strcspn(p, ",");
                int found = 0;
                for (int k = 0; skb_methods[k]; k++)
                    if (strlen(skb_methods[k]->name) == len && strncmp(skb_methods[k]->name, p, len) == 0)
                        found = 1;
                if (!found) {
                    skb_cli_error("run: --methods: unknown method '%.*s' (see skinbench list methods)", (int)len, p);
                    return 2;
                }
                p += len;
                if (*p == ',')
                    p++;
            }
        } else if (v && strcmp(a, "--datasets") == 0) {
            if (check_datasets(v) < 0)
                return 2;
            ctx.datasets_filter = v;
            i++;
        } else if (v && strcmp(a, "--repetitions") == 0) {
            unsigned long r;
            if (skb_cli_parse_ulong(v, &r) < 0 || r < 1 || r > MAX_REPETITIONS) {
                skb_cli_error("run: --repetitions '%s': expected an integer from 1 to %d", v, MAX_REPETITIONS);
                return 2;
            }
            ctx.repetitions = (int)r;
            i++;
        } else if (v && strcmp(a, "--seed") == 0) {
            if (skb_cli_parse_ulong(v, &ctx.seed) < 0) {
                skb_cli_error("run: --seed '%s': expected a non-negative integer", v);
                return 2;
            }
            i++;
        } else if (a[0] == '-') {
            skb_cli_error("run: unknown or incomplete option '%s' (see skinbench run --help)", a);
            return 2;
        } else if (strcmp(a, "all") == 0) {
            all = 1;
        } else if (!skb_experiment_find(a)) {
            skb_cli_error("run: unknown experiment '%s' (see skinbench list experiments)", a);
            return 2;
        } else if (nnames < 64) {
            names[nnames++] = a;
        }
    }
    if (!all && nnames == 0) {
        skb_cli_error("run: name at least one experiment, or all (see skinbench run --help)");
        return 2;
    }
    char msg[1024];
    if (skb_mkdirs(ctx.out_dir, msg, sizeof msg) < 0) {
        skb_cli_error("%s", msg);
        return 1;
    }
    if (ctx.verbose)
        fprintf(stderr, "skinbench run: seed %lu, results in %s%s\n", ctx.seed, ctx.out_dir,
                ctx.quick ? " (quick)" : "");
    int failed = 0, total = 0;
    for (int i = 0; skb_experiments[i]; i++) {
        const struct skb_experiment *e = skb_experiments[i];
        int wanted = all;
        for (int k = 0; k < nnames; k++)
            wanted |= strcmp(names[k], e->name) == 0;
        if (!wanted)
            continue;
        total++;
        double t0 = now_s();
        if (ctx.verbose)
            fprintf(stderr, "[%d] %s: %s ...\n", total, e->name, e->description);
        msg[0] = 0;
        if (e->run(&ctx, msg, sizeof msg) < 0) {
            skb_cli_error("run %s: %s", e->name, msg[0] ? msg : "failed");
            failed++;
        } else if (ctx.verbose) {
            fprintf(stderr, "[%d] %s: done in %.1f s\n", total, e->name, now_s() - t0);
        }
    }
    if (ctx.verbose)
        fprintf(stderr, "skinbench run: %d experiment(s), %d failed; results in %s\n", total, failed, ctx.out_dir);
    return failed ? 1 : 0;
}
