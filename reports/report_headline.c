/* report_headline.c — the report's first screen: one row per headline claim
 * of the papers (reports/reference.json "headline"), each a summary of rows
 * the tables have already judged: their measured and paper cells and how
 * many rows of each status.  Nothing is judged here a second time (a claim such as
 * DLB ≈ 1.38× LBS must not read "reproduced" here and "differs" below). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "report_internal.h"

const char *skb_headline_status_name(int st)
{
    return st == SKB_HEAD_MIXED ? "mixed" : st == SKB_HEAD_NONE ? "no judged rows" : skb_row_status_name(st);
}

static int col_index(const struct skb_rtable *t, const char *name)
{
    for (int c = 0; name && c < t->ncols; c++)
        if (strcmp(t->col[c], name) == 0)
            return c;
    return -1;
}

/* every {column: text} of the spec's `key` holds for the row: "match" is
 * equality, "contains" / "not_contains" a substring; a column the table
 * lacks never matches */
static int cond_holds(const struct skb_rtable *t, const struct skb_rrow *r, const cJSON *spec, const char *key)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, skb__jget(spec, key)) {
        int i = col_index(t, c->string);
        const char *want = skb__jstr(c);
        if (i < 0 || !want)
            return 0;
        int hit = strcmp(key, "match") == 0 ? strcmp(r->cell[i], want) == 0 : strstr(r->cell[i], want) != NULL;
        if (hit == (strcmp(key, "not_contains") == 0))
            return 0;
    }
    return 1;
}

/* a claim's rows: judged rows that the spec selects; "new" rows have no
 * paper value and so are no part of a paper's claim */
static int row_selected(const struct skb_rtable *t, const struct skb_rrow *r, const cJSON *spec)
{
    return r->status != SKB_ROW_NEW && cond_holds(t, r, spec, "match") && cond_holds(t, r, spec, "contains")
        && cond_holds(t, r, spec, "not_contains");
}

