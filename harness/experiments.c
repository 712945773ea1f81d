/* experiments.c — what every experiment's run hook shares: the --methods
 * and --datasets filters and progress lines.  The list of experiments is
 * reports/experiment_list.c (one descriptor per experiment). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_run.h"

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

