/* report_paired.c — reading and judging the ratios the experiments timed
 * pair by pair (common/skb_timing.h: the Hodges-Lehmann estimate of the
 * pairs' log ratios with its exact interval, and in the same sitting each
 * control's A/A).  A judged interval is the pairs' interval widened by the
 * larger of this run's A/A floor and the minimum reports/reference.json
 * declares (tolerance_rules.timing_interval.paired_min_floor); a floor
 * measured on another machine decides nothing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_internal.h"

static int str_is(const cJSON *o, const char *key, const char *want)
{
    const char *s = skb__jstr(skb__jget(o, key));
    return s && want && strcmp(s, want) == 0;
}

const cJSON *skb__paired_find(const cJSON *rows, const char *kernel, const char *control, const char *treatment)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, rows)
        if (str_is(r, "kernel", kernel) && str_is(r, "control", control) && (!treatment || str_is(r, "treatment", treatment)))
            return r;
    return NULL;
}

int skb__paired_read(const cJSON *row, struct skb_paired *p)
{
    double n = NAN;
    p->ratio = p->lo = p->hi = p->aa_floor = NAN;
    p->pairs = 0;
    if (!row || skb__jnum(skb__jget(row, "ratio"), &p->ratio) < 0 || !(p->ratio > 0) || !isfinite(p->ratio))
        return -1;
    skb__jnum(skb__jget(row, "ci_low"), &p->lo);
    skb__jnum(skb__jget(row, "ci_high"), &p->hi);
    skb__jnum(skb__jget(row, "aa_floor"), &p->aa_floor);
    if (skb__jnum(skb__jget(row, "pairs"), &n) == 0 && n >= 0 && n < 1e6)
        p->pairs = (int)n;
    return 0;
}

double skb__paired_floor(const struct skb_report *rep, const struct skb_paired *p)
{
    double m = NAN;
    skb__jnum(skb__jget(skb__jget(skb__jget(rep->ref, "tolerance_rules"), "timing_interval"), "paired_min_floor"), &m);
    if (!isfinite(p->aa_floor) || p->aa_floor < 0)
        return NAN;
    return fmax(p->aa_floor, isfinite(m) && m > 0 ? m : 0);
}

int skb__judge_paired(const struct skb_report *rep, struct skb_verdict *v, const struct skb_paired *p, char **note)
{
    double f = skb__paired_floor(rep, p);
    if (isfinite(f) && isfinite(p->lo) && isfinite(p->hi)) {
        skb_verdict_paired(v, p->lo, p->hi, f);
    } else {   /* too few pairs for an interval, or no A/A beside them: nothing is decided */
        skb_verdict_paired(v, p->lo, p->hi, f);
        v->lo = 0;
        v->hi = INFINITY;
    }
    int st = skb_verdict_status(v);
    free(*note);
    *note = skb__verdict_text(v, st);
    if (!isfinite(f))
        *note = skb__join_note(*note, "no A/A control in this sitting: undecided");
    return st;
}

char *skb__paired_cell(const struct skb_paired *p)
{
    if (!isfinite(p->lo) || !isfinite(p->hi))
        return skb__fmt("%.4g", p->ratio);
    return skb__fmt("%.4g [%.4g, %.4g]", p->ratio, p->lo, p->hi);
}
