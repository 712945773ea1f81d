/* verdict.c — the rule vocabulary of reports/reference.json "tolerance_rules":
 * every judged row turns its rule into a band on its measured value, and the
 * band and the measured value's interval decide the status.  A timed value
 * is reproduced only when its whole interval lies in the band, differs only
 * when the whole interval lies outside; otherwise it is inconclusive.  The
 * same function decides every row, and report.json carries its inputs, so a
 * reader (tests/report_json.sh) can decide each row again. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "report_internal.h"
#include "skb_timing.h"

/* the rule kinds of reference.json tolerance_rules that set a band */
static const char *const band_kinds[] = { "exact", "exact_int", "abs", "rel", "range", "excess", "order_factor",
                                          "ordering", "trend", NULL };

int skb_rule_known(const char *kind)
{
    for (int i = 0; kind && band_kinds[i]; i++)
        if (strcmp(kind, band_kinds[i]) == 0)
            return 1;
    return 0;
}

/* excess: a ratio to a baseline (m / base) is judged on its excess m - 1
 * against the paper's p - 1, within a factor f on the excess (DQ paper
 * Fig. 18: DLB/LBS 1.06 is a 6 % overhead against the paper's 38 %, far
 * outside ×2; a 25 % band on the ratio itself let it pass) */
static void excess_band(double p, double f, double *lo, double *hi)
{
    double e = p - 1;
    if (e >= 0) {
        *lo = 1 + e / f;
        *hi = 1 + e * f;
    } else {
        *lo = 1 + e * f;
        *hi = 1 + e / f;
    }
}

/* same side of 1 and within a factor f (speed-ups, thesis Tables 5.3 /
 * 6.2): the band is the paper's factor range cut at 1 */
static void side_factor_band(double p, double f, double *lo, double *hi)
{
    *lo = p / f;
    *hi = p * f;
    if (p > 1 && *lo < 1)
        *lo = 1;
    if (p < 1 && *hi > 1)
        *hi = 1;
}

/* half a unit of the last digit a paper value is printed with (1.27:
 * 0.005; 1995: 0.5): the value the paper measured lay anywhere within it
 * (reference.json holds the printed figures, to at most 6 significant
 * digits).  A whole number below 10 counts as exact: JSON cannot tell a
 * printed "1.0" from "1", and the small whole numbers there are constants
 * (a ratio of 1, a count) */
double skb_rule_printed_half_unit(double p)
{
    char buf[64];
    if (!isfinite(p))
        return 0;
    snprintf(buf, sizeof buf, "%.6g", fabs(p));
    if (strchr(buf, 'e'))
        return 0;
    const char *dot = strchr(buf, '.');
    int dec = dot ? (int)strlen(dot + 1) : 0;
    if (dec == 0 && fabs(p) < 10)
        return 0;
    return 0.5 * pow(10, -dec);
}

/* the band of rule k with parameter x about a paper value p (a at the low
 * end of a range) */
static int band_at(const char *k, double x, double p, double a, double *lo, double *hi)
{
    if (strcmp(k, "exact") == 0)
        *lo = *hi = p;
    else if (strcmp(k, "exact_int") == 0) {
        *lo = p - 0.5;
        *hi = p + 0.5;
    } else if (strcmp(k, "abs") == 0) {
        *lo = p - x;
        *hi = p + x;
    } else if (strcmp(k, "rel") == 0) {
        *lo = p - x * fabs(p);
        *hi = p + x * fabs(p);
    } else if (strcmp(k, "range") == 0) {
        *lo = a * (1 - x);
        *hi = p * (1 + x);
    } else if (strcmp(k, "excess") == 0) {
        if (!(x >= 1))
            return -1;
        excess_band(p, x, lo, hi);
    } else if (strcmp(k, "order_factor") == 0) {
        if (!(x >= 1) || !(p > 0))
            return -1;
        side_factor_band(p, x, lo, hi);
    } else if (strcmp(k, "ordering") == 0) {
        /* larger / smaller above 1 + gap, and at least half the paper's own
         * gap: bottom-up / LBS 1.019 against the paper's 1.144 shows the
         * order but not the paper's difference */
        *lo = 1 + fmax(x, p > 1 ? (p - 1) / 2 : 0);
        *hi = INFINITY;
    } else {   /* trend: the smallest step ratio above 1 + gap */
        *lo = 1 + x;
        *hi = INFINITY;
    }
    return 0;
}

