/* experiments.c — the one table of experiments `skinbench run` knows. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_run.h"

/* one line per experiment; each lives in harness/exp_<name>.c */
extern const struct skb_experiment skb_exp_properties;
extern const struct skb_experiment skb_exp_flops;
extern const struct skb_experiment skb_exp_bounds;
extern const struct skb_experiment skb_exp_cpu;
extern const struct skb_experiment skb_exp_icount;
extern const struct skb_experiment skb_exp_gpu;
extern const struct skb_experiment skb_exp_spheres;
extern const struct skb_experiment skb_exp_cd;
const struct skb_experiment *const skb_experiments[] = {
    &skb_exp_properties,
    &skb_exp_flops,
    &skb_exp_bounds,
    &skb_exp_cpu,
    &skb_exp_icount,
    &skb_exp_gpu,
    &skb_exp_spheres,
    &skb_exp_cd,
    NULL
};

const struct skb_experiment *skb_experiment_find(const char *name)
{
    for (int i = 0; skb_experiments[i]; i++)
        if (strcmp(skb_experiments[i]->name, name) == 0)
            return skb_experiments[i];
    return NULL;
}

/* name is one of the comma-separated entries of list f (NULL or empty: all) */
static int in_list(const char *f, const char *name)
{
    size_t n = strlen(name);
    if (!f || !*f)
        return 1;
    while (*f) {
        size_t len = strcspn(f, ",");
        if (len == n && strncmp(f, name, n) == 0)
            return 1;
        f += len;
        if (*f == ',')
            f++;
    }
    return 0;
}

int skb_run_wants_method(const struct skb_run_ctx *ctx, const struct skb_method *m)
{
    return in_list(ctx->methods_filter, m->name);
}

int skb_run_wants_dataset(const struct skb_run_ctx *ctx, const char *name)
{
    return in_list(ctx->datasets_filter, name);
}

void skb_run_progress(const struct skb_run_ctx *ctx, const char *name, const char *fmt, ...)
{
    va_list ap;
    if (!ctx->verbose)
        return;
    fprintf(stderr, "[%s] ", name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

