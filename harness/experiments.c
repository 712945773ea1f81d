/* experiments.c — what every experiment's run hook shares: the --methods
 * filter and progress lines.  The list of experiments is
 * reports/experiment_list.c (one descriptor per experiment). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_run.h"

int skb_run_wants_method(const struct skb_run_ctx *ctx, const struct skb_method *m)
{
    const char *f = ctx->methods_filter;
    size_t n = strlen(m->name);
    if (!f || !*f)
        return 1;
    while (*f) {
        size_t len = strcspn(f, ",");
        if (len == n && strncmp(f, m->name, n) == 0)
            return 1;
        f += len;
        if (*f == ',')
            f++;
    }
    return 0;
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