int skb_rule_band(struct skb_verdict *v)
{
    double p = v->paper, x = v->value, lo, hi, lo2, hi2;
    const char *k = v->rule;
    if (!skb_rule_known(k) || !isfinite(p))
        return -1;
    if (!isfinite(x))
        x = 0;
    double a = isfinite(v->paper_lo) ? v->paper_lo : p;
    /* the band holds every value the paper's printed figure stands for:
     * the union of the bands about its ends (exact counts excepted) */
    int exact = strcmp(k, "exact") == 0 || strcmp(k, "exact_int") == 0 || strcmp(k, "trend") == 0;
    double rp = exact ? 0 : skb_rule_printed_half_unit(p), ra = exact ? 0 : skb_rule_printed_half_unit(a);
    if (band_at(k, x, p - rp, a - ra, &lo, &hi) < 0 || band_at(k, x, p + rp, a + ra, &lo2, &hi2) < 0)
        return -1;
    v->band_lo = fmin(lo, lo2);
    v->band_hi = fmax(hi, hi2);
    return 0;
}

/* the interval a decision uses: the measured value's, else the point */
static void span(const struct skb_verdict *v, double *lo, double *hi)
{
    int timed = !isnan(v->lo) && !isnan(v->hi);   /* [0, inf]: timed, undecided */
    *lo = timed ? fmin(v->lo, v->measured) : v->measured;
    *hi = timed ? fmax(v->hi, v->measured) : v->measured;
}

int skb_verdict_status(const struct skb_verdict *v)
{
    double lo, hi, t = v->trivial;
    if (!skb_rule_known(v->rule) || !isfinite(v->measured) || isnan(v->band_lo) || isnan(v->band_hi))
        return SKB_ROW_NOT_RUN;
    span(v, &lo, &hi);
    if (t > 0 && fabs(lo - 1) <= t && fabs(hi - 1) <= t && fabs(v->paper - 1) <= t)
        return SKB_ROW_TRIVIAL;
    if (lo >= v->band_lo && hi <= v->band_hi)
        return SKB_ROW_REPRODUCED;
    if (hi < v->band_lo || lo > v->band_hi)
        return v->setup ? SKB_ROW_DIFFERS_SETUP : SKB_ROW_DIFFERS;
    return SKB_ROW_INCONCLUSIVE;
}

/* how far the measured value is inside the band (> 0) or outside it
 * (< 0), in the measured value's units: the distance to the nearer edge */
double skb_verdict_margin(const struct skb_verdict *v)
{
    double m = v->measured;
    if (!isfinite(m) || isnan(v->band_lo) || isnan(v->band_hi))
        return NAN;
    return fmin(m - v->band_lo, v->band_hi - m);
}

void skb_verdict_init(struct skb_verdict *v, const char *rule, double value, double measured, double paper)
{
    memset(v, 0, sizeof *v);
    snprintf(v->rule, sizeof v->rule, "%s", rule ? rule : "");
    v->value = value;
    v->measured = measured;
    v->paper = paper;
    v->lo = v->hi = v->paper_lo = v->band_lo = v->band_hi = NAN;
    v->paired_lo = v->paired_hi = v->floor = NAN;
}

void skb_verdict_paired(struct skb_verdict *v, double lo, double hi, double f)
{
    v->paired_lo = lo;
    v->paired_hi = hi;
    v->floor = f;
    if (!isfinite(lo) || !isfinite(hi))
        return;
    skb_pair_widen(lo, hi, f, &v->lo, &v->hi);
}

/* the paragraph a row's note gets: interval, band and margin, so the reader
 * sees how close a verdict stands to the edge */
char *skb__verdict_text(const struct skb_verdict *v, int status)
{
    char iv[200] = "";
    if (isfinite(v->lo) && isfinite(v->hi) && isfinite(v->paired_lo))
        snprintf(iv, sizeof iv, ", paired interval [%.4g, %.4g] widened by %.3g %% to [%.4g, %.4g]", v->paired_lo,
                 v->paired_hi, 100 * (isfinite(v->floor) ? v->floor : 0), v->lo, v->hi);
    else if (isfinite(v->lo) && isfinite(v->hi))
        snprintf(iv, sizeof iv, ", interval [%.4g, %.4g]", v->lo, v->hi);
    const char *why = status == SKB_ROW_INCONCLUSIVE ? ": the interval crosses a band edge, undecided"
                    : status == SKB_ROW_TRIVIAL ? ": measured and paper both ~1, agrees trivially" : "";
    return skb__fmt("rule %s: measured %.4g%s, band [%.4g, %.4g], margin %+.3g%s", v->rule, v->measured, iv, v->band_lo,
                    v->band_hi, skb_verdict_margin(v), why);
}