static int cell_number(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && isfinite(*v);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void append(char *buf, size_t n, const char *sep, const char *s)
{
    size_t len = strlen(buf);
    snprintf(buf + len, n - len, "%s%s", len ? sep : "", s);
}

/* the cells of column `col` over the selected rows: the cell itself when
 * they agree; "lo–hi (median m, N rows)" over those that are numbers (and
 * how many have none, "—"); else each distinct text, separated by " / " */
static void summarise_col(const struct skb_rtable *t, const int *sel, int nsel, int col, char *out, size_t n)
{
    out[0] = '\0';
    if (col < 0 || nsel == 0)
        return;
    double *v = malloc((size_t)nsel * sizeof *v);
    int nv = 0, same = 1;
    for (int i = 0; i < nsel; i++) {
        const char *c = t->rows[sel[i]].cell[col];
        same &= strcmp(c, t->rows[sel[0]].cell[col]) == 0;
        if (v && cell_number(c, &v[nv]))
            nv++;
    }
    if (same)
        snprintf(out, n, "%s", t->rows[sel[0]].cell[col]);
    else if (v && nv > 0) {
        qsort(v, (size_t)nv, sizeof *v, cmp_double);
        double med = nv % 2 ? v[nv / 2] : (v[nv / 2 - 1] + v[nv / 2]) / 2;
        char lo[32], hi[32];
        snprintf(lo, sizeof lo, "%.3g", v[0]);
        snprintf(hi, sizeof hi, "%.3g", v[nv - 1]);
        if (strcmp(lo, hi) == 0)
            snprintf(out, n, "%s (%d rows)", lo, nv);
        else
            snprintf(out, n, "%s–%s (median %.3g, %d rows)", lo, hi, med, nv);
        if (nv < nsel) {
            char more[64];
            snprintf(more, sizeof more, "; %d without a value", nsel - nv);
            append(out, n, "", more);
        }
    } else {
        for (int i = 0; i < nsel; i++) {
            const char *c = t->rows[sel[i]].cell[col];
            if (!strstr(out, c))
                append(out, n, " / ", c);
        }
    }
    free(v);
}

/* a row's name in a claim: the cells of the spec's "label" column(s)
 * (a heading or an array of headings), else its first cell after the machine */
static void label_cell(const struct skb_rtable *t, const struct skb_rrow *r, const cJSON *heading, char *out, size_t n)
{
    int c = col_index(t, skb__jstr(heading));
    if (c >= 0)
        append(out, n, " ", r->cell[c]);
}

static void row_label(const struct skb_report *rep, const struct skb_rtable *t, const struct skb_rrow *r,
                      const cJSON *spec, char *out, size_t n)
{
    const cJSON *l = skb__jget(spec, "label"), *x;
    out[0] = '\0';
    if (cJSON_IsArray(l)) {
        cJSON_ArrayForEach(x, l)
            label_cell(t, r, x, out, n);
    } else {
        label_cell(t, r, l, out, n);
    }
    if (!out[0])
        snprintf(out, n, "%s", r->cell[rep->nruns > 1 && t->ncols > 1 ? 1 : 0]);
}

/* "label value" (or the values alone, in the same order) of every selected
 * row, for claims over a few named rows; the reference row of a ratio
 * (status context) is left out.  A list never holds an empty item: a
 * measured row without a value reads "label —" (keep) unless the method
 * does not apply (the rows column counts those), a paper's is left out */
static void list_col(const struct skb_report *rep, const struct skb_rtable *t, const int *sel, int nsel,
                     const cJSON *spec, int col, int labelled, int keep, char *out, size_t n)
{
    out[0] = '\0';
    for (int i = 0; i < nsel && col >= 0; i++) {
        char item[200], label[120] = "";
        const char *c = t->rows[sel[i]].cell[col];
        int st = t->rows[sel[i]].status;
        if (st == SKB_ROW_CONTEXT || (!c[0] && (!keep || st == SKB_ROW_NA)))
            continue;
        if (labelled)
            row_label(rep, t, &t->rows[sel[i]], spec, label, sizeof label);
        snprintf(item, sizeof item, "%s%s%s", label, label[0] ? " " : "", c[0] ? c : "—");
        append(out, n, ", ", item);
    }
}

/* whether some listed row (not context, not "not applicable") has no cell in column col */
static int any_empty(const struct skb_rtable *t, const int *sel, int nsel, int col)
{
    for (int i = 0; i < nsel && col >= 0; i++)
        if (t->rows[sel[i]].status != SKB_ROW_CONTEXT && t->rows[sel[i]].status != SKB_ROW_NA
            && !t->rows[sel[i]].cell[col][0])
            return 1;
    return 0;
}

/* the statuses behind the claim: one status when every judged row agrees
 * (context rows only count when nothing else is judged; "reproduced
 * (trivial)" rows agree with reproduced ones), else mixed */
static int overall_status(const int *count)
{
    int st = -1, judged = count[SKB_ROW_REPRODUCED] + count[SKB_ROW_DIFFERS] + count[SKB_ROW_DIFFERS_SETUP]
                          + count[SKB_ROW_INCONCLUSIVE] + count[SKB_ROW_TRIVIAL] + count[SKB_ROW_FEWER];
    /* a claim none of whose rows is judged (all not run, not applicable,
     * context or new: a user's model) says so instead of "mixed" */
    if (!judged)
        return count[SKB_ROW_CONTEXT] && !count[SKB_ROW_NOT_RUN] && !count[SKB_ROW_NA] ? SKB_ROW_CONTEXT : SKB_HEAD_NONE;
    for (int s = 0; s < SKB_ROW_NSTATUS; s++) {
        if (!count[s] || s == SKB_ROW_CONTEXT || s == SKB_ROW_NEW || s == SKB_ROW_NOT_RUN || s == SKB_ROW_NA
            || (s == SKB_ROW_TRIVIAL && count[SKB_ROW_REPRODUCED]))
            continue;
        if (st >= 0)
            return SKB_HEAD_MIXED;
        st = s;
    }
    return st;
}

/* whether a differing row before sel[i] has the same label (several machines) */
static int seen_before(const struct skb_rtable *t, const int *sel, int i, const cJSON *spec,
                       const struct skb_report *rep, const char *label)
{
    for (int j = 0; j < i; j++) {
        char other[120];
        if (t->rows[sel[j]].status != SKB_ROW_DIFFERS)
            continue;
        row_label(rep, t, &t->rows[sel[j]], spec, other, sizeof other);
        if (strcmp(other, label) == 0)
            return 1;
    }
    return 0;
}

static void rows_text(const struct skb_report *rep, const struct skb_rtable *t, const int *sel, int nsel,
                      const int *count, const cJSON *spec, char *out, size_t n)
{
    snprintf(out, n, "%d row%s:", nsel, nsel == 1 ? "" : "s");
    for (int s = 0, k = 0; s < SKB_ROW_NSTATUS; s++)
        if (count[s]) {
            char item[80];
            snprintf(item, sizeof item, "%s %d %s", k++ ? "," : "", count[s], skb_row_status_name(s));
            append(out, n, "", item);
        }
    if (!count[SKB_ROW_DIFFERS] || nsel < 2)
        return;
    /* the first few names that differ (once each, whatever the machine);
     * the section has them all */
    char names[300] = "";
    int k = 0, more = 0;
    for (int i = 0; i < nsel; i++) {
        char label[120];
        if (t->rows[sel[i]].status != SKB_ROW_DIFFERS)
            continue;
        row_label(rep, t, &t->rows[sel[i]], spec, label, sizeof label);
        if (seen_before(t, sel, i, spec, rep, label))
            continue;
        if (k++ < 4)
            append(names, sizeof names, ", ", label);
        else
            more = 1;
    }
    append(out, n, "", "; differs: ");
    append(out, n, "", names);
    if (more)
        append(out, n, "", " …");
}

/* "R of J judged rows reproduced, D differs, ...; N not applicable": each
 * status counted once, in the words of the row statuses, so the count
 * reads the same as the rows column */
static void count_text(const int *count, char *out, size_t n)
{
    static const int judged[] = { SKB_ROW_DIFFERS, SKB_ROW_DIFFERS_SETUP, SKB_ROW_INCONCLUSIVE, SKB_ROW_FEWER,
                                  SKB_ROW_TRIVIAL };
    static const int unjudged[] = { SKB_ROW_NA, SKB_ROW_NOT_RUN, SKB_ROW_CONTEXT };
    int nj = count[SKB_ROW_REPRODUCED];
    for (size_t i = 0; i < sizeof judged / sizeof judged[0]; i++)
        nj += count[judged[i]];
    snprintf(out, n, "%d of %d judged row%s reproduced", count[SKB_ROW_REPRODUCED], nj, nj == 1 ? "" : "s");
    for (size_t i = 0; i < sizeof judged / sizeof judged[0]; i++) {
        char item[64];
        snprintf(item, sizeof item, "%d %s", count[judged[i]], skb_row_status_name(judged[i]));
        if (count[judged[i]])
            append(out, n, ", ", item);
    }
    for (size_t i = 0, k = 0; i < sizeof unjudged / sizeof unjudged[0]; i++) {
        char item[64];
        snprintf(item, sizeof item, "%s%d %s", k ? ", " : "; ", count[unjudged[i]], skb_row_status_name(unjudged[i]));
        if (count[unjudged[i]] && ++k)
            append(out, n, "", item);
    }
}

/* what a rule measured, for the deciding factor ("smallest step 1.05") */
static const char *rule_quantity(const char *rule)
{
    return strcmp(rule, "trend") == 0 ? "smallest step " : strcmp(rule, "ordering") == 0 ? "ratio " : "";
}

/* one row's deciding factor: its rule's measured value against the band */
static void decided_item(const struct skb_rrow *r, char *out, size_t n)
{
    const struct skb_verdict *v = &r->v;
    char band[80];
    if (isinf(v->band_hi))
        snprintf(band, sizeof band, "≥ %.3g", v->band_lo);
    else
        snprintf(band, sizeof band, "[%.3g, %.3g]", v->band_lo, v->band_hi);
    if (!r->judged)
        snprintf(out, n, "%s", skb_row_status_name(r->status));
    else if (r->status == SKB_ROW_INCONCLUSIVE)
        snprintf(out, n, "%s%.3g, interval [%.3g, %.3g] crosses band %s (rule %s)", rule_quantity(v->rule),
                 v->measured, v->lo, v->hi, band, v->rule);
    else
        snprintf(out, n, "%s%.3g outside band %s (rule %s)", rule_quantity(v->rule), v->measured, band, v->rule);
}

/* a claim whose status is not "reproduced" shows in its measured cell what
 * decided it: the first rows that differ, then undecided ones, each with its
 * rule's value and band, so the cell never reads as agreeing while the
 * status says otherwise */
static void decided_text(const struct skb_report *rep, const struct skb_rtable *t, const int *sel, int nsel,
                         const cJSON *spec, char *out, size_t n)
{
    int k = 0;
    /* rows that differ first, then the undecided ones */
    for (int i = 0; i < 2 * nsel; i++) {
        const struct skb_rrow *r = &t->rows[sel[i % nsel]];
        int differs = r->status == SKB_ROW_DIFFERS || r->status == SKB_ROW_DIFFERS_SETUP;
        if (i < nsel ? !differs : r->status != SKB_ROW_INCONCLUSIVE)
            continue;
        char label[120] = "", why[200], item[340];
        if (nsel > 1)
            row_label(rep, t, r, spec, label, sizeof label);
        decided_item(r, why, sizeof why);
        snprintf(item, sizeof item, "%s%s%s", label, label[0] ? ": " : "", why);
        if (k++ < 3)
            append(out, n, k > 1 ? "; " : " — decided by ", item);
        else if (k == 4)
            append(out, n, "", "; …");
    }
}

/* a timed claim (rows judged on pairs, reports/report_paired.c): the
 * judged intervals this run reached, relative to their estimates, the
 * floors they were widened by (this run's A/A or the declared minimum),
 * and how many rows this machine decided (the others' intervals cross a
 * band edge) */
static void timing_text(const struct skb_rtable *t, const int *sel, int nsel, char *out, size_t n)
{
    double wlo = INFINITY, whi = 0, flo = INFINITY, fhi = 0;
    int timed = 0, decided = 0;
    for (int i = 0; i < nsel; i++) {
        const struct skb_rrow *r = &t->rows[sel[i]];
        const struct skb_verdict *v = &r->v;
        if (!r->judged || isnan(v->floor) || !(v->measured > 0))
            continue;
        double w = isfinite(v->hi) && v->lo > 0 ? fmax(v->hi / v->measured - 1, 1 - v->lo / v->measured) : INFINITY;
        timed++;
        wlo = fmin(wlo, w);
        whi = fmax(whi, w);
        flo = fmin(flo, v->floor);
        fhi = fmax(fhi, v->floor);
        decided += r->status == SKB_ROW_REPRODUCED || r->status == SKB_ROW_DIFFERS || r->status == SKB_ROW_DIFFERS_SETUP
                   || r->status == SKB_ROW_TRIVIAL;
    }
    if (!timed)
        return;
    char iv[64];
    if (isfinite(whi) && fabs(whi - wlo) < 5e-4)
        snprintf(iv, sizeof iv, "±%.1f %%", 100 * whi);
    else if (isfinite(whi))
        snprintf(iv, sizeof iv, "±%.1f–%.1f %%", 100 * wlo, 100 * whi);
    else
        snprintf(iv, sizeof iv, "up to unbounded");
    char fl[48], buf[360];
    if (fabs(fhi - flo) < 5e-4)
        snprintf(fl, sizeof fl, "%.1f %%", 100 * fhi);
    else
        snprintf(fl, sizeof fl, "%.1f–%.1f %%", 100 * flo, 100 * fhi);
    snprintf(buf, sizeof buf, "; paired: intervals %s (floor %s), %d of %d decided here", iv, fl, decided, timed);
    append(out, n, "", buf);
}

static void headline_one(struct skb_report *rep, const cJSON *spec)
{
    const char *id = skb__jstr(skb__jget(spec, "table"));
    const struct skb_rtable *t = id ? skb_report_table(rep, id) : NULL;
    struct skb_headline *h = &rep->headline[rep->nheadline++];
    memset(h, 0, sizeof *h);
    snprintf(h->claim, sizeof h->claim, "%s", skb__ref_str(spec, "claim"));
    snprintf(h->source, sizeof h->source, "%s", skb__ref_str(spec, "source"));
    snprintf(h->table, sizeof h->table, "%s", id ? id : "");
    int count[SKB_ROW_NSTATUS] = { 0 }, nsel = 0;
    int *sel = t && t->nrows ? malloc((size_t)t->nrows * sizeof *sel) : NULL;
    for (int r = 0; sel && r < t->nrows; r++)
        if (row_selected(t, &t->rows[r], spec)) {
            sel[nsel++] = r;
            count[t->rows[r].status]++;
        }
    h->status = overall_status(count);
    if (!t || nsel == 0) {
        snprintf(h->rows, sizeof h->rows, "no judged row %s", t ? "matches this claim" : "(table not in the report)");
        free(sel);
        return;
    }
    int mcol = col_index(t, skb__jstr(skb__jget(spec, "measured"))), pcol = col_index(t, skb__jstr(skb__jget(spec, "paper")));
    if (cJSON_IsTrue(skb__jget(spec, "list"))) {
        list_col(rep, t, sel, nsel, spec, mcol, 1, 1, h->measured, sizeof h->measured);
        /* the paper's values name their rows when some row has none, so
         * each value still reads against its measured item */
        list_col(rep, t, sel, nsel, spec, pcol, any_empty(t, sel, nsel, pcol), 0, h->paper, sizeof h->paper);
    } else {
        summarise_col(t, sel, nsel, mcol, h->measured, sizeof h->measured);
        summarise_col(t, sel, nsel, pcol, h->paper, sizeof h->paper);
    }
    if (mcol < 0 && (h->status == SKB_HEAD_NONE || h->status == SKB_ROW_CONTEXT))
        snprintf(h->measured, sizeof h->measured, "no judged rows%s", h->status == SKB_ROW_CONTEXT ? " (context only)" : "");
    else if (mcol < 0)   /* a claim over a whole table: its reproduced rows are the measure */
        count_text(count, h->measured, sizeof h->measured);
    if (h->status != SKB_ROW_REPRODUCED && h->status != SKB_ROW_TRIVIAL && h->status != SKB_HEAD_NONE
        && h->status != SKB_ROW_CONTEXT)
        decided_text(rep, t, sel, nsel, spec, h->measured, sizeof h->measured);
    rows_text(rep, t, sel, nsel, count, spec, h->rows, sizeof h->rows);
    timing_text(t, sel, nsel, h->rows, sizeof h->rows);
    free(sel);
}

/* the claim statuses in the order the overall line names them; a claim
 * with no judged row (not run, context only) is counted apart */
static const int overall_order[] = { SKB_ROW_REPRODUCED, SKB_ROW_TRIVIAL, SKB_ROW_FEWER, SKB_ROW_DIFFERS,
                                     SKB_ROW_INCONCLUSIVE, SKB_ROW_DIFFERS_SETUP, SKB_HEAD_MIXED };

void skb_headline_overall(const struct skb_report *rep, char *out, size_t n)
{
    int count[SKB_HEAD_NONE + 1] = { 0 }, judged = 0;
    for (int i = 0; i < rep->nheadline; i++)
        if (rep->headline[i].status >= 0 && rep->headline[i].status <= SKB_HEAD_NONE)
            count[rep->headline[i].status]++;
    for (size_t i = 0; i < sizeof overall_order / sizeof overall_order[0]; i++)
        judged += count[overall_order[i]];
    snprintf(out, n, "Of %d judged claim%s: ", judged, judged == 1 ? "" : "s");
    char items[400] = "";
    for (size_t i = 0; i < sizeof overall_order / sizeof overall_order[0]; i++) {
        char item[64];
        snprintf(item, sizeof item, "%d %s", count[overall_order[i]], skb_headline_status_name(overall_order[i]));
        if (count[overall_order[i]])
            append(items, sizeof items, ", ", item);
    }
    append(out, n, "", judged ? items : "none");
    int rest = rep->nheadline - judged;
    if (rest) {
        char tail[64];
        snprintf(tail, sizeof tail, "; %d not judged here (not run or context only)", rest);
        append(out, n, "", tail);
    }
}

static int run_is_quick(const struct skb_results *r)
{
    for (int i = 0; i < skb_rfile_count(); i++)
        if (cJSON_IsTrue(skb__jget(r->doc[i], "quick")))
            return 1;
    return 0;
}

void skb__report_headline(struct skb_report *rep)
{
    const cJSON *spec;
    rep->nheadline = 0;
    cJSON_ArrayForEach(spec, skb__jget(skb__jget(rep->ref, "headline"), "claims"))
        if (rep->nheadline < SKB_RMAXHEAD)
            headline_one(rep, spec);
    rep->quick = 0;
    for (int k = 0; k < rep->nruns; k++)
        rep->quick += run_is_quick(&rep->runs[k]);
}
