/* gate_lines.c — what every experiment's nightly gate (a descriptor's .gate,
 * reports/exp_<name>.c) reports through: one line of compare's verdict, a
 * regression, a note or what it cannot judge (undecided), handed to compare's line writer through g->ops
 * (data set by regress/compare.c, regress/cmp_lines.c), so the gates here in
 * reports/ never call up into regress/; and the exact comparison of two
 * subtrees several gates share (docs/report-and-regression.md "Nightly
 * regression"). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include "skb_json.h"
#include "report_internal.h"

/* the verdict's line length (regress/cmp_lines.c cuts its own lines alike) */
#define GATE_LINE_MAX 600

static void gate_vline(struct skb_gate *g, int kind, const char *fmt, va_list ap)
{
    char buf[GATE_LINE_MAX];
    vsnprintf(buf, sizeof buf, fmt, ap);
    g->ops->line(g->s, kind, buf);
}

void skb_gate_regression(struct skb_gate *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gate_vline(g, SKB_GATE_REGRESSION, fmt, ap);
    va_end(ap);
}

void skb_gate_note(struct skb_gate *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gate_vline(g, SKB_GATE_NOTE, fmt, ap);
    va_end(ap);
}

void skb_gate_undecided(struct skb_gate *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gate_vline(g, SKB_GATE_UNDECIDED, fmt, ap);
    va_end(ap);
}

/* every numeric leaf of a and b, compared exactly; path names the field */
void skb_gate_exact_tree(struct skb_gate *g, const char *file, const char *path, const cJSON *a, const cJSON *b,
                         const char *what)
{
    char sub[400];
    double x, y;
    if (skb_json_get_number(a, &x) == 0) {
        if (skb_json_get_number(b, &y) < 0)
            skb_gate_regression(g, "%s: %s %s missing in the current run (baseline %.17g)", file, what, path, x);
        else if (!(x == y || (isnan(x) && isnan(y))))
            skb_gate_regression(g, "%s: %s %s changed %.17g -> %.17g", file, what, path, x, y);
        return;
    }
    if (!cJSON_IsObject(a) && !cJSON_IsArray(a))
        return;
    const cJSON *c;
    int i = 0;
    cJSON_ArrayForEach(c, a) {
        if (cJSON_IsArray(a))
            snprintf(sub, sizeof sub, "%s[%d]", path, i);
        else
            snprintf(sub, sizeof sub, "%s.%s", path, c->string);
        skb_gate_exact_tree(g, file, sub, c, cJSON_IsArray(a) ? cJSON_GetArrayItem(b, i) : skb__jget(b, c->string),
                            what);
        i++;
    }
}
