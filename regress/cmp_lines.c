/* cmp_lines.c — the lines of compare's verdict (docs/report-and-regression.md "Nightly regression"):
 * regressions (counted, exit 1), notes, and what a gate could not decide
 * (exit 3), on the output and into compare.json.  Every gate reports through
 * these, so they sit below the gates. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "compare_internal.h"

void skb__cmp_clean(char *t)
{
    /* names come from the results files: a newline or an escape sequence
     * in a benchmark name must not print a forged "compare: pass" line */
    for (unsigned char *c = (unsigned char *)t; c && *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            *c = '?';
}

/* one line of the verdict: a regression (counted, exit 1), a note, or
 * what a gate cannot judge (exit 3; listed with compare's INCONCLUSIVE lines) */
static void say(struct cmp_state *s, int kind, const char *text)
{
    char buf[600];
    snprintf(buf, sizeof buf, "%s", text);
    skb__cmp_clean(buf);
    if (kind == SKB_GATE_UNDECIDED) {
        skb__cmp_undecided(s, buf, "cannot be judged");
        return;
    }
    int is_regression = kind == SKB_GATE_REGRESSION;
    fprintf(s->out, "%s%s\n", is_regression ? "REGRESSION " : "  ", buf);
    cJSON_AddItemToArray(is_regression ? s->reg : s->info, cJSON_CreateString(buf));
    s->regressions += is_regression;
}

static void vsay(struct cmp_state *s, int kind, const char *fmt, va_list ap)
{
    char buf[600];
    vsnprintf(buf, sizeof buf, fmt, ap);
    say(s, kind, buf);
}

void skb__cmp_regression(struct cmp_state *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(s, SKB_GATE_REGRESSION, fmt, ap);
    va_end(ap);
}

void skb__cmp_info(struct cmp_state *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(s, SKB_GATE_NOTE, fmt, ap);
    va_end(ap);
}

/* the experiment descriptors' gates (reports/skb_report.h) report through
 * this table: data handed down, so reports/ never calls up into regress/ */
const struct skb_gate_ops skb__cmp_gate_ops = { say };

/* a timed benchmark or gate that could not decide: never a pass (exit 3);
 * with an A/B sitting the unpaired U test only informs */
void skb__cmp_undecided(struct cmp_state *s, const char *bench, const char *why)
{
    if (s->timing_informational && (strcmp(why, "powerless") == 0 || strcmp(why, "unconfirmed") == 0))
        return;
    cJSON *row = cJSON_CreateObject();
    cJSON_AddStringToObject(row, "benchmark", bench);
    cJSON_AddStringToObject(row, "reason", why);
    cJSON_AddItemToArray(s->undecided, row);
    s->inconclusive++;
}


int skb__cmp_asked(const struct cmp_state *s, const char *name)
{
    const char *p = s->o ? s->o->only : NULL;
    size_t n = strlen(name);
    if (!p)
        return 1;
    for (; *p; p += strcspn(p, ","), p += *p == ',')
        if (strcspn(p, ",") == n && strncmp(p, name, n) == 0)
            return 1;
    return 0;
}
